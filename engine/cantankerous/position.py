"""Setting up a Cantankerous Cats position by hand: for tests, puzzles and teaching.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 2})
>>> state = state_from_position(game, {"hands": [[43, 1], [2]], "houses": [[30], []],
...                                    "toy": 0, "bowl": [5, 6, 7]})
>>> state.phase, state.current_player, state.hand(0)
('action', 0, (1, 43))
>>> [str(a) for a in state.legal_actions()][:3]
['picky-eater', 'bank 1', 'score 43']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cantankerous.game import Game, State
from engine.cantankerous.rules import Bets, PlayTime, TurnStart, start_from
from engine.errors import EngineError

__all__ = ["state_from_position"]

_KEYS = {
    "hands",
    "houses",
    "points",
    "feral",
    "tokens",
    "token_bank",
    "toy",
    "turn",
    "litter",
    "bowl",
    "phase",
    "actions_taken",
    "rng",
    "turn_indicator",
    "direction",
}


def state_from_position(game: Game, position: Mapping[str, Any]) -> State:
    """A state built from ``position`` (all keys optional):

    * ``hands``, ``houses``: per seat, card numbers (default: empty);
    * ``points``, ``feral``, ``tokens``: per seat (default 0 / False / 1 in the Standard
      game, 0 in the Basic game); ``token_bank`` (default: the game's);
    * ``toy`` (seat holding the Cat Toy, default 0), ``turn`` (default 1);
    * ``litter``: card numbers in the Litter Box; ``bowl``: card numbers drawn first, in
      order; every other card of the game goes below them in data order;
    * ``phase``: ``"action"`` (default: Play Time, with ``actions_taken`` 0 or 1),
      ``"turn-start"`` (Meal Time still to come) or ``"bets"`` (First Bite, every seat bets);
    * ``turn_indicator`` ``"high"``/``"low"`` (default high), ``direction`` ``1``/``-1``;
    * ``rng``: the random generator's state (default 0).

    Raises :class:`EngineError` for an unknown key, a card that does not exist or is not in
    this game, or a card placed twice.
    """
    unknown = sorted(set(position) - _KEYS)
    if unknown:
        raise EngineError(f"unknown position key(s): {', '.join(unknown)}")
    n = game.num_players
    in_play = set(game.in_play)
    used: set[int] = set()

    def cards(numbers: Sequence[int], where: str) -> list[int]:
        out = []
        for number in numbers:
            index = game.index_of.get(number)
            if index is None or index not in in_play:
                raise EngineError(f"{where}: card #{number} is not in this game")
            if index in used:
                raise EngineError(f"{where}: card #{number} is placed twice")
            used.add(index)
            out.append(index)
        return out

    def per_seat(key: str, default: Any) -> list[Any]:
        values = list(position.get(key, [default] * n))
        if len(values) != n:
            raise EngineError(f"'{key}' needs one entry per seat ({n})")
        return values

    s = State.__new__(State)
    s.game = game
    s.seed = -1  # never dealt from a seed
    s._rng = int(position.get("rng", 0))
    s._hands = [cards(hand, f"hand {seat}") for seat, hand in enumerate(per_seat("hands", []))]
    s._houses = [cards(h, f"house {seat}") for seat, h in enumerate(per_seat("houses", []))]
    s._litter = cards(position.get("litter", []), "litter")
    top = cards(position.get("bowl", []), "bowl")
    rest = [c for c in game.in_play if c not in used]
    s._bowl = rest[::-1] + top[::-1]  # the end of the list is the top of the Food Bowl
    s._points = [int(p) for p in per_seat("points", 0)]
    s._feral = [bool(f) for f in per_seat("feral", False)]
    s._tokens = [int(t) for t in per_seat("tokens", 1 if game.standard else 0)]
    s._bank = int(position.get("token_bank", game.token_bank if game.standard else 0))
    s._toy = int(position.get("toy", 0))
    s._turn = int(position.get("turn", 1))
    s._dir = int(position.get("direction", 1))
    s._high = position.get("turn_indicator", "high") == "high"
    phase = position.get("phase", "action")
    if phase == "action":
        s._stack = [PlayTime("play-time", int(position.get("actions_taken", 0)))]
    elif phase == "turn-start":
        s._stack = [TurnStart("turn-start")]
    elif phase == "bets":
        s._toy = -1
        s._turn = 0
        s._stack = [Bets("bets", tuple(range(n)), (), 1)]
    else:
        raise EngineError(f"phase must be action, turn-start or bets, not {phase!r}")
    return start_from(s)
