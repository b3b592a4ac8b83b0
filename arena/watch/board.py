"""A running match as a spectator sees it: the position and the moves as every seat sees them
alike. Pure code over engine states, no Django (the worker's writer and the tests call it).

The spectator's position is the part of the replay frame every seat's observation shares
(``public``, :func:`engine.frames.split_views`): no seat's hand, bet or choice, no deck order,
nothing only one seat knows. A move's log line is worded as a seat that did not play it
observes it (the engine's ``describe_seen``), so a face-down bet says only that it was made.

>>> game = engine.load_game("cantankerous-cats", options={"players": 2})
>>> state = game.new_initial_state(3)
>>> view = spectator_view(game, state)
>>> sorted(view)
['events', 'meta', 'renderer', 'scores', 'to_move', 'view']
>>> "hand" in view["view"], "cards" in view["view"]
(False, False)
>>> watch_line(game, state, state.legal_actions()[0], step=0, seat=0, who="Zero", status="ok")
{'step': 0, 'seat': 0, 'who': 'Zero', 'label': 'Bet a card face down', 'rule': '...', 'status': 'ok'}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import engine

__all__ = ["SPECTATOR", "spectator_view", "watch_line"]

# The viewing "seat" of a spectator: no seat's own (the table's code draws seat -1 as one).
SPECTATOR = -1


def spectator_view(game: engine.Game, state: engine.GameState) -> dict[str, Any]:
    """``state`` as a spectator sees it, in the shape of :func:`arena.replay.seat_view`:
    ``renderer``, ``meta``, ``view`` (the shared part of every seat's view), ``to_move``,
    ``scores`` and ``events``. Where the observations list the cards each seat has seen,
    ``meta`` names only the cards every seat has seen."""
    spec = engine.game_spec(game.name)
    built = spec.replay_frames(game, [state])
    frame = built["frames"][0]
    meta = dict(built["meta"])
    seen_by_all: set[str] | None = None
    for seat in range(game.num_players):
        seen = state.observation(seat).get("cards")
        if not isinstance(seen, Mapping):
            seen_by_all = None
            break
        keys = {str(key) for key in seen}
        seen_by_all = keys if seen_by_all is None else seen_by_all & keys
    if seen_by_all is not None:
        meta["cards"] = {k: card for k, card in meta.get("cards", {}).items() if k in seen_by_all}
    return {
        "renderer": spec.renderer,
        "meta": meta,
        # Every seat's legal moves are empty when it is not to move (and at the end): the
        # spectator has none, not an empty list that reads as "no move possible".
        "view": {k: v for k, v in frame["public"].items() if k != "legal_actions"},
        "to_move": frame["to_move"],
        "scores": frame.get("scores"),
        "events": frame.get("events", []),
    }


def watch_line(
    game: engine.Game,
    before: engine.GameState,
    action: Any,
    *,
    step: int,
    seat: int,
    who: str,
    status: str,
) -> dict[str, Any]:
    """The log line of ``action``, played by ``seat`` in ``before``, as a spectator reads it:
    worded as the seats that did not play it observe it."""
    words = engine.game_spec(game.name).describe_seen(before, action, SPECTATOR)
    return {
        "step": step,
        "seat": seat,
        "who": who,
        "label": words["label"],
        "rule": words["rule"],
        "status": status,
    }
