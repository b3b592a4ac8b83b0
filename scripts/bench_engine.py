#!/usr/bin/env python
"""Benchmark the game engine: complete random games per second, scoring included.

    .venv/bin/python scripts/bench_engine.py [--games 2000] [--players 4] [--seed 0]
    .venv/bin/python scripts/bench_engine.py --edition box-of-treats-placeholder --players 6 --games 100
    .venv/bin/python scripts/bench_engine.py --baseline main --rounds 5

Prints figures; asserts nothing (speed is never a test). One process, one core.

Phases measured separately:
* deal: ``new_initial_state`` (shuffle, grid, strays);
* play: choosing uniformly among ``legal_actions()`` and applying until the end, the way a
  random bot plays inside the engine (no observation built);
* score: ``result()`` (tableaux + ``score_game`` with optimal feeding);
* bot protocol: the same kind of game with one ``observation(seat)`` per decision, as every
  arena bot and ``python -m engine play`` get them, the move chosen uniformly at random.

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code in subprocesses, then prints both medians and the speed-up,
with the machine (cpu, cores, load average). Only the public game API is used, so any
revision since the API settled can be the baseline.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

RATES = {"games_per_s", "bot_protocol_games_per_s"}
COUNTS = {"actions_per_game", "observations_per_game"}


def kind(key: str) -> str:
    return "rate" if key in RATES else "count" if key in COUNTS else "time"


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Every figure of one run, from the ``engine`` on ``sys.path``."""
    from engine import load_game

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
    figures = {
        "games_per_s": n / total,
        "game_us": total / n * 1e6,
        "deal_us": deal / n * 1e6,
        "play_us": play / n * 1e6,
        "score_us": score / n * 1e6,
        "actions_per_game": actions / n,
    }

    m = max(1, n // 10)
    observations = 0
    start = clock()
    for seed in range(args.seed, args.seed + m):
        rngs = [random.Random(f"bench:{seed}:{seat}") for seat in range(args.players)]
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_player
            legal = state.legal_actions()
            state.observation(seat)
            observations += 1
            state = state.apply(rngs[seat].choice(legal))
        state.result()
    elapsed = clock() - start
    figures["bot_protocol_games_per_s"] = m / elapsed
    figures["bot_protocol_game_us"] = elapsed / m * 1e6
    figures["observations_per_game"] = observations / m

    if args.greedy_games:
        from engine.strategies import get
        from engine.strategies.match import play_match

        samples = []
        for seed in range(args.greedy_games):
            t0 = clock()
            play_match(game, [get("greedy")] * args.players, seed)
            samples.append(clock() - t0)
        figures["greedy_game_ms"] = statistics.median(samples) * 1e3
    return figures


def report(args: argparse.Namespace, f: dict[str, float]) -> None:
    n = args.games
    print(f"machine: {benchlib.machine()}")
    print(
        f"{n} complete {args.players}-player games ({args.edition}) with random moves, "
        "scoring included"
    )
    print(f"  games/s            {f['games_per_s']:10.0f}")
    print(f"  per game           {f['game_us']:10.0f} us")
    print(f"    deal             {f['deal_us']:10.0f} us")
    print(
        f"    play             {f['play_us']:10.0f} us  ({f['actions_per_game']:.1f} actions, "
        f"{f['play_us'] / f['actions_per_game']:.2f} us each)"
    )
    print(f"    score            {f['score_us']:10.0f} us")
    print(
        f"through the bot protocol (observation per decision), {max(1, n // 10)} games, "
        "scoring included:"
    )
    print(f"  games/s            {f['bot_protocol_games_per_s']:10.0f}")
    print(
        f"  per game           {f['bot_protocol_game_us']:10.0f} us "
        f"({f['observations_per_game']:.1f} observations)"
    )
    if "greedy_game_ms" in f:
        print(
            f"greedy bots in every seat: {f['greedy_game_ms']:.1f} ms per game "
            f"(median of {args.greedy_games})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--edition", default="base", help="Cat Lady card data (default: base)")
    parser.add_argument(
        "--greedy-games",
        type=int,
        default=20,
        help="games with greedy bots in every seat (0 to skip)",
    )
    benchlib.add_baseline_arguments(parser)
    args = parser.parse_args()
    benchlib.run(__file__, args, measure, report, kind)


if __name__ == "__main__":
    main()
