"""Turn summaries of a Cat Lady match log: a readable, checkable transcript.

Each summary is one turn (turn 0 is the token placement): ``turn``, ``seat``, ``actions``
(text forms), ``took`` (card keys of the drafted line), ``token`` after the turn and
``deck_size`` after the refill.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.catlady.actions import CatTake, EndTurn, Laser, PlaceToken, Take

if TYPE_CHECKING:
    from engine.catlady.game import State

__all__ = ["turn_summaries"]


def turn_summaries(states: list[State]) -> list[dict[str, Any]]:
    """One summary per turn (turn 0 is the token placement) from the successive states.

    Each summary: ``turn``, ``seat``, ``actions`` (text forms), ``took`` (card keys of the
    drafted line), ``token`` after the turn, ``deck_size`` after the refill. A laser
    pointer's turn also has ``discarded``; the solitaire cat player's turns have
    ``turn_card`` (and ``chosen_by`` when the human chose between tied lines).
    """
    summaries: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for before, after in zip(states, states[1:], strict=False):
        action = after.last_action
        game = before.game
        if current is None:
            current = {
                "turn": before.turn,
                "seat": before.current_player,
                "actions": [],
                "took": [],
            }
        current["actions"].append(str(action))
        if isinstance(action, Take | CatTake):
            current["took"] = [game.card_key(before.grid[s]) for s in action.line.slots]  # type: ignore[arg-type]
        if isinstance(action, Laser):
            current["took"] = [game.card_key(before.grid[s - 1]) for s in action.take]  # type: ignore[arg-type]
            current["discarded"] = game.card_key(before.grid[action.discard - 1])  # type: ignore[arg-type]
        if isinstance(action, CatTake):
            ext = before._expansion
            assert ext is not None and game.edition.solitaire is not None
            current["turn_card"] = game.edition.solitaire.turn_cards[ext.turn_card].key
            if before.current_player != game.cat_player_seat:
                current["chosen_by"] = before.current_player
                current["seat"] = game.cat_player_seat
        if isinstance(action, EndTurn | PlaceToken | CatTake):
            current["token"] = None if after.token is None else str(after.token)
            current["deck_size"] = after.deck_size
            summaries.append(current)
            current = None
    if current is not None:  # an unfinished turn at the end of an unfinished match
        summaries.append(current)
    return summaries
