#!/usr/bin/env python
"""Game-night table draws: avoidable repeat tablemates and the time of a draw.

Plays random nights (8 to 40 people, 3 to 6 rounds, a game's table sizes, people leaving
and arriving between rounds, random results) through the tree's ``draw_round`` and prints,
over every later round (the first has nobody to keep apart):

- avoidable repeats: pairs seated together again beyond the fewest possible, and the rounds
  that had any (goal 0). The fewest possible comes from a reference solve in this script
  (CP-SAT, pair variables and group counts, 2 threads, ``--reference-seconds``), done only
  for rounds with a repeat; a reference that cannot prove its minimum in time counts the
  round as unresolved and uses its best bound (so the avoidable count is an upper bound);
- of those, the repeats beyond a seating the reference found (avoidable for certain), and
  the rounds seated with repeats although the reference found a round without any (goal 0);
- draw time: median, p95 and the slowest, on the clock and in CPU time (the draw runs on one
  thread, so its CPU time is what it takes on a core of its own, whatever else runs).

``--progress N`` prints the figures so far every N nights on stderr. ``--misses`` lists each
round with an avoidable repeat: its people, table sizes, round number, the draw's repeats
against the fewest, and whether a round without repeats existed.

    .venv/bin/python scripts/bench_draw.py --nights 1000
    .venv/bin/python scripts/bench_draw.py --nights 200 --baseline HEAD --rounds 1

``--baseline REV`` alternates runs of REV's draw (a temporary git worktree; before the
league/ packages, ``league.table_draw``) and the current one (scripts/benchlib.py). Each
method plays the same nights, but its earlier rounds are its own.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

# (min, max) seats a table: Cat Lady, Cat Lady with tables of 3-4, Box of Treats,
# Cantankerous Cats, four-player games, two-player games.
SIZES = [(2, 4), (3, 4), (2, 6), (3, 5), (4, 4), (2, 2)]
# When CP-SAT's reference leaves a round of up to EXHAUSTIVE_PEOPLE unsettled, an exhaustive
# search of up to EXHAUSTIVE_NODES placements (a few seconds of Python) settles most of them
# (2-4 tables); beyond 20 people (4-5 tables of 5-6) it rarely finishes, so it is not tried.
EXHAUSTIVE_NODES = 3_000_000
EXHAUSTIVE_PEOPLE = 20


def draw_module() -> Any:
    try:
        return importlib.import_module("league.nights.draw")
    except ImportError:
        return importlib.import_module("league.table_draw")


def fewest_repeats(
    groups: list[list[int]],
    sizes: list[int],
    met: set[frozenset[int]],
    earlier: list[list[int]],
    seconds: float,
) -> tuple[int, bool, int]:
    """(the fewest repeats any seating of these people has, proved?, the fewest the reference
    found: no more than the draw's, from which it starts) by a reference solve;
    ``earlier``: the night's earlier tables, whose members all met (k of them at one table
    are at least k(k-1)/2 repeats: the bound that lets the solver prove a minimum)."""
    from ortools.sat.python import cp_model

    people = sorted(p for g in groups for p in g)
    n, tables = len(people), range(len(sizes))
    model = cp_model.CpModel()
    seat = [[model.new_bool_var("") for _ in tables] for _ in people]
    for row in seat:
        model.add_exactly_one(row)
    for t in tables:
        model.add(sum(seat[i][t] for i in range(n)) == sizes[t])
    again = {}
    for i, j in itertools.combinations(range(n), 2):
        if frozenset((people[i], people[j])) in met:
            again[i, j] = model.new_bool_var("")
            for t in tables:
                model.add_bool_or([seat[i][t].Not(), seat[j][t].Not(), again[i, j]])
    where = {p: i for i, p in enumerate(people)}
    for group in earlier:
        members = sorted(where[p] for p in group if p in where)
        if len(members) < 3:
            continue
        counts = []
        for t in tables:
            most = min(len(members), sizes[t])
            count = model.new_int_var(0, most * (most - 1) // 2, "")
            together = sum(seat[i][t] for i in members)
            for k in range(1, most):
                model.add(count >= k * together - k * (k + 1) // 2)
            counts.append(count)
        model.add(sum(again[pair] for pair in itertools.combinations(members, 2)) >= sum(counts))
    model.minimize(sum(again.values()))
    table_of = {p: t for t, g in enumerate(sorted(groups, key=len, reverse=True)) for p in g}
    for i, p in enumerate(people):
        for t in tables:
            model.add_hint(seat[i][t], table_of[p] == t)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 2
    solver.parameters.max_time_in_seconds = seconds
    status = solver.solve(model)
    found = (
        round(solver.objective_value)
        if status == cp_model.FEASIBLE
        else sum(frozenset(p) in met for g in groups for p in itertools.combinations(g, 2))
    )
    if status == cp_model.OPTIMAL:
        return round(solver.objective_value), True, round(solver.objective_value)
    exact = (
        exhaustive_fewest(groups, sizes, met, EXHAUSTIVE_NODES)
        if len(people) <= EXHAUSTIVE_PEOPLE
        else None
    )
    if exact is not None:
        return exact, True, exact
    return max(0, round(solver.best_objective_bound)), False, found


def exhaustive_fewest(
    groups: list[list[int]], sizes: list[int], met: set[frozenset[int]], nodes: int
) -> int | None:
    """The fewest repeats of any seating of these people at tables of ``sizes``, by trying
    every seating (branch and bound: people placed one by one, most-met first, tables of one
    size still empty taken in order, a branch dropped once it seats as many pairs who met as
    the best so far); None if that takes more than ``nodes`` placements. Settles small
    rounds (two or three tables) that the CP-SAT reference may not prove in its time."""
    people = sorted((p for g in groups for p in g), key=lambda p: -sum(p in m for m in met))
    mates = [
        [i for i in range(k) if frozenset((people[i], people[k])) in met]
        for k in range(len(people))
    ]
    seated: list[list[int]] = [[] for _ in sizes]
    best = [sum(frozenset(p) in met for g in groups for p in itertools.combinations(g, 2))]
    budget = [nodes]
    where = [0] * len(people)

    def place(k: int, cost: int) -> bool:
        if cost >= best[0]:
            return True
        if k == len(people):
            best[0] = cost
            return True
        tried_empty: set[int] = set()
        for t, size in enumerate(sizes):
            if len(seated[t]) == size or (not seated[t] and size in tried_empty):
                continue
            if not seated[t]:
                tried_empty.add(size)
            budget[0] -= 1
            if budget[0] < 0:
                return False
            added = sum(where[i] == t for i in mates[k])
            where[k] = t
            seated[t].append(k)
            finished = place(k + 1, cost + added)
            seated[t].pop()
            if not finished:
                return False
        return True

    return best[0] if place(0, 0) else None


def measure(args: argparse.Namespace) -> dict[str, Any]:
    draw = draw_module()
    rng = random.Random(args.seed)
    times, avoidable, rounds_avoidable, unresolved, later, repeats = [], 0, 0, 0, 0, 0
    cpu_times: list[float] = []
    repeat_free_missed, found_better, rounds_found_better, misses = 0, 0, 0, []

    def summary() -> dict[str, Any]:
        """The figures so far."""
        walls, cpus = sorted(times), sorted(cpu_times)
        return {
            "nights": night_number,
            "later_rounds": later,
            "repeat_pairs": repeats,
            "avoidable_repeats": avoidable,
            "rounds_with_avoidable_repeats": rounds_avoidable,
            "unresolved_rounds": unresolved,
            "rounds_repeat_free_missed": repeat_free_missed,
            "repeats_beyond_a_found_seating": found_better,
            "rounds_beyond_a_found_seating": rounds_found_better,
            "misses": misses,
            "draw_median_s": statistics.median(walls),
            "draw_p95_s": walls[math.ceil(0.95 * len(walls)) - 1],  # nearest rank
            "draw_max_s": walls[-1],
            "draw_cpu_median_s": statistics.median(cpus),
            "draw_cpu_p95_s": cpus[math.ceil(0.95 * len(cpus)) - 1],
            "draw_cpu_max_s": cpus[-1],
        }

    night_number = 0
    for night_number in range(1, args.nights + 1):
        count = rng.randint(8, 40)
        low, high = rng.choice(SIZES)
        rounds = rng.randint(3, 6)
        night = random.Random(rng.random())
        present, fresh = list(range(count)), count
        points: dict[int, int] = {}
        met: set[frozenset[int]] = set()
        earlier: list[list[int]] = []
        for number in range(1, rounds + 1):
            entrants = [
                draw.Entrant(i, f"P{i}", rating=1500 + (i * 37) % 300, points=points.get(i, 0))
                for i in present
            ]
            begun, begun_cpu = time.perf_counter(), time.process_time()
            result = draw.draw_round(
                entrants=entrants,
                min_size=low,
                max_size=high,
                round_number=number,
                met=[tuple(pair) for pair in met],
                seed=args.seed,
            )
            elapsed, cpu = time.perf_counter() - begun, time.process_time() - begun_cpu
            groups = [list(t.players) for t in result.tables]
            if number > 1:
                later += 1
                times.append(elapsed)
                cpu_times.append(cpu)
                repeats += result.repeats
                if result.repeats:
                    sizes = sorted((len(g) for g in groups), reverse=True)
                    fewest, proved, found = fewest_repeats(
                        groups, sizes, met, earlier, args.reference_seconds
                    )
                    unresolved += not proved
                    # Beyond a seating the reference found: avoidable for certain.
                    found_better += max(0, result.repeats - found)
                    rounds_found_better += result.repeats > found
                    extra = max(0, result.repeats - fewest)
                    avoidable += extra
                    rounds_avoidable += extra > 0
                    # A bound of 0 proves nothing; a reference seating with no repeat does.
                    repeat_free_missed += proved and fewest == 0
                    if extra:
                        misses.append(
                            f"night {night_number}, {len(entrants)} people at tables of "
                            f"{low}-{high} ({'+'.join(map(str, sizes))}), round {number}: "
                            f"{result.repeats} repeats, fewest {fewest}"
                            + ("" if proved else f" or more (unproven; {found} found)")
                            + (" (a round without repeats exists)" if proved and not fewest else "")
                            + f", drawn in {elapsed * 1e3:.0f} ms"
                        )
            earlier += groups
            for group in groups:
                met |= {frozenset(p) for p in itertools.combinations(group, 2)}
                for place, player in enumerate(night.sample(group, len(group))):
                    points[player] = points.get(player, 0) + place
            present = [p for p in present if night.random() > 0.08]
            for _ in range(night.choice((0, 0, 1, 2))):
                present.append(fresh)
                fresh += 1
            while len(present) < 8:
                present.append(fresh)
                fresh += 1
        if args.progress and night_number % args.progress == 0 and night_number < args.nights:
            print(f"after {night_number} nights:", file=sys.stderr)
            report(args, summary(), out=sys.stderr)
    return summary()


def report(args: argparse.Namespace, f: dict[str, Any], out: TextIO = sys.stdout) -> None:
    print(f"machine: {benchlib.machine()}", file=out)
    print(
        f"{f['nights']} nights (seed {args.seed}), {f['later_rounds']} later rounds drawn", file=out
    )
    print(
        f"  repeat pairs {f['repeat_pairs']}, of which avoidable {f['avoidable_repeats']} "
        f"in {f['rounds_with_avoidable_repeats']} rounds ({f['unresolved_rounds']} rounds "
        "unresolved by the reference)",
        file=out,
    )
    print(
        f"  certainly avoidable (the reference found a seating with fewer): "
        f"{f['repeats_beyond_a_found_seating']} in {f['rounds_beyond_a_found_seating']} rounds",
        file=out,
    )
    print(
        "  rounds with repeats although a round without any exists: "
        f"{f['rounds_repeat_free_missed']}",
        file=out,
    )
    print(
        f"  draw time: median {f['draw_median_s'] * 1e3:.0f} ms, "
        f"p95 {f['draw_p95_s'] * 1e3:.0f} ms, slowest {f['draw_max_s'] * 1e3:.0f} ms",
        file=out,
    )
    print(
        f"  draw CPU time: median {f['draw_cpu_median_s'] * 1e3:.0f} ms, "
        f"p95 {f['draw_cpu_p95_s'] * 1e3:.0f} ms, slowest {f['draw_cpu_max_s'] * 1e3:.0f} ms",
        file=out,
    )
    if args.misses and out is sys.stdout:
        print("rounds with an avoidable repeat:", file=out)
        for line in f["misses"]:
            print(f"  {line}", file=out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference-seconds", type=float, default=5.0)
    parser.add_argument(
        "--misses", action="store_true", help="list each round with an avoidable repeat"
    )
    parser.add_argument(
        "--progress",
        type=int,
        metavar="N",
        default=0,
        help="every N nights, print the figures so far on stderr (a long run cut short "
        "still says what it measured)",
    )
    benchlib.add_baseline_arguments(parser, default_rounds=1)
    args = parser.parse_args()
    benchlib.run(
        __file__, args, measure, report, lambda key: "time" if key.endswith("_s") else "count"
    )


if __name__ == "__main__":
    main()
