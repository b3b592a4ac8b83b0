#!/usr/bin/env python
"""Benchmark the game engine: complete random games per second, scoring included.

    .venv/bin/python scripts/bench_engine.py [--games 2000] [--players 4] [--seed 0]
    .venv/bin/python scripts/bench_engine.py --edition box-of-treats-placeholder --players 6 --games 100

Prints figures; asserts nothing (speed is never a test). One process, one core.

Phases measured separately:
* deal: ``new_initial_state`` (shuffle, grid, strays);
* play: choosing uniformly among ``legal_actions()`` and applying until the end, the way a
  random bot plays inside the engine (no observation built);
* score: ``result()`` (tableaux + ``score_game`` with optimal feeding);
* bot protocol: the same games played through ``play_match`` with the ``random`` strategy,
  which builds a JSON observation for every decision, as an arena bot would receive.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_game  # noqa: E402
from engine.strategies import get  # noqa: E402
from engine.strategies.match import play_match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--edition", default="base", help="Cat Lady card data (default: base)")
    parser.add_argument("--greedy-games", type=int, default=20,
                        help="games with greedy bots in every seat (0 to skip)")
    args = parser.parse_args()
    game = load_game(options={"players": args.players, "edition": args.edition})
    rng = random.Random(args.seed)

    deal = play = score = 0.0
    actions = 0
    clock = time.perf_counter
    start = clock()
    for seed in range(args.seed, args.seed + args.games):
        t0 = clock()
        state = game.new_initial_state(seed)
        t1 = clock()
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        t2 = clock()
        state.result()
        t3 = clock()
        deal += t1 - t0
        play += t2 - t1
        score += t3 - t2
    total = clock() - start
    n = args.games
    print(f"{n} complete {args.players}-player games ({game.edition.label}) with random moves, "
          "scoring included")
    print(f"  games/s            {n / total:10.0f}")
    print(f"  per game           {total / n * 1e6:10.0f} us")
    print(f"    deal             {deal / n * 1e6:10.0f} us")
    print(f"    play             {play / n * 1e6:10.0f} us  ({actions / n:.1f} actions, "
          f"{play / actions * 1e6:.2f} us each)")
    print(f"    score            {score / n * 1e6:10.0f} us")

    bots = [get("random")] * args.players
    m = max(1, n // 10)
    start = clock()
    for seed in range(m):
        play_match(game, bots, seed)
    elapsed = clock() - start
    print(f"through the bot protocol (observation per decision), {m} games:")
    print(f"  games/s            {m / elapsed:10.0f}")

    samples = []
    for seed in range(args.greedy_games):
        t0 = clock()
        play_match(game, [get("greedy")] * args.players, seed)
        samples.append(clock() - t0)
    if samples:
        print(f"greedy bots in every seat: {statistics.median(samples) * 1e3:.1f} ms per game "
              f"(median of {len(samples)})")


if __name__ == "__main__":
    main()
