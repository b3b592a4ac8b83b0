"""The ``greedy`` strategy: looks one move ahead and takes what scores best now.

Each candidate is applied to a state sampled from the observation through the forward
model every bot gets (:class:`engine.forward.ForwardModel`; the hidden deck order does not
matter one move ahead: the grid and every tableau are public) and valued with
:func:`engine.catlady.strategies.evaluation.evaluate` — the score of every tableau as if the game
ended now, plus a little for held lost cats and spray bottles, minus the best opponent.

* Before drafting it compares every ``take``, and ``spray X`` followed by the best take.
* After drafting it plays lost cats when that helps, and uses a spray bottle to block the
  line the next player would gain most from, when that is worth the bottle.
* Placing the token at setup, it blocks the starting player's best line.
* Box of Treats cards (brush, laser pointer, shopping bag) and goal swaps are valued like a
  take: the evaluation after the move; a laser pointer's discard is not weighed.
"""

from __future__ import annotations

import random
from typing import Any, TypeVar

from engine.catlady import actions, rules
from engine.catlady.actions import Action, Line
from engine.catlady.game import State
from engine.catlady.strategies.evaluation import evaluate, model_for
from engine.forward import move_rng

__all__ = ["GreedyStrategy"]

# How much of the next player's best gain counts against us: they gain, but so might others.
BLOCK_WEIGHT = 0.5

Choice = TypeVar("Choice")  # an Action in-process, a JSON action in the sandbox


class GreedyStrategy:
    """One-move lookahead on the current-tableau evaluation."""

    name = "greedy"

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Choice], rng: random.Random
    ) -> Choice:
        """One of ``legal_actions`` (actions, or their JSON as a sandboxed bot gets them)."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        model = model_for(observation)
        decoded = [model.action(a) for a in legal_actions]  # type: ignore[arg-type]
        return legal_actions[
            # A generator for this position only (move_rng), so a replay may skip this move.
            self._best(
                model.sample_state(observation, move_rng(rng, observation)),
                decoded,
                observation["seat"],
            )
        ]

    def _best(self, state: Any, legal_actions: list[Action], seat: int) -> int:
        if isinstance(legal_actions[0], actions.PlaceToken):
            # Block whichever line helps the starting player (seat 0) most.
            return max(
                range(len(legal_actions)),
                key=lambda i: (_best_take_gain(state.apply(legal_actions[i]), 0), -i),
            )
        # A laser pointer offers 252 (take two, discard one) choices; which card is discarded
        # does not change this seat's score, so one discard per pair of cards is valued.
        seen_pairs: set[tuple[int, int]] = set()
        candidates = []
        for i, action in enumerate(legal_actions):
            if isinstance(action, actions.Laser):
                if action.take in seen_pairs:
                    continue
                seen_pairs.add(action.take)
            candidates.append((i, action))
        scored = [(self._value(state, action, seat), -i) for i, action in candidates]
        return -max(scored)[1]

    def _value(self, state: State, action: Action, seat: int) -> float:
        after = state.apply(action)
        if isinstance(action, actions.Take | actions.LostCatsForStray | actions.LostCatsForVP):
            return evaluate(after, seat)
        if isinstance(action, actions.Spray) and state.phase == "before-draft":
            takes = [a for a in after.legal_actions() if isinstance(a, actions.Take)]
            return max(evaluate(after.apply(t), seat) for t in takes)
        if isinstance(action, actions.Spray | actions.EndTurn):
            # After drafting: what the next player could gain with the token where it is.
            mine = evaluate(after, seat)
            if None in state.grid:  # the final round: nobody drafts after this turn
                return mine
            follower = (seat + 1) % state.game.num_players
            return mine - BLOCK_WEIGHT * _best_take_gain(after, follower)
        return evaluate(after, seat)


def _best_take_gain(state: State, seat: int) -> float:
    """The most ``seat`` could improve its evaluation by one take, with the token as it is."""
    blocked = state.token
    base = evaluate(state, seat)
    probe = _as_mover(state, seat)
    gains = [
        evaluate(probe.apply(actions.Take(line)), seat) - base
        for line in _lines()
        if line != blocked
    ]
    return max(gains)


def _lines() -> tuple[Line, ...]:
    return tuple(Line)


def _as_mover(state: State, seat: int) -> State:
    """The same position with ``seat`` about to draft (for probing its best take)."""
    return rules.drafting_probe(state, seat)
