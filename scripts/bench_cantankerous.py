#!/usr/bin/env python
"""Benchmark the Cantankerous Cats engine: complete games per second (demo deck).

    .venv/bin/python scripts/bench_cantankerous.py [--games 300] [--players 4] [--seed 0]

Prints figures; asserts nothing (speed is never a test). One process, one core.

* random play: ``legal_actions()`` + ``apply`` until the end (no observation built);
* bot protocol: the same with the ``random`` strategy through ``play_match``, which builds a
  JSON observation for every decision, as an arena bot receives;
* greedy: the ``greedy`` strategy in every seat;
* log: ``make_log`` + ``replay`` of one game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import load_game, make_log, replay  # noqa: E402
from engine.strategies import get  # noqa: E402
from engine.strategies.match import play_match  # noqa: E402

GAME = "cantankerous-cats"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="standard", choices=("basic", "standard"))
    args = parser.parse_args()
    game = load_game(GAME, options={"players": args.players, "variant": args.variant})
    clock = time.perf_counter
    n = args.games

    rng = random.Random(args.seed)
    actions = turns = 0
    start = clock()
    for seed in range(args.seed, args.seed + n):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
            actions += 1
        state.result()
        turns += state.turn
    elapsed = clock() - start
    print(f"{n} complete {args.players}-player {args.variant} games, demo deck, random moves")
    print(f"  games/s            {n / elapsed:10.0f}")
    print(
        f"  per game           {elapsed / n * 1e3:10.2f} ms  ({actions / n:.0f} decisions, "
        f"{turns / n:.0f} turns, {elapsed / actions * 1e6:.1f} us a decision)"
    )

    bots = [get("random", game=GAME)] * args.players
    m = max(1, n // 3)
    start = clock()
    for seed in range(m):
        play_match(game, bots, seed)
    elapsed = clock() - start
    print(f"through the bot protocol (observation per decision), {m} games:")
    print(f"  games/s            {m / elapsed:10.0f}")

    greedy = [get("greedy", game=GAME)] * args.players
    samples = []
    for seed in range(max(5, n // 10)):
        t0 = clock()
        play_match(game, greedy, seed)
        samples.append(clock() - t0)
    print(f"greedy in every seat, {len(samples)} games:")
    print(f"  per game (median)  {statistics.median(samples) * 1e3:10.2f} ms")

    final = play_match(game, greedy, 1)
    t0 = clock()
    log = make_log(game, 1, final.history)
    t1 = clock()
    replay(json.loads(json.dumps(log)))
    t2 = clock()
    print(
        f"one greedy game's log: {len(json.dumps(log)) / 1024:.1f} KiB, make_log "
        f"{(t1 - t0) * 1e3:.1f} ms, replay {(t2 - t1) * 1e3:.1f} ms"
    )


if __name__ == "__main__":
    main()
