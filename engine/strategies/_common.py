"""Helpers shared by the search strategies: the game behind an observation, and a cheap
evaluation of a position for one seat."""

from __future__ import annotations

import functools
import json
from typing import Any

from engine.errors import EngineError
from engine.game import Game, State
from engine.registry import load_game

__all__ = ["evaluate", "game_for"]

# A held lost cat is half of a 2-VP trade; a held spray bottle can open or block a line.
LOST_CAT_VALUE = 1.0
SPRAY_VALUE = 0.5


@functools.lru_cache(maxsize=32)
def _game(name: str, version: str, options: str) -> Game:
    game = load_game(name, version=version, options=json.loads(options))
    if not isinstance(game, Game):
        raise EngineError(f"this strategy plays Cat Lady, not {name}")
    return game


def game_for(observation: dict[str, Any]) -> Game:
    """The game an observation belongs to (cached: bots ask on every move)."""
    return _game(
        observation["game"], observation["version"],
        json.dumps(observation["options"], sort_keys=True),
    )


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``: its score if the game ended now, plus the
    expected worth of held lost cats and spray bottles, minus the best opponent's."""
    totals = [p.total for p in state.score().players]
    values = []
    for player, total in zip(state.players, totals, strict=True):
        values.append(total + LOST_CAT_VALUE * player.lost_cats + SPRAY_VALUE * player.sprays)
    mine = values[seat]
    others = values[:seat] + values[seat + 1:]
    return float(mine - max(others))
