#!/usr/bin/env python
"""Sandbox figures: bot spawn + first answer (median), with and without the engine, the
forward model's speed inside the sandbox, and sandboxed 4-bot matches per second.

Runs directly (no Celery). Spawn + first answer is measured for a trivial bot (first legal
action), for a bot that imports the engine and builds its forward model at start, and for
one that also samples a state from a real observation before answering. Playouts per second
are random Cat Lady 4-player games played from states sampled from one observation, inside
the sandbox and in this process. Then one or more worker processes each play matches with
trivial bots through arena.runner.run_match, the time split between sandbox start-up, bot
thinking, engine and teardown. Prints figures; asserts nothing.

    .venv/bin/python scripts/bench_sandbox.py [--mode bwrap] [--matches 40] [--workers 2]
    .venv/bin/python scripts/bench_sandbox.py --baseline 6375dd5 --rounds 5 --matches 0

``--baseline REV`` runs the spawn and playout measurements alternately in a worktree of REV
and in this tree (see scripts/benchlib.py) and prints both medians and their ratio: the
trivial bot's start-up there is the cost of the engine's presence to a bot that ignores it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

TRIVIAL_BOT = b"def choose(observation, legal_actions):\n    return 0\n"
ENGINE_BOT = b"""import catbot
model = None
def start(info):
    global model
    model = catbot.forward_model(info)
def choose(observation, legal_actions):
    return 0
"""
SAMPLING_BOT = ENGINE_BOT.replace(
    b"    return 0",
    b"    model.sample_state(observation, __import__('random').Random(0))\n    return 0",
)
PLAYOUT_SECONDS = 1.5
PLAYOUT_BOT = (
    b"""import sys, time, catbot
model = None
def start(info):
    global model
    model = catbot.forward_model(info)
def choose(observation, legal_actions, rng):
    began = time.perf_counter()
    playouts = 0
    while time.perf_counter() - began < %f:
        state = model.sample_state(observation, rng)
        while not model.is_terminal(state):
            state = model.apply(state, rng.choice(model.legal_actions(state)))
        playouts += 1
    print("playouts", playouts, time.perf_counter() - began, file=sys.stderr)
    return 0
