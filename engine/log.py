"""Match logs: everything needed to reproduce a match, and the check that it does.

A log holds the game name, rules version, card-data version, options, seed and actions —
which alone determine every state — plus per-turn summaries and the result, which
:func:`replay` recomputes and compares, so a log that was edited by hand (or written by
different rules) is refused instead of silently telling another story.

>>> from engine import load_game, make_log, replay
>>> game = load_game(options={"players": 2})
>>> state = game.new_initial_state(11)
>>> for _ in range(3):
...     state = state.apply(state.legal_actions()[0])
>>> log = make_log(game, 11, state.history)
>>> log["schema"], [a["type"] for a in log["actions"]]
('catleague.engine-log/1', ['place-token', 'take', 'end-turn'])
>>> replay(log) == state
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from engine.actions import Action
from engine.contract import Game, GameState
from engine.errors import EngineError, ReplayError
from engine.registry import game_spec, load_game

__all__ = ["LOG_SCHEMA", "make_log", "replay"]

LOG_SCHEMA = "catleague.engine-log/1"
_REQUIRED = (
    "schema",
    "game",
    "version",
    "data_version",
    "options",
    "seed",
    "players",
    "actions",
    "turns",
    "result",
)


def make_log(game: Game, seed: int, actions: Iterable[Action]) -> dict[str, Any]:
    """The match log of ``actions`` played from ``game.new_initial_state(seed)``.

    ``result`` is the final :meth:`GameScore.to_json` when the actions end the game, else
    None (an unfinished match). Raises :class:`IllegalActionError` if an action is illegal.
    """
    state = game.new_initial_state(seed)
    states = [state]
    for action in actions:
        state = state.apply(action)
        states.append(state)
    return {
        "schema": LOG_SCHEMA,
        "game": game.name,
        "version": game.version,
        "data_version": game.data_version,
        "options": dict(game.options),
        "seed": seed,
        "players": game.num_players,
        "actions": [a.to_json() for a in state.history],
        "turns": _summaries(game, states),
        "result": _json_roundtrip(state.result().to_json()) if state.is_terminal() else None,
    }


def _summaries(game: Game, states: list[GameState]) -> list[dict[str, Any]]:
    return game_spec(game.name).turn_summaries(states)


def replay(log: Mapping[str, Any]) -> GameState:
    """Replay a match log and return its last state.

    Raises :class:`ReplayError` (saying what is wrong) when the log is malformed, names a
    game, rules version or card-data version this engine does not have, contains an illegal
    action, or its turn summaries or result differ from what the actions produce.
    """
    if not isinstance(log, Mapping):
        raise ReplayError(f"a match log is a JSON object, not {type(log).__name__}")
    if log.get("schema") != LOG_SCHEMA:
        raise ReplayError(f"unknown log schema {log.get('schema')!r} (expected {LOG_SCHEMA!r})")
    missing = [key for key in _REQUIRED if key not in log]
    if missing:
        raise ReplayError(f"the log lacks {', '.join(missing)}")
    try:
        game = load_game(log["game"], version=log["version"], options=log["options"])
    except EngineError as exc:
        raise ReplayError(f"cannot set up the logged game: {exc}") from None
    if log["data_version"] != game.data_version:
        raise ReplayError(
            f"the log was played with {game.data_name} card data version "
            f"{log['data_version']!r}; this engine has version {game.data_version!r}"
        )
    if log["players"] != game.num_players:
        raise ReplayError(
            f"the log says {log['players']!r} players but its options say {game.num_players}"
        )
    seed = log["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ReplayError(f"bad seed {seed!r}")
    if not isinstance(log["actions"], list):
        raise ReplayError("'actions' must be a list")
    state = game.new_initial_state(seed)
    states = [state]
    for number, obj in enumerate(log["actions"], start=1):
        try:
            action = game.action_from_json(obj)
            state = state.apply(action)
        except EngineError as exc:
            raise ReplayError(f"action {number} ({obj!r}) does not replay: {exc}") from None
        states.append(state)
    turns = _json_roundtrip(_summaries(game, states))
    if _json_roundtrip(log["turns"]) != turns:
        first = next(
            (i for i, (a, b) in enumerate(zip(log["turns"], turns, strict=False)) if a != b),
            min(len(turns), len(log["turns"])),
        )
        raise ReplayError(f"turn summary {first} differs from what the actions produce")
    result = _json_roundtrip(state.result().to_json()) if state.is_terminal() else None
    if _json_roundtrip(log["result"]) != result:
        raise ReplayError("the logged result differs from the replayed result")
    return state


def _json_roundtrip(value: Any) -> Any:
    # Compare logs as they are stored: tuples become lists, keys strings.
    return json.loads(json.dumps(value))
