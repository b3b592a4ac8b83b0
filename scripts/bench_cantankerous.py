#!/usr/bin/env python
"""Benchmark the Cantankerous Cats engine: complete games per second (demo deck).

    .venv/bin/python scripts/bench_cantankerous.py [--games 300] [--players 4] [--seed 0]
    .venv/bin/python scripts/bench_cantankerous.py --baseline main --rounds 5

Prints figures; asserts nothing (speed is never a test). One process, one core.

* random play: ``legal_actions()`` + ``apply`` until the end (no observation built);
* bot protocol: the same with the ``random`` strategy through ``play_match``, which builds a
  JSON observation for every decision, as an arena bot receives;
* greedy: the ``greedy`` strategy in every seat;
* log: ``make_log`` + ``replay`` of one game.

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code in subprocesses, then prints both medians and the speed-up,
with the machine. Only the public API is used.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

GAME = "cantankerous-cats"
RATES = {"games_per_s", "bot_protocol_games_per_s"}
COUNTS = {"decisions_per_game", "turns_per_game", "log_kib"}


def kind(key: str) -> str:
    return "rate" if key in RATES else "count" if key in COUNTS else "time"


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Every figure of one run, from the ``engine`` on ``sys.path``."""
    from engine import load_game, make_log, replay
    from engine.strategies import get
    from engine.strategies.match import play_match

    game = load_game(GAME, options={"players": args.players, "variant": args.variant})
    clock = time.perf_counter
    n = args.games
    figures: dict[str, float] = {}

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
    figures["games_per_s"] = n / elapsed
    figures["game_ms"] = elapsed / n * 1e3
    figures["decision_us"] = elapsed / actions * 1e6
    figures["decisions_per_game"] = actions / n
    figures["turns_per_game"] = turns / n

    bots = [get("random", game=GAME)] * args.players
    m = max(1, n // 3)
    start = clock()
    for seed in range(m):
        play_match(game, bots, seed)
    figures["bot_protocol_games_per_s"] = m / (clock() - start)

    greedy = [get("greedy", game=GAME)] * args.players
    samples = []
    for seed in range(max(5, n // 10)):
        t0 = clock()
        play_match(game, greedy, seed)
        samples.append(clock() - t0)
    figures["greedy_game_ms"] = statistics.median(samples) * 1e3

    final = play_match(game, greedy, 1)
    t0 = clock()
    log = make_log(game, 1, final.history)
    t1 = clock()
    replay(json.loads(json.dumps(log)))
    t2 = clock()
    figures["log_kib"] = len(json.dumps(log)) / 1024
    figures["make_log_ms"] = (t1 - t0) * 1e3
    figures["replay_ms"] = (t2 - t1) * 1e3
    return figures


def report(args: argparse.Namespace, f: dict[str, float]) -> None:
    n = args.games
    print(f"machine: {benchlib.machine()}")
    print(f"{n} complete {args.players}-player {args.variant} games, demo deck, random moves")
    print(f"  games/s            {f['games_per_s']:10.0f}")
    print(
        f"  per game           {f['game_ms']:10.2f} ms  ({f['decisions_per_game']:.0f} decisions, "
        f"{f['turns_per_game']:.0f} turns, {f['decision_us']:.1f} us a decision)"
    )
    print(f"through the bot protocol (observation per decision), {max(1, n // 3)} games:")
    print(f"  games/s            {f['bot_protocol_games_per_s']:10.0f}")
    print(f"greedy in every seat, {max(5, n // 10)} games:")
    print(f"  per game (median)  {f['greedy_game_ms']:10.2f} ms")
    print(
        f"one greedy game's log: {f['log_kib']:.1f} KiB, make_log "
        f"{f['make_log_ms']:.1f} ms, replay {f['replay_ms']:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variant", default="standard", choices=("basic", "standard"))
    benchlib.add_baseline_arguments(parser)
    args = parser.parse_args()
    benchlib.run(__file__, args, measure, report, kind)


if __name__ == "__main__":
    main()
