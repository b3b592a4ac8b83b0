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
from engine.cantankerous.strategy import GreedyStrategy as CantankerousGreedy
from engine.errors import EngineError
from engine.strategies.cat_player import CatPlayerStrategy
from engine.strategies.greedy import GreedyStrategy
from engine.strategies.mcts import MonteCarloStrategy
from engine.strategies.random_bot import RandomStrategy

__all__ = ["Strategy", "get", "names"]


class Strategy(Protocol):
    """What a bot implements."""

    name: str

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        """One of ``legal_actions`` for the seat whose ``observation`` this is."""
        ...


def _factories(game: str | None = None) -> dict[str, Callable[..., Strategy]]:
    if game == "cantankerous-cats":
        return {"random": RandomStrategy, "greedy": CantankerousGreedy}
    return {"random": RandomStrategy, "greedy": GreedyStrategy, "mcts": MonteCarloStrategy,
            "cat-player": CatPlayerStrategy}


def names(game: str | None = None) -> list[str]:
    """The names :func:`get` accepts (for ``game``; default: Cat Lady)."""
    return sorted(_factories(game))


def get(name: str, game: str | None = None, **params: Any) -> Strategy:
    """A new strategy by name for ``game`` (default: Cat Lady); ``params`` tune it (e.g.
    ``get("mcts", iterations=50)``).

    >>> get("greedy", game="cantankerous-cats").choose.__module__
    'engine.cantankerous.strategy'

    Raises :class:`EngineError` for an unknown name or parameter, or a strategy that does
    not play that game.
    """
    factories = _factories(game)
    if name not in factories:
        for_game = f" for {game}" if game else ""
        raise EngineError(f"unknown strategy {name!r}{for_game}; known: "
                          f"{', '.join(sorted(factories))}")
    try:
        return factories[name](**params)
    except TypeError as exc:
        raise EngineError(f"bad parameters for strategy {name!r}: {exc}") from None
