"""Built-in strategies (the arena's house bots).

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

import random
from collections.abc import Callable
from typing import Any, Protocol

from engine.actions import Action
from engine.errors import EngineError

__all__ = ["Strategy", "get", "names"]


class Strategy(Protocol):
    """What a bot implements."""

    name: str

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        """One of ``legal_actions`` for the seat whose ``observation`` this is."""
        ...


def _factories() -> dict[str, Callable[..., Strategy]]:
    from engine.strategies.cat_player import CatPlayerStrategy
    from engine.strategies.greedy import GreedyStrategy
    from engine.strategies.mcts import MonteCarloStrategy
    from engine.strategies.random_bot import RandomStrategy

    return {"random": RandomStrategy, "greedy": GreedyStrategy, "mcts": MonteCarloStrategy,
            "cat-player": CatPlayerStrategy}


def names() -> list[str]:
    """The names :func:`get` accepts."""
    return sorted(_factories())


def get(name: str, **params: Any) -> Strategy:
    """A new strategy by name; ``params`` tune it (e.g. ``get("mcts", iterations=50)``).

    Raises :class:`EngineError` for an unknown name or parameter.
    """
    factories = _factories()
    if name not in factories:
        raise EngineError(f"unknown strategy {name!r}; known: {', '.join(sorted(factories))}")
    try:
        return factories[name](**params)
    except TypeError as exc:
        raise EngineError(f"bad parameters for strategy {name!r}: {exc}") from None
