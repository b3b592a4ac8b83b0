"""Helpers shared by Cat Lady's search strategies: the forward model of the game behind an
observation (the same :class:`engine.forward.ForwardModel` every bot gets), and a cheap
evaluation of a position for one seat."""

from __future__ import annotations

import functools
import json
from typing import Any

from engine.catlady.game import GAME_NAME, Game, State, build_game
from engine.catlady.position import sample_state
from engine.errors import EngineError
from engine.forward import ForwardModel

__all__ = ["evaluate", "game_for", "model_for"]

# A held lost cat is half of a 2-VP trade; a held spray bottle can open or block a line.
LOST_CAT_VALUE = 1.0
SPRAY_VALUE = 0.5


@functools.lru_cache(maxsize=32)
def _game(version: str, options: str) -> Game:
    return build_game(version, json.loads(options))


def game_for(observation: dict[str, Any]) -> Game:
    """The game an observation belongs to (cached: bots ask on every move).

    Raises :class:`EngineError` for another game's observation.
    """
    if observation.get("game") != GAME_NAME:
        raise EngineError(f"this strategy plays Cat Lady, not {observation.get('game')}")
    return _game(
        observation["version"],
        json.dumps(observation["options"], sort_keys=True),
    )


def model_for(observation: dict[str, Any]) -> ForwardModel:
    """The forward model of the game an observation belongs to (cached with the game)."""
    return _model(game_for(observation))


@functools.lru_cache(maxsize=32)
def _model(game: Game) -> ForwardModel:
    return ForwardModel(game, sample_state)


def evaluate(state: State, seat: int) -> float:
    """How good ``state`` looks for ``seat``: its score if the game ended now, plus the
    expected worth of held lost cats and spray bottles, minus the best opponent's."""
    totals = [p.total for p in state.score().players]
    values = []
    for player, total in zip(state.players, totals, strict=True):
        values.append(total + LOST_CAT_VALUE * player.lost_cats + SPRAY_VALUE * player.sprays)
    mine = values[seat]
    others = values[:seat] + values[seat + 1 :]
    return float(mine - max(others))
