#!/usr/bin/env python
"""Count the instructions an engine workload executes, against a baseline revision.

    .venv/bin/python scripts/bench_instructions.py --baseline 6375dd5
    .venv/bin/python scripts/bench_instructions.py --baseline main --workload bot --games 20

Wall-clock figures on a shared machine move with its load; instruction counts do not (the
same binary, inputs and environment give the same count, whatever else runs). Each
workload runs under valgrind's callgrind twice per tree, with and without its games, so
that start-up and imports are subtracted, and the count per game is printed for the
baseline (a temporary git worktree) and the current tree, with their ratio. Fewer
instructions is not always less time (memory and caches count too): quote both.

Workloads, all from seeded random play through the public API:

* ``raw``: complete random 4-player Cat Lady games, scoring included;
* ``bot``: the same through the bot protocol, one observation per decision;
* ``expansion``: scoring the end states of random 6-player Box of Treats placeholder games;
* ``cantankerous``: 4 greedy bots playing Cantankerous Cats (demo deck);
* ``cantankerous-raw``: complete random 4-player Cantankerous Cats games (demo deck), the
  first figure of scripts/bench_cantankerous.py;
* ``cantankerous-bot``: the same through the bot protocol (the ``random`` strategy in
  ``play_match``, one observation per decision), its second figure.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

WORKLOADS = ("raw", "bot", "expansion", "cantankerous", "cantankerous-raw", "cantankerous-bot")


def run_workload(name: str, games: int) -> None:
    """Play ``games`` games of workload ``name`` with the ``engine`` on ``sys.path``."""
    from engine import load_game

    if name in ("raw", "bot"):
        game = load_game(options={"players": 4})
        rng = random.Random(0)
        for seed in range(games):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                if name == "bot":
                    state.observation(state.current_player)
                state = state.apply(rng.choice(state.legal_actions()))
            state.result()
    elif name == "expansion":
        game = load_game(options={"players": 6, "edition": "box-of-treats-placeholder"})
        rng = random.Random(1)
        states = []
        for seed in range(games):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                state = state.apply(rng.choice(state.legal_actions()))
            states.append(state)
        if os.environ.get("BENCH_SCORE") == "1":  # only scoring is counted (see count)
            for state in states:
                state.score()
    elif name == "cantankerous-raw":  # as scripts/bench_cantankerous.py plays them
        cats = load_game("cantankerous-cats", options={"players": 4, "variant": "standard"})
        rng = random.Random(0)
        for seed in range(games):
            state = cats.new_initial_state(seed)
            while not state.is_terminal():
                state = state.apply(rng.choice(state.legal_actions()))
            state.result()
    else:
        from engine.strategies import get
        from engine.strategies.match import play_match

        cats = load_game("cantankerous-cats", options={"players": 4, "variant": "standard"})
        strategy = "random" if name == "cantankerous-bot" else "greedy"
        bots = [get(strategy, game="cantankerous-cats")] * 4
        for seed in range(games):
            play_match(cats, bots, seed)


def count(tree: Path, name: str, games: int) -> int:
    """Instructions per game of ``name`` for the engine in ``tree``."""

    def instructions(n: int, score: bool) -> int:
        env = dict(os.environ, BENCH_SCORE="1" if score else "0")
        out = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                __file__,
                "--worker",
                "--tree",
                str(tree),
                "--workload",
                name,
                "--games",
                str(n),
            ],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stderr
        match = re.search(r"Collected : (\d+)", out)
        if match is None:
            sys.exit(f"bench_instructions: no count from valgrind:\n{out[-2000:]}")
        return int(match.group(1))

    if name == "expansion":  # the same games played both times; only scoring differs
        return (instructions(games, True) - instructions(games, False)) // games
    return (instructions(games, False) - instructions(0, False)) // games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="compare with REV (a git revision)")
    parser.add_argument("--workload", choices=WORKLOADS, action="append")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--tree", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        benchlib.use_tree(args.tree)
        run_workload(args.workload[0], args.games)
        return
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: valgrind is not installed (apt-get install valgrind)")
    names = args.workload or list(WORKLOADS)
    print(f"machine: {benchlib.machine()}")
    print(f"{args.games} games a workload; instructions a game (valgrind --tool=callgrind)")
    if not args.baseline:
        for name in names:
            print(f"{name:16} {count(benchlib.REPO, name, args.games) / 1e6:10.2f} M")
        return
    with benchlib.baseline_worktree(args.baseline) as tree:
        print(f"{'workload':16} {'baseline':>10} {'current':>10}  ratio (baseline / current)")
        for name in names:
            old = count(tree, name, args.games)
            new = count(benchlib.REPO, name, args.games)
            print(f"{name:16} {old / 1e6:9.2f}M {new / 1e6:9.2f}M  {old / new:5.2f}x")


if __name__ == "__main__":
    main()
