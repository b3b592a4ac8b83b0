"""Cat Lady's registration: everything the engine and its callers know about the game.

>>> SPEC.name, sorted(SPEC.versions), SPEC.renderer
('cat-lady', ['1'], 'cat-lady')
"""

from __future__ import annotations

import functools

from engine.catlady.cli import describe_game
from engine.catlady.frames import replay_frames
from engine.catlady.game import GAME_NAME, build_game
from engine.catlady.log import turn_summaries
from engine.catlady.options import OPTIONS
from engine.catlady.position import sample_state
from engine.catlady.strategies import CatPlayerStrategy, GreedyStrategy, MonteCarloStrategy
from engine.catlady.words import describe_move, describe_seen
from engine.contract import GameSpec
from engine.random_bot import RandomStrategy

__all__ = ["SPEC"]

SPEC = GameSpec(
    name=GAME_NAME,
    label="Cat Lady",
    # Keep old versions when adding one: every stored match log names its rules version.
    versions={"1": functools.partial(build_game, "1")},
    options={name: description for name, (_, description) in OPTIONS.items()},
    strategies={
        "random": RandomStrategy,
        "greedy": GreedyStrategy,
        "mcts": MonteCarloStrategy,
        "cat-player": CatPlayerStrategy,
    },
    turn_summaries=turn_summaries,
    replay_frames=replay_frames,
    describe_match=describe_game,
    sample_state=sample_state,
    describe_move=describe_move,
    describe_seen=describe_seen,
    renderer="cat-lady",
)
