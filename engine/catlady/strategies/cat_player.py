"""The ``cat-player`` strategy: the solitaire cat player's seat (seat 1 of a solitaire game).

The cat player needs no thinking: the engine reveals its turn card and offers exactly the
line the card names (``cat-take <line>``). When lines tie, the rulebook lets the human
choose, so the engine asks seat 0 instead. This strategy plays the one action offered; it is
what the arena seats opposite a bot in a solitaire match.

>>> import random
>>> from engine import load_game
>>> game = load_game(options={"players": 2, "edition": "box-of-treats-placeholder",
...                           "solitaire": True})
>>> state = game.new_initial_state(1)
>>> legal = state.legal_actions()
>>> CatPlayerStrategy().choose(state.observation(1), legal, random.Random(0)) == legal[0]
True
"""

from __future__ import annotations

import random
from typing import Any

from engine.catlady.actions import Action

__all__ = ["CatPlayerStrategy"]


class CatPlayerStrategy:
    """Plays the cat player's only action (the first, if ever given several)."""

    name = "cat-player"

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        return legal_actions[0]