"""
    % PLAYOUT_SECONDS
)


def _real_act() -> tuple[dict, dict]:
    """A start message and an act message of a real 4-player Cat Lady game (first draft)."""
    import engine

    game = engine.load_game(options={"players": 4})
    state = game.new_initial_state(3)
    state = state.apply(state.legal_actions()[0])  # the token placed: a drafting decision
    seat = state.current_player
    hello = {
        "type": "start",
        "seat": seat,
        "game": game.name,
        "version": game.version,
        "num_players": 4,
        "options": dict(game.options),
        "rng_seed": "bench",
    }
    act = {
        "type": "act",
        "observation": state.observation(seat),
        "legal_actions": [a.to_json() for a in state.legal_actions()],
    }
    return hello, act


def spawn_first_answer(
    mode, source: bytes, samples: int, hello: dict, act: dict, limits
) -> tuple[float, float]:
    """Median ms to spawn a bot and get its first answer, and median us per further trip."""
    from arena.sandbox import BotProcess, Status

    spawn, trip = [], []
    for _ in range(samples):
        begun = time.perf_counter()
        bot = BotProcess(source, mode=mode, limits=limits)
        bot.start(hello)
        assert bot.wait_ready().status is Status.OK, bot.stderr
        assert bot.request(act, timeout_ms=10_000).status is Status.OK, bot.stderr
        spawn.append((time.perf_counter() - begun) * 1000)
        begun = time.perf_counter()
        for _ in range(50):
            bot.request(act, timeout_ms=10_000)
        trip.append((time.perf_counter() - begun) / 50 * 1e6)
        bot.close()
    return statistics.median(spawn), statistics.median(trip)


def playouts_per_second(mode, hello: dict, act: dict, limits) -> tuple[float, float]:
    """Random playouts from sampled states per second, inside the sandbox and in process."""
    from arena.sandbox import BotProcess, Status

    bot = BotProcess(PLAYOUT_BOT, mode=mode, limits=limits)
    bot.start(hello)
    assert bot.wait_ready().status is Status.OK, bot.stderr
    assert bot.request(act, timeout_ms=30_000).status is Status.OK, bot.stderr
    bot.close()
    found = re.search(r"playouts (\d+) ([\d.]+)", bot.stderr)
    assert found, bot.stderr
    inside = int(found.group(1)) / float(found.group(2))
    import engine

    model = engine.forward_model(hello)
    rng = random.Random(0)
    began, playouts = time.perf_counter(), 0
    while time.perf_counter() - began < PLAYOUT_SECONDS:
        state = model.sample_state(act["observation"], rng)
        while not model.is_terminal(state):
            state = model.apply(state, rng.choice(model.legal_actions(state)))
        playouts += 1
    return inside, playouts / (time.perf_counter() - began)


def measure(mode_name: str | None, samples: int) -> dict[str, float]:
    """The start-up and forward-model figures of this tree, as one JSON-able dict."""
    from arena.sandbox import Limits, resolve_mode

    mode = resolve_mode(mode_name) if mode_name else resolve_mode(None)
    hello, act = _real_act()
    limits = Limits(move_ms=10_000, startup_ms=10_000)
    figures: dict[str, float] = {}
    spawn, trip = spawn_first_answer(mode, TRIVIAL_BOT, samples, hello, act, limits)
    figures["spawn_first_answer_ms"] = spawn
    figures["round_trip_us"] = trip
    try:
        import arena.sandbox.engine_lib  # noqa: F401  (a tree without it has no engine for bots)
    except ImportError:
        return figures
    figures["spawn_engine_ms"], _ = spawn_first_answer(
        mode, ENGINE_BOT, samples, hello, act, limits
    )
    figures["spawn_engine_sample_ms"], _ = spawn_first_answer(
        mode, SAMPLING_BOT, samples, hello, act, limits
    )
    figures["playouts_per_s_sandbox"], figures["playouts_per_s_in_process"] = playouts_per_second(
        mode, hello, act, limits
    )
    return figures


def _kind(key: str) -> str:
    return "rate" if key.startswith("playouts") else "time"


def _play(args: tuple[str, int, int]) -> list[dict[str, float]]:
    from arena.runner import BotSpec, run_match

    mode, first_seed, count = args
    bots = [BotSpec.from_source(TRIVIAL_BOT, name=f"trivial{i}") for i in range(4)]
    timings = []
    for seed in range(first_seed, first_seed + count):
        log = run_match(seed=seed, bots=bots, mode=mode)
        assert not any(log["faults"]), log["faults"]
        timings.append(log["timing"])
    return timings


def matches_per_second(mode, matches: int, workers: int) -> None:
    per_worker = max(1, matches // workers)
    jobs = [(str(mode), 1000 + i * per_worker, per_worker) for i in range(workers)]
    _play((str(mode), 1, 1))  # warm up: mode detection, imports
    begun = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        results = [t for chunk in pool.map(_play, jobs) for t in chunk]
    wall = time.perf_counter() - begun
    print(
        f"4-bot matches ({mode}, trivial bots, {workers} worker processes, {os.cpu_count()} cores): "
        f"{len(results)} in {wall:.2f} s = {len(results) / wall:.1f} matches/s"
    )
    total = sum(t["total_ms"] for t in results)
    for key in ("sandbox_start_ms", "bot_think_ms", "engine_ms", "teardown_ms"):
        part = sum(t[key] for t in results)
        print(
            f"  {key:<17} {part / len(results):7.1f} ms/match  ({100 * part / total:4.1f}% of match time)"
        )
    other = total - sum(
        sum(t[k] for t in results)
        for k in ("sandbox_start_ms", "bot_think_ms", "engine_ms", "teardown_ms")
    )
    print(f"  {'other (runner)':<17} {other / len(results):7.1f} ms/match")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default=None, help="sandbox mode (default: strongest that works)")
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--matches", type=int, default=40, help="0 skips the match figures")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--baseline", metavar="REV", help="also measure REV (a git revision) and print the ratios"
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=5,
        help="with --baseline: runs of each, alternating (default 5)",
    )
    parser.add_argument("--worker-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline:
        argv = benchlib.without(sys.argv[1:], "--baseline", "--rounds")
        benchlib.compare(__file__, [*argv, "--matches", "0"], args.baseline, args.rounds, _kind)
        return
    benchlib.use_tree(args.tree)
    if args.worker_json:
        print(json.dumps(measure(args.mode, args.samples)))
        return
    from arena.sandbox import Mode, resolve_mode

    print(f"machine: {benchlib.machine()}")
    modes = (
        [resolve_mode(args.mode)]
        if args.mode
        else [m for m in (Mode.BWRAP, Mode.RLIMITS_SECCOMP) if _works(m)]
    )
    for mode in modes:
        f = measure(str(mode), args.samples)
        print(
            f"{mode}: spawn + first answer (median of {args.samples}, a 4-player Cat Lady "
            f"observation): trivial bot {f['spawn_first_answer_ms']:.1f} ms, importing the "
            f"engine {f['spawn_engine_ms']:.1f} ms, and sampling a state "
            f"{f['spawn_engine_sample_ms']:.1f} ms; further round trips "
            f"{f['round_trip_us']:.0f} us each"
        )
        print(
            f"  forward model: {f['playouts_per_s_sandbox']:.0f} random playouts/s from "
            f"sampled states in the sandbox, {f['playouts_per_s_in_process']:.0f} in process "
            f"({f['playouts_per_s_sandbox'] / f['playouts_per_s_in_process']:.2f}x)"
        )
    if args.matches:
        for mode in modes:
            matches_per_second(mode, args.matches, args.workers)


def _works(mode) -> bool:
    from arena.sandbox import resolve_mode

    try:
        resolve_mode(str(mode))
    except Exception:
        return False
    return True


if __name__ == "__main__":
    main()
