"""The ``mcts`` strategy: Monte Carlo rollouts over determinised hidden information.

Each iteration samples a full state consistent with the observation (the unseen cards in a
random order, see :func:`engine.position.sample_state`), picks a root action by UCB1,
and plays the game out with a fast rollout policy for every seat. The action with the
best mean reward is chosen. The reward for the seat is 1 for a win (shared on a full tie),
plus a small term for the margin over the best opponent so that losing well beats losing
badly.

The rollout policy drafts a random unblocked line, trades lost cats as soon as it can (a
stray when one is face up, else a VP token) and never sprays: it is meant to be cheap and
unbiased, not strong.

The search is bounded by ``iterations`` and by ``time_limit`` seconds (whichever comes
first). With a time limit the choice depends on the machine's speed; arena house bots use
iteration budgets so that matches stay reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from engine import rules
from engine.actions import Action
from engine.game import State
from engine.position import sample_state
from engine.strategies._common import game_for

__all__ = ["MonteCarloStrategy", "rollout"]

MARGIN_WEIGHT = 0.01


class MonteCarloStrategy:
    """Determinised flat Monte Carlo search with UCB1 at the root.

    >>> MonteCarloStrategy(iterations=20).iterations
    20
    """

    name = "mcts"

    def __init__(
        self, iterations: int = 200, time_limit: float | None = None, exploration: float = 0.7
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        game = game_for(observation)
        seat = observation["seat"]
        visits = [0] * len(legal_actions)
        totals = [0.0] * len(legal_actions)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for iteration in range(self.iterations):
            if deadline is not None and iteration and time.perf_counter() > deadline:
                break
            arm = self._select(visits, totals, iteration)
            state = sample_state(game, observation, rng).apply(legal_actions[arm])
            reward = _reward(rollout(state, rng), seat)
            visits[arm] += 1
            totals[arm] += reward
        best = max(range(len(legal_actions)),
                   key=lambda i: (totals[i] / visits[i] if visits[i] else -math.inf, -i))
        return legal_actions[best]

    def _select(self, visits: list[int], totals: list[float], iteration: int) -> int:
        for arm, count in enumerate(visits):
            if count == 0:
                return arm
        log_n = math.log(iteration)
        return max(
            range(len(visits)),
            key=lambda i: totals[i] / visits[i] + self.exploration * math.sqrt(log_n / visits[i]),
        )


def rollout(state: State, rng: random.Random) -> State:
    """Play ``state`` to the end with the cheap rollout policy; returns the final state."""
    while state._phase != rules.OVER:
        actions = state.legal_actions()
        phase = state._phase
        if phase == rules.BEFORE_DRAFT:
            takes = [a for a in actions if a.type == "take"]
            state = state.apply(rng.choice(takes))
        elif phase == rules.AFTER_DRAFT:
            trades = [a for a in actions if a.type.startswith("lost-cats")]
            state = state.apply(trades[0] if trades else actions[0])  # actions[0] is end-turn
        else:
            state = state.apply(rng.choice(actions))
    return state


def _reward(final: State, seat: int) -> float:
    result = final.result()
    totals = [p.total for p in result.players]
    others = totals[:seat] + totals[seat + 1:]
    win = 1.0 / len(result.winners) if seat in result.winners else 0.0
    return win + MARGIN_WEIGHT * (totals[seat] - max(others))
