"""The ``mcts`` strategy: Monte Carlo rollouts over determinised hidden information.

Each iteration samples a full state consistent with the observation (the unseen cards in a
random order: :meth:`engine.forward.ForwardModel.sample_state`), picks a root action by UCB1,
and plays the game out with a fast rollout policy for every seat. The action with the
best mean reward is chosen. The reward for the seat is 1 for a win (shared on a full tie),
plus a small term for the margin over the best opponent so that losing well beats losing
badly.

The rollout policy drafts a random unblocked line, trades lost cats as soon as it can (a
stray when one is face up, else a VP token) and never sprays: it is meant to be cheap and
unbiased, not strong.

It looks ahead only through the forward model every submitted bot gets (no access to the
true state or the match seed), and this file is also a bot file: upload a copy and the
arena's ``catbot`` calls :func:`choose` with the JSON actions, and the copy plays the same
moves as the house bot from the same seed. The search is bounded by ``iterations`` and by
``time_limit`` seconds (whichever comes first). With a time limit the choice depends on the
machine's speed; house bots use iteration budgets so that matches stay reproducible.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any, TypeVar

from engine.actions import Action
from engine.catlady.strategies.evaluation import model_for
from engine.contract import CandidateValue, GameState
from engine.forward import ForwardModel, move_rng

__all__ = ["MonteCarloStrategy", "choose", "rollout"]

MARGIN_WEIGHT = 0.01
ITERATIONS = 200

Choice = TypeVar("Choice")  # an Action in-process, a JSON action in the sandbox


class MonteCarloStrategy:
    """Determinised flat Monte Carlo search with UCB1 at the root.

    >>> MonteCarloStrategy(iterations=20).iterations
    20
    """

    name = "mcts"

    def __init__(
        self,
        iterations: int = ITERATIONS,
        time_limit: float | None = None,
        exploration: float = 0.7,
    ) -> None:
        if iterations < 1:
            raise ValueError("iterations must be at least 1")
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Choice], rng: random.Random
    ) -> Choice:
        """One of ``legal_actions`` (actions, or their JSON as a sandboxed bot gets them).

        The search draws from a generator made for this position (:func:`move_rng`), never
        from ``rng`` itself: the same position gets the same move whatever came before, so a
        replay may play the recorded move instead of searching again."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        search_rng = move_rng(rng, observation)
        visits, totals, _wins, _cut = self._search(observation, legal_actions, search_rng)
        best = max(
            range(len(legal_actions)),
            key=lambda i: (totals[i] / visits[i] if visits[i] else -math.inf, -i),
        )
        return legal_actions[best]

    def evaluate(
        self,
        observation: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
        played: Action | None = None,
    ) -> tuple[list[CandidateValue], bool]:
        """Every legal action with its visits and win chance from the same search
        :meth:`choose` runs (the choice is the best mean reward, which also counts the margin,
        so two moves of equal win chance are told apart), and whether the time limit cut it
        short. The search spends little on moves that look bad, so ``played`` (the move a
        review judges) then gets extra playouts, up to an eighth of the budget, so that its
        win chance is not one unlucky playout.

        >>> import engine
        >>> state = engine.load_game(options={"players": 2}).new_initial_state(seed=5)
        >>> legal = state.legal_actions()
        >>> values, cut = MonteCarloStrategy(iterations=30).evaluate(
        ...     state.observation(0), legal, random.Random(1))
        >>> [v.action for v in values] == legal, sum(v.visits for v in values), cut
        (True, 30, False)
        """
        visits, _totals, wins, cut = self._search(observation, legal_actions, rng)
        if played is not None and not cut:
            arm = legal_actions.index(played)
            model = model_for(observation)
            while visits[arm] < max(8, self.iterations // 8):
                state = model.apply(model.sample_state(observation, rng), played)
                visits[arm] += 1
                wins[arm] += _win(model, rollout(model, state, rng), observation["seat"])
        return [
            CandidateValue(action, count, won / count if count else 0.0)
            for action, count, won in zip(legal_actions, visits, wins, strict=True)
        ], cut

    def _search(
        self, observation: dict[str, Any], legal_actions: list[Any], rng: random.Random
    ) -> tuple[list[int], list[float], list[float], bool]:
        """(visits, reward totals, win totals, whether the time limit stopped it) per action."""
        model = model_for(observation)
        actions = [model.action(a) for a in legal_actions]
        seat = observation["seat"]
        visits = [0] * len(actions)
        totals = [0.0] * len(actions)
        wins = [0.0] * len(actions)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for iteration in range(self.iterations):
            if deadline is not None and iteration and time.perf_counter() > deadline:
                return visits, totals, wins, True
            arm = self._select(visits, totals, iteration)
            state = model.apply(model.sample_state(observation, rng), actions[arm])
            final = rollout(model, state, rng)
            win = _win(model, final, seat)
            visits[arm] += 1
            totals[arm] += win + _margin(model, final, seat)
            wins[arm] += win
        return visits, totals, wins, False

    def _select(self, visits: list[int], totals: list[float], iteration: int) -> int:
        for arm, count in enumerate(visits):
            if count == 0:
                return arm
        log_n = math.log(iteration)
        return max(
            range(len(visits)),
            key=lambda i: totals[i] / visits[i] + self.exploration * math.sqrt(log_n / visits[i]),
        )


def rollout(model: ForwardModel, state: GameState, rng: random.Random) -> GameState:
    """Play ``state`` to the end with the cheap rollout policy; returns the final state."""
    while not model.is_terminal(state):
        actions: list[Action] = model.legal_actions(state)
        phase = state.phase
        if phase == "before-draft":
            takes = [a for a in actions if a.type == "take"]
            state = model.apply(state, rng.choice(takes))
        elif phase == "after-draft":
            trades = [a for a in actions if a.type.startswith("lost-cats")]
            state = model.apply(state, trades[0] if trades else actions[0])  # [0]: end-turn
        else:
            state = model.apply(state, rng.choice(actions))
    return state


def _win(model: ForwardModel, final: GameState, seat: int) -> float:
    winners = model.winners(final)
    return 1.0 / len(winners) if seat in winners else 0.0


def _margin(model: ForwardModel, final: GameState, seat: int) -> float:
    totals = model.scores(final)
    others = totals[:seat] + totals[seat + 1 :]
    return MARGIN_WEIGHT * (totals[seat] - max(others))


_HOUSE_BOT = MonteCarloStrategy()


def choose(observation: dict[str, Any], legal_actions: list[Any], rng: random.Random) -> Any:
    """The bot-file entry point: the house bot's move (``catbot`` passes the bot's own
    generator, seeded as the arena seeds the house bot of the same seat)."""
    return _HOUSE_BOT.choose(observation, legal_actions, rng)
