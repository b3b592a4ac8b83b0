#!/usr/bin/env python
"""Strength of the MCTS starter bot (arena/botkit/mcts_starter_bot.py) against the house
``greedy`` and ``random`` bots: duplicate deals with seat rotation, 2 and 4 players.

Every deal (seed) is played once per rotation, the starter bot in each seat in turn and the
opponents in the others, so luck of the deal cancels out. The starter bot runs in this
process with a fixed number of iterations per move instead of its clock (so that the figures
do not depend on the machine), through exactly the code it runs in the arena. A win counts 1,
a shared win 1/k. The 95% interval is over deals (a deal's rotations are not independent):
a percentile bootstrap of the mean over deals (10,000 resamples, seeded), which stays inside
0-100% where a normal approximation would not near the ends. Prints figures; asserts
nothing.

    .venv/bin/python scripts/bench_strength.py [--deals 200] [--iterations 100] [--workers 2]
    .venv/bin/python scripts/bench_strength.py --baseline f4c51c2 --rounds 3
    .venv/bin/python scripts/bench_strength.py --deals 4 --players 2 --opponents greedy --baseline f4c51c2 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, loading that
tree's starter bot, `catbot` and `engine`; scripts/benchlib.py), then prints the medians of
every figure and the machine. Only the timings (ms per move, and the wall time of each
pairing) are speed and get ratios; win rates and their intervals are counts. The baseline
can be no older than f4c51c2, where arena/botkit/mcts_starter_bot.py begins: 6375dd5, main
when the engine work began, has no starter bot to measure.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import multiprocessing
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

# The engine, the starter bot and its catbot come from the tree measured (benchlib.use_tree,
# then measure); the pool's processes are forked after that, so they import the same.
_starter = None


def _load_starter(iterations: int):
    spec = importlib.util.spec_from_file_location(
        "mcts_starter_bot", benchlib.tree_root() / "arena" / "botkit" / "mcts_starter_bot.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.MAX_ITERATIONS = iterations
    module.SHARE_OF_MOVE_LIMIT = math.inf  # only the iteration count stops the search
    return module


def _play(job: tuple[int, int, str, int, int]) -> tuple[int, float, float]:
    """One game: (deal, the starter's share of the win, its mean ms per decision)."""
    import engine
    from engine.strategies import get
    from engine.strategies.match import bot_rng

    deal, players, opponent, rotation, iterations = job
    global _starter
    if _starter is None:
        _starter = _load_starter(iterations)
    game = engine.load_game(options={"players": players})
    starter_seat = rotation
    others = {seat: get(opponent) for seat in range(players) if seat != starter_seat}
    rngs = [bot_rng(deal, seat) for seat in range(players)]
    state = game.new_initial_state(deal)
    hello = {
        "game": game.name,
        "version": game.version,
        "options": dict(game.options),
        "seat": starter_seat,
        "limits": {"move_ms": 1000, "bank_ms": 10_000},
    }
    _starter.start(hello)
    thinking, decisions = 0.0, 0
    while not state.is_terminal():
        seat = state.current_player
        legal = state.legal_actions()
        observation = state.observation(seat)
        if seat == starter_seat:
            began = time.perf_counter()
            index = _starter.choose(observation, [a.to_json() for a in legal], rngs[seat])
            thinking += time.perf_counter() - began
            decisions += 1
            action = legal[index]
        else:
            action = others[seat].choose(observation, legal, rngs[seat])
        state = state.apply(action)
    winners = state.result().winners
    share = 1 / len(winners) if starter_seat in winners else 0.0
    return deal, share, 1000 * thinking / max(decisions, 1)


def bootstrap_interval(values: list[float], resamples: int = 10_000) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the mean of ``values`` resampled with replacement.

    >>> bootstrap_interval([1.0] * 50)
    (1.0, 1.0)
    >>> low, high = bootstrap_interval([0.0, 1.0] * 100)
    >>> 0.42 < low < 0.5 < high < 0.58
    True
    """
    rng = random.Random(2024)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    return means[int(0.025 * resamples)], means[int(0.975 * resamples) - 1]


def run(players: int, opponent: str, deals: int, iterations: int, workers: int) -> dict[str, float]:
    jobs = [
        (deal, players, opponent, rotation, iterations)
        for deal in range(deals)
        for rotation in range(players)
    ]
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = pool.map(_play, jobs, chunksize=4)
    per_deal: dict[int, list[float]] = {}
    for deal, share, _ in results:
        per_deal.setdefault(deal, []).append(share)
    means = [statistics.fmean(shares) for shares in per_deal.values()]
    rate = statistics.fmean(means)
    low, high = bootstrap_interval(means)
    move_ms = statistics.median(ms for _, _, ms in results)
    wall_s = time.perf_counter() - began
    print(
        f"{players} players, MCTS starter ({iterations} iterations/move, median "
        f"{move_ms:.0f} ms/move here) vs {players - 1} x {opponent}: win rate "
        f"{100 * rate:.1f}% [95% CI {100 * low:.1f}-{100 * high:.1f}%] "
        f"over {deals} deals x {players} seatings = {len(results)} games "
        f"(an equal bot: {100 / players:.1f}%); {wall_s:.0f} s",
        flush=True,
    )
    return {
        "win_pct": 100 * rate,
        "ci_low_pct": 100 * low,
        "ci_high_pct": 100 * high,
        "move_ms": move_ms,
        "wall_s": wall_s,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--opponents", nargs="+", default=["greedy", "random"])
    benchlib.add_baseline_arguments(parser, default_rounds=3)
    args = parser.parse_args()
    benchlib.run(__file__, args, measure, report, kind, in_tree=True)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every pairing's figures (keys ``{players}p_{opponent}_...``), printed as they come."""
    sys.path.insert(0, str(benchlib.tree_root() / "arena" / "botkit"))  # the bot's catbot
    print(f"machine: {benchlib.machine()}", flush=True)
    figures: dict[str, Any] = {}
    for players in args.players:
        for opponent in args.opponents:
            pairing = run(players, opponent, args.deals, args.iterations, args.workers)
            figures |= {f"{players}p_{opponent}_{key}": value for key, value in pairing.items()}
    return figures


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    print(f"machine after the runs: {benchlib.machine()}")


def kind(key: str) -> str:
    """Timings (ms per move, a pairing's wall time) are compared; win rates are counts."""
    return "time" if key.endswith(("_ms", "_s")) else "count"


if __name__ == "__main__":
    main()
