#!/usr/bin/env python
"""Print end-game scoring speed: typical end states, and one large tableau.

Figures are printed, never asserted. Caches are cleared between measurements of distinct
states so that the figure is the cost of scoring a fresh end of game.

    .venv/bin/python scripts/bench_scoring.py [--states 2000] [--seed 1]
    .venv/bin/python scripts/bench_scoring.py --edition box-of-treats-placeholder --players 6 --states 50
    .venv/bin/python scripts/bench_scoring.py --baseline main --rounds 5

The base game with 4 players deals the deck in threes (as drafting does); any other edition
or player count takes the end states of random games played by the engine (scored with
``State.score()``, which passes the grid and shared goals along).

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code in subprocesses, then prints both medians and the speed-up,
with the machine. Only the public API is used.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import benchlib  # noqa: E402

# The largest tableau a real game allows (the file says why), shared with the feeding tests.
LARGEST = json.loads((ROOT / "tests/engine/catlady/largest_tableau.json").read_text())
LARGE_CATS = tuple(LARGEST["cats"])
LARGE_FOOD = LARGEST["food"]


def clear_caches() -> None:
    """Empty every ``functools`` cache of the engine (whatever the revision calls them)."""
    for name, module in list(sys.modules.items()):
        if name == "engine" or name.startswith("engine."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear):
                    clear()


def dealt_end_states(n_states: int, seed: int) -> list[Any]:
    """Deal the 4-player deck round-robin in threes (like drafting) and hand out strays."""
    from engine import CardKind, Tableau, load_edition

    edition = load_edition()
    rng = random.Random(seed)
    states = []
    for _ in range(n_states):
        deck = list(edition.deck)
        rng.shuffle(deck)
        strays = rng.sample(edition.strays, 3)
        hands: list[dict[str, Any]] = [
            {"cats": [], "food": {}, "toys": {}, "costumes": 0, "catnip": 0} for _ in range(4)
        ]
        for turn in range(32):
            hand = hands[turn % 4]
            for card in deck[turn * 3 : turn * 3 + 3]:
                if card.kind is CardKind.CAT:
                    hand["cats"].append(card.name)
                elif card.kind is CardKind.FOOD:
                    for token, n in card.food.items():
                        hand["food"][token] = hand["food"].get(token, 0) + n
                elif card.kind is CardKind.TOY:
                    hand["toys"][card.toy] = hand["toys"].get(card.toy, 0) + 1
                elif card.kind is CardKind.COSTUME:
                    hand["costumes"] += 1
                elif card.kind is CardKind.CATNIP:
                    hand["catnip"] += 1
        for stray in strays:
            if rng.random() < 0.6:
                rng.choice(hands)["cats"].append(stray.name)
        states.append(
            [
                Tableau(
                    name=f"p{i}",
                    cats=tuple(h["cats"]),
                    food=h["food"],
                    toys=h["toys"],
                    costumes=h["costumes"],
                    catnip=h["catnip"],
                )
                for i, h in enumerate(hands)
            ]
        )
    return states


def played_end_states(n_states: int, seed: int, edition: str, players: int) -> list[Any]:
    """Final states of random games."""
    from engine import load_game

    game = load_game(options={"players": players, "edition": edition})
    rng = random.Random(seed)
    states = []
    for game_seed in range(seed, seed + n_states):
        state = game.new_initial_state(game_seed)
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def measure(args: argparse.Namespace) -> dict[str, float]:
    from engine import Tableau, load_edition, score_game

    clock = time.perf_counter
    edition = load_edition(args.edition)
    figures: dict[str, float] = {}
    if args.edition == "base" and args.players == 4:
        dealt = dealt_end_states(args.states, args.seed)
        figures["cats_per_player"] = sum(len(t.cats) for s in dealt for t in s) / (4 * len(dealt))
        for validate in (False, True):
            clear_caches()
            start = clock()
            for tableaux in dealt:
                score_game(tableaux, edition=edition, validate=validate)
            elapsed = clock() - start
            key = "dealt_4p_validated_us" if validate else "dealt_4p_us"
            figures[key] = elapsed / len(dealt) * 1e6
        start = clock()
        for tableaux in dealt:
            score_game(tableaux, edition=edition, validate=False)
        figures["dealt_4p_warm_us"] = (clock() - start) / len(dealt) * 1e6
    else:
        played = played_end_states(args.states, args.seed, args.edition, args.players)
        figures["cats_per_player"] = sum(len(t.cats) for s in played for t in s.tableaux()) / (
            args.players * len(played)
        )
        clear_caches()
        start = clock()
        for state in played:
            state.score()
        figures["played_end_state_us"] = (clock() - start) / len(played) * 1e6
        samples = []
        for state in played:
            clear_caches()
            t0 = clock()
            state.score()
            samples.append(clock() - t0)
        samples.sort()
        figures["played_end_state_max_us"] = samples[-1] * 1e6
    if args.edition == "base":
        large = Tableau(
            name="large",
            cats=LARGE_CATS,
            food=LARGE_FOOD,
            catnip=2,
            costumes=1,
            toys={"mouse_toy": 1},
        )
        other = Tableau(name="other", cats=("Bell",), food={"chicken": 1}, costumes=1)
        runs = []
        for _ in range(args.large_runs):
            clear_caches()
            t0 = clock()
            result = score_game([large, other], edition=edition, validate=False)
            runs.append(clock() - t0)
        figures["large_tableau_ms"] = min(runs) * 1e3
        figures["large_tableau_total_vp"] = result.players[0].total
    return figures


COUNTS = {"cats_per_player", "large_tableau_total_vp"}


def report(args: argparse.Namespace, f: dict[str, float]) -> None:
    print(f"machine: {benchlib.machine()}")
    print(
        f"{args.states} {args.players}-player end states ({args.edition}), "
        f"{f['cats_per_player']:.1f} cats per player on average"
    )
    if "dealt_4p_us" in f:
        print(f"  dealt, cold cache:            {f['dealt_4p_us']:9.0f} us per game")
        print(f"  dealt, cold cache, validated: {f['dealt_4p_validated_us']:9.0f} us per game")
        print(f"  same states again, warm:      {f['dealt_4p_warm_us']:9.0f} us per game")
    else:
        print(
            f"  played, cold cache:           {f['played_end_state_us']:9.0f} us per game "
            f"(slowest {f['played_end_state_max_us']:.0f} us)"
        )
    if "large_tableau_ms" in f:
        print(
            f"large tableau ({', '.join(LARGE_CATS[:3])} + 12 cats, 20 food): "
            f"{f['large_tableau_ms']:.2f} ms (best of {args.large_runs}, cold cache), "
            f"total {f['large_tableau_total_vp']:.0f} VP"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--edition", default="base", help="Cat Lady card data (default: base)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--large-runs",
        type=int,
        default=5,
        help="cold-cache runs of the large tableau (the best is printed)",
    )
    benchlib.add_baseline_arguments(parser)
    args = parser.parse_args()
    benchlib.run(
        __file__,
        args,
        measure,
        report,
        lambda key: "count" if key in COUNTS else "time",
    )


if __name__ == "__main__":
    main()
