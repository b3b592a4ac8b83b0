"""How strong the house bots play at a live table, as the person chooses it.

A strength is a house strategy with a search budget: easy is ``greedy`` (the best-looking move
now, no search), medium is ``mcts`` with a short budget, hard ``mcts`` with a longer one. The
budgets are playouts, never seconds, so a table plays the same moves from the same seed on any
machine; that is what lets a match be played again from its recorded moves (after a lost
worker, or a takeback). The strength is stored on the seat (``MatchSeat.strength``) and each
house bot is rated at its strength as its own entry of the pool (``PlayRating.strength``).

Measured on the development machine (2 cores shared, load 5), Cat Lady with 2 players: mcts
at 50 playouts takes about 0.13 s a move, at 400 about 0.45 s (the house default of 200 about
0.3 s). Playing a match again (a takeback, a lost worker) plays the house bots' recorded
moves without searching (``arena.runner``'s ``recorded``), so it costs no search at all.

>>> strength_params("mcts", "hard")
{'iterations': 400}
>>> parse_house("house:cat-lady:mcts:medium")
('mcts', 'medium')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError

if TYPE_CHECKING:
    from arena.models import Match

MEDIUM_PLAYOUTS = 50
HARD_PLAYOUTS = 400


@dataclass(frozen=True)
class Strength:
    name: str
    strategy: str  # the house strategy that plays it
    params: dict[str, Any] = field(default_factory=dict)  # engine.strategies.get's parameters
    summary: str = ""

    @property
    def label(self) -> str:
        """``mcts · hard (mcts, 400 playouts a move)``, as the play form offers it."""
        return f"{self.strategy} · {self.name} ({self.summary})"


STRENGTHS = {
    s.name: s
    for s in (
        Strength("easy", "greedy", {}, "greedy: the best-looking move, no search"),
        Strength(
            "medium",
            "mcts",
            {"iterations": MEDIUM_PLAYOUTS},
            f"mcts, {MEDIUM_PLAYOUTS} playouts a move",
        ),
        Strength(
            "hard", "mcts", {"iterations": HARD_PLAYOUTS}, f"mcts, {HARD_PLAYOUTS} playouts a move"
        ),
    )
}


def strength_params(builtin: str, strength: str) -> dict[str, Any]:
    """The strategy parameters of house bot ``builtin`` at ``strength`` ("" for its own
    defaults). Raises ``ValueError`` for a strength unknown or not of that strategy."""
    if not strength:
        return {}
    found = STRENGTHS.get(strength)
    if found is None or found.strategy != builtin:
        raise ValueError(f"house bot {builtin!r} has no strength {strength!r}")
    return dict(found.params)


def with_strengths(opponents: dict[str, list[tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
    """The play form's opponent choices (``arena.live.selectors.live_opponents``) with each
    house bot that has strengths offered at each of them instead (``house:<game>:<name>:<strength>``,
    or its own value for the strength it plays as it comes): a game without ``mcts`` offers
    only easy. Other house bots and uploaded bots are unchanged."""
    changed: dict[str, list[tuple[str, str]]] = {}
    for game, choices in opponents.items():
        changed[game] = []
        for value, label in choices:
            kind, _, rest = value.partition(":")
            name = rest.partition(":")[2]
            levels = [s for s in STRENGTHS.values() if s.strategy == name]
            if kind != "house" or not levels:
                changed[game].append((value, label))
                continue
            changed[game] += [
                (value if s.params == {} else f"{value}:{s.name}", f"House bot: {s.label}")
                for s in levels
            ]
    return changed


def parse_house(value: str) -> tuple[str, str]:
    """(strategy, strength) of an opponent choice ``house:<game>:<name>[:<strength>]``; a
    strategy that is a strength as it comes (``greedy``: easy) has it without saying so.

    >>> parse_house("house:cat-lady:greedy"), parse_house("house:cat-lady:random")
    (('greedy', 'easy'), ('random', ''))
    """
    _house, _game, rest = value.split(":", 2)
    name, _, strength = rest.partition(":")
    plain = {s.strategy: s.name for s in STRENGTHS.values() if not s.params}
    return name, strength or plain.get(name, "")


def strengths_set(match: Match, strengths: Sequence[str]) -> None:
    """Store each seat's strength (``strengths`` in table order, "" where none) on a match
    just created; a strength its seat's house bot does not have is refused, by seat. A house
    bot that is a strength as it comes (``greedy``) gets it without being told."""
    seats = list(match.seats.order_by("seat"))
    plain = {s.strategy: s.name for s in STRENGTHS.values() if not s.params}
    errors: dict[str, list[str]] = {}
    for seat in seats:
        given = strengths[seat.seat] if seat.seat < len(strengths) else ""
        strength = given or plain.get(seat.builtin, "")
        if not strength:
            continue
        try:
            strength_params(seat.builtin, strength)
        except ValueError:
            errors[f"seats.{seat.seat}"] = [
                f"Only a house bot that plays {' or '.join(_strategies())} has a strength; "
                f"{strength!r} is not one of {', '.join(STRENGTHS)} for this seat."
            ]
            continue
        seat.strength = strength
        seat.save(update_fields=["strength"])
    if errors:
        raise ValidationError(errors)


def _strategies() -> list[str]:
    return sorted({s.strategy for s in STRENGTHS.values()})
