"""The ``random`` strategy: a uniformly random legal action."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action

__all__ = ["RandomStrategy"]


class RandomStrategy:
    """Picks uniformly among the legal actions.

    >>> from engine.catlady.actions import EndTurn
    >>> RandomStrategy().choose({}, [EndTurn()], random.Random(0))
    EndTurn()
    """

    name = "random"

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        return rng.choice(legal_actions)
