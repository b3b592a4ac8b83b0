"""The house bots of every game, by name (each game's spec lists its own).

A strategy sees only what a seat may see — its observation and the legal actions — and a
random generator it must use for every random choice, so a match with bots is as
reproducible as its seed.

>>> import random
>>> from engine import load_game
>>> from engine.strategies import get, names
>>> names()
['cat-player', 'greedy', 'mcts', 'random']
>>> state = load_game(options={"players": 2}).new_initial_state(1)
>>> bot = get("random")
>>> action = bot.choose(state.observation(1), state.legal_actions(), random.Random(0))
>>> state.is_legal(action)
True
"""

from __future__ import annotations

from typing import Any

from engine.contract import CandidateValue, Evaluator, Strategy
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, game_spec

__all__ = ["CandidateValue", "Evaluator", "Strategy", "evaluator", "get", "names"]


def names(game: str | None = None) -> list[str]:
    """The names :func:`get` accepts (for ``game``; default: Cat Lady)."""
    return sorted(game_spec(game or DEFAULT_GAME).strategies)


def get(name: str, game: str | None = None, **params: Any) -> Strategy:
    """A new strategy by name for ``game`` (default: Cat Lady); ``params`` tune it (e.g.
    ``get("mcts", iterations=50)``).

    >>> get("greedy", game="cantankerous-cats").choose.__module__
    'engine.cantankerous.strategies'

    Raises :class:`EngineError` for an unknown game, name or parameter.
    """
    factories = game_spec(game or DEFAULT_GAME).strategies
    if name not in factories:
        for_game = f" for {game}" if game else ""
        raise EngineError(
            f"unknown strategy {name!r}{for_game}; known: {', '.join(sorted(factories))}"
        )
    try:
        return factories[name](**params)
    except TypeError as exc:
        raise EngineError(f"bad parameters for strategy {name!r}: {exc}") from None


def evaluator(game: str | None = None, **params: Any) -> Evaluator:
    """The house MCTS of ``game`` (default: Cat Lady) as an :class:`Evaluator`: the win
    chance of every candidate move, as the review after a live game shows them; ``params``
    as for :func:`get` (``iterations``, ``time_limit``).

    >>> evaluator(iterations=10).iterations
    10

    Raises :class:`EngineError` for a game whose house bots have no MCTS.
    """
    strategy = get("mcts", game, **params)
    if not isinstance(strategy, Evaluator):
        raise EngineError(f"the house mcts of {game or DEFAULT_GAME} cannot rate candidates")
    return strategy
