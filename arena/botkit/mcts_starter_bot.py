"""A searching bot: Monte Carlo tree search at the root over sampled deals, for either game.

The engine that runs the match is importable in the sandbox, and ``catbot.forward_model``
turns it into a forward model: each iteration samples a full state consistent with what
this seat knows (the hidden cards drawn at random), tries one of the legal actions (chosen
by UCB1), plays the game out with a cheap policy, and scores the end. The action with the
best average wins. It is the house ``mcts`` bot's method with a time budget instead of a
fixed number of iterations.

Copy this file, change the rollout policy or the reward, and test it locally:
    python3 play.py mcts_starter_bot.py greedy --seed 1 --sandbox unsafe   (the starter kit)
    python3 play.py mcts_starter_bot.py greedy random --game cantankerous-cats --seed 1 --sandbox unsafe
docs/bots.md explains every piece. ``print()`` goes to your bot's log, not to the arena.
"""

import math
import time

import catbot

# Each answer must arrive within the per-move limit (start message: limits.move_ms); time
# beyond it comes out of a bank for the whole match, and a bot that empties the bank loses
# moves to the fallback. Thinking for well under the limit leaves room for a slow rollout, a
# garbage collection or a busy machine, so the bank stays untouched.
SHARE_OF_MOVE_LIMIT = 0.4
MAX_ITERATIONS = 5000  # a ceiling for quick positions; None: only the clock stops the search
EXPLORATION = 0.7  # UCB1's constant: higher tries more actions, lower trusts the averages
MARGIN_WEIGHT = 0.01  # a win is 1; this much per point of lead rewards winning by more

model = None
budget_s = 0.3


def start(info):
    """Rebuild the game from the start message (game, rules version, options, limits)."""
    global model, budget_s
    model = catbot.forward_model(info)
    budget_s = SHARE_OF_MOVE_LIMIT * info["limits"]["move_ms"] / 1000


def choose(observation, legal_actions, rng):
    """Search until the budget runs out; return the index of the best legal action."""
    if len(legal_actions) == 1:
        return 0
    began = time.perf_counter()
    deadline = began + budget_s
    actions = [model.action(a) for a in legal_actions]
    seat = observation["seat"]
    visits = [0] * len(actions)
    totals = [0.0] * len(actions)
    iteration = 0
    while MAX_ITERATIONS is None or iteration < MAX_ITERATIONS:
        if iteration >= len(actions) and time.perf_counter() > deadline:
            break
        arm = _select(visits, totals, iteration)
        state = model.apply(model.sample_state(observation, rng), actions[arm])
        visits[arm] += 1
        totals[arm] += _reward(rollout(state, rng), seat)
        iteration += 1
    return max(
        range(len(actions)), key=lambda i: (totals[i] / visits[i] if visits[i] else -math.inf, -i)
    )


def _select(visits, totals, iteration):
    """UCB1: every action once, then the best average plus a bonus for the less tried."""
    for arm, count in enumerate(visits):
        if count == 0:
            return arm
    log_n = math.log(iteration)
    return max(
        range(len(visits)),
        key=lambda i: totals[i] / visits[i] + EXPLORATION * math.sqrt(log_n / visits[i]),
    )


def rollout(state, rng):
    """Play to the end with a cheap policy for every seat (the house bot's, for Cat Lady:
    draft a random line, trade lost cats at once, never spray; random moves otherwise)."""
    while not model.is_terminal(state):
        actions = model.legal_actions(state)
        phase = state.phase
        if phase == "before-draft":
            action = rng.choice([a for a in actions if a.type == "take"])
        elif phase == "after-draft":
            trades = [a for a in actions if a.type.startswith("lost-cats")]
            action = trades[0] if trades else actions[0]  # actions[0] is end-turn
        else:
            action = rng.choice(actions)
        state = model.apply(state, action)
    return state


def _reward(final, seat):
    """1 for a win (shared on a tie) plus a little for the lead over the best opponent."""
    scores = model.scores(final)
    winners = model.winners(final)
    best_other = max(score for other, score in enumerate(scores) if other != seat)
    win = 1.0 / len(winners) if seat in winners else 0.0
    return win + MARGIN_WEIGHT * (scores[seat] - best_other)
