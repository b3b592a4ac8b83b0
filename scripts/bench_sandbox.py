#!/usr/bin/env python
"""Sandbox figures: bot spawn + one round trip (median), and sandboxed 4-bot matches per second.

Runs directly (no Celery): one or more worker processes each play matches with trivial bots
(first legal action) through arena.runner.run_match, and the time is split between sandbox
start-up, bot thinking, engine and teardown. Prints figures; asserts nothing.

    .venv/bin/python scripts/bench_sandbox.py [--mode bwrap] [--matches 40] [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.runner import BotSpec, run_match  # noqa: E402
from arena.sandbox import BotProcess, Limits, Mode, Status, resolve_mode  # noqa: E402

TRIVIAL_BOT = b"def choose(observation, legal_actions):\n    return 0\n"
ACT = {"type": "act", "observation": {}, "legal_actions": [{"type": "end-turn"}]}


def spawn_round_trip(mode: Mode, samples: int) -> tuple[float, float]:
    """Median ms to spawn a bot and get one answer, and median ms per further round trip."""
    spawn, trip = [], []
    for _ in range(samples):
        begun = time.perf_counter()
        bot = BotProcess(TRIVIAL_BOT, mode=mode, limits=Limits())
        bot.start({"type": "start", "seat": 0})
        assert bot.wait_ready().status is Status.OK, bot.stderr
        assert bot.request(ACT, timeout_ms=5000).status is Status.OK
        spawn.append((time.perf_counter() - begun) * 1000)
        begun = time.perf_counter()
        for _ in range(100):
            bot.request(ACT, timeout_ms=5000)
        trip.append((time.perf_counter() - begun) * 10)
        bot.close()
    return statistics.median(spawn), statistics.median(trip)


def _play(args: tuple[str, int, int]) -> list[dict[str, float]]:
    mode, first_seed, count = args
    bots = [BotSpec.from_source(TRIVIAL_BOT, name=f"trivial{i}") for i in range(4)]
    timings = []
    for seed in range(first_seed, first_seed + count):
        log = run_match(seed=seed, bots=bots, mode=mode)
        assert not any(log["faults"]), log["faults"]
        timings.append(log["timing"])
    return timings


def matches_per_second(mode: Mode, matches: int, workers: int) -> None:
    per_worker = max(1, matches // workers)
    jobs = [(str(mode), 1000 + i * per_worker, per_worker) for i in range(workers)]
    _play((str(mode), 1, 1))  # warm up: mode detection, imports
    begun = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = [t for chunk in pool.map(_play, jobs) for t in chunk]
    wall = time.perf_counter() - begun
    print(f"4-bot matches ({mode}, trivial bots, {workers} worker processes, {os.cpu_count()} cores): "
          f"{len(results)} in {wall:.2f} s = {len(results) / wall:.1f} matches/s")
    total = sum(t["total_ms"] for t in results)
    for key in ("sandbox_start_ms", "bot_think_ms", "engine_ms", "teardown_ms"):
        part = sum(t[key] for t in results)
        print(f"  {key:<17} {part / len(results):7.1f} ms/match  ({100 * part / total:4.1f}% of match time)")
    other = total - sum(sum(t[k] for t in results) for k in
                        ("sandbox_start_ms", "bot_think_ms", "engine_ms", "teardown_ms"))
    print(f"  {'other (runner)':<17} {other / len(results):7.1f} ms/match")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default=None, help="sandbox mode (default: strongest that works)")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    modes = [resolve_mode(args.mode)] if args.mode else [
        m for m in (Mode.BWRAP, Mode.RLIMITS_SECCOMP) if _works(m)]
    for mode in modes:
        spawn, trip = spawn_round_trip(mode, args.samples)
        print(f"{mode}: spawn + first answer {spawn:.1f} ms (median of {args.samples}); "
              f"further round trips {trip * 1000:.0f} us each")
    for mode in modes:
        matches_per_second(mode, args.matches, args.workers)


def _works(mode: Mode) -> bool:
    try:
        resolve_mode(str(mode))
    except Exception:
        return False
    return True


if __name__ == "__main__":
    main()
