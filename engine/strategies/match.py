"""Playing a match between in-process strategies (the CLI, benchmarks and tests use it; the
arena runs untrusted bots in sandboxes with its own runner, on the same Game API)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from engine.contract import Game, GameState, Strategy
from engine.errors import EngineError, IllegalActionError

__all__ = ["bot_rng", "bot_seed", "play_match"]


def bot_seed(seed: int, seat: int) -> str:
    """The seed of the generator a seat's bot uses in the match dealt from ``seed``: a one-way
    hash, so a bot that is given it (sandboxed bots get it in their start message) learns
    nothing about the deal.

    >>> bot_seed(7, 1)
    '5362aec17ba9265b1e2da1ee6af6f8c5'
    """
    return hashlib.sha256(f"catleague-bot:{seed}:{seat}".encode()).hexdigest()[:32]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator a seat's bot uses in the match dealt from ``seed`` (a string seed is
    hashed the same way by every Python version, so the same bots with the same seed play
    the same match anywhere)."""
    return random.Random(bot_seed(seed, seat))


def play_match(game: Game, bots: Sequence[Strategy], seed: int) -> GameState:
    """Play a whole match from ``game.new_initial_state(seed)``; returns the final state.

    >>> from engine import load_game
    >>> from engine.strategies import get
    >>> final = play_match(load_game(options={"players": 2}), [get("random")] * 2, seed=1)
    >>> final.is_terminal()
    True

    Raises :class:`EngineError` if the number of bots is wrong and
    :class:`IllegalActionError` if a bot answers with an action that is not legal.
    """
    if len(bots) != game.num_players:
        raise EngineError(
            f"{game.num_players} players need {game.num_players} bots, not {len(bots)}"
        )
    rngs = [bot_rng(seed, seat) for seat in range(game.num_players)]
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        action = bots[seat].choose(state.observation(seat), legal, rngs[seat])
        if action not in legal:
            raise IllegalActionError(f"bot {bots[seat].name!r} at seat {seat} chose {action}")
        state = state.apply(action)
    return state
