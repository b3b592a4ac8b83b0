"""What the games' replay frame builders share: splitting the seats' observations into the
part every seat sees and each seat's own part, and the frame each state becomes.

>>> shared, own = split_views([{"seat": 0, "grid": [1], "hand": [2]},
...                            {"seat": 1, "grid": [1], "hand": [3]}])
>>> shared, own
({'grid': [1]}, [{'hand': [2]}, {'hand': [3]}])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["CONSTANT_KEYS", "frame", "split_views"]

# Observation keys that never change within a match: a viewer gets them once, not per frame.
CONSTANT_KEYS = ("schema", "game", "version", "edition", "data_version", "options", "players")


def split_views(
    observations: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What every seat's observation shares, and per seat what differs from it."""
    first = observations[0]
    shared = {
        key: value
        for key, value in first.items()
        if key not in CONSTANT_KEYS
        and key != "seat"
        and all(obs.get(key) == value for obs in observations[1:])
    }
    own = [
        {
            key: value
            for key, value in obs.items()
            if key not in shared and key not in CONSTANT_KEYS and key != "seat"
        }
        for obs in observations
    ]
    return shared, own


def frame(
    state: Any,
    public: dict[str, Any],
    own: list[dict[str, Any]],
    hidden: dict[str, Any],
    scores: list[Any] | None,
    **extra: Any,
) -> dict[str, Any]:
    """One replay frame: the state's turn, phase and seat to move, the public part and each
    seat's own part of the views (as :func:`split_views` splits them), what no seat saw, the
    scores (None where not worked out) and a game's ``extra`` keys.

    >>> from types import SimpleNamespace
    >>> state = SimpleNamespace(turn=3, phase="draft", current_player=1)
    >>> frame(state, {"grid": [1]}, [{}, {}], {}, None)["to_move"]
    1
    """
    return {
        "turn": state.turn,
        "phase": state.phase,
        "to_move": state.current_player,
        "public": public,
        "own": own,
        "hidden": hidden,
        "scores": scores,
        **extra,
    }
