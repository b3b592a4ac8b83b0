"""The ``random`` strategy: a uniformly random legal action; and :func:`move_rng`, where every
house strategy draws one decision's randomness (the forward model hands it to bots too)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from typing import Any

from engine.actions import Action

__all__ = ["RandomStrategy", "move_rng"]


def move_rng(rng: random.Random, observation: Mapping[str, Any]) -> random.Random:
    """A generator for one decision, drawn from ``rng``'s state and the observation without
    advancing ``rng``: a bot that takes all its randomness from it makes the same move in the
    same position whatever it did before, so a replay may play a recorded move instead of
    asking the bot again and every later move stays the same.

    >>> rng = random.Random(7)
    >>> a = move_rng(rng, {"turn": 1}).random()
    >>> a == move_rng(rng, {"turn": 1}).random() != move_rng(rng, {"turn": 2}).random()
    True
    >>> rng.random() == random.Random(7).random()  # rng itself never moves
    True
    """
    digest = hashlib.sha256(repr(rng.getstate()).encode())
    digest.update(json.dumps(observation, sort_keys=True, default=str).encode())
    return random.Random(digest.hexdigest())


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
        return move_rng(rng, observation).choice(legal_actions)
