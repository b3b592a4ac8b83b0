"""What several Cat Lady test modules build the same way."""

from __future__ import annotations

import random

from engine.catlady.game import State
from engine.registry import load_game


def random_midgame(players: int, seed: int, moves: int) -> State:
    """The state after ``moves`` random legal moves of a game dealt from ``seed``."""
    state = load_game(options={"players": players}).new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = state.apply(rng.choice(state.legal_actions()))
    return state
