"""Cantankerous Cats' registration: everything the engine and its callers know about it.

>>> SPEC.name, sorted(SPEC.versions), SPEC.renderer
('cantankerous-cats', ['1'], 'cantankerous-cats')
"""

from __future__ import annotations

import functools

from engine.cantankerous.cli import describe_game
from engine.cantankerous.frames import replay_frames
from engine.cantankerous.game import build_game
from engine.cantankerous.log import turn_summaries
from engine.cantankerous.options import OPTIONS
from engine.cantankerous.position import sample_state
from engine.cantankerous.strategies import GreedyStrategy
from engine.cantankerous.words import describe_move, describe_seen
from engine.contract import GameSpec
from engine.random_bot import RandomStrategy

__all__ = ["SPEC"]

SPEC = GameSpec(
    name="cantankerous-cats",
    label="Cantankerous Cats",
    # Keep old versions when adding one: every stored match log names its rules version.
    versions={"1": functools.partial(build_game, "1")},
    options={name: description for name, (_, description) in OPTIONS.items()},
    strategies={"random": RandomStrategy, "greedy": GreedyStrategy},
    turn_summaries=turn_summaries,
    replay_frames=replay_frames,
    describe_match=describe_game,
    sample_state=sample_state,
    describe_move=describe_move,
    describe_seen=describe_seen,
    renderer="cantankerous-cats",
)
