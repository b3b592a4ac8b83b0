#!/usr/bin/env python
"""Game-night table draws: avoidable repeat tablemates and the time of a draw.

Plays random nights (8 to 40 people, 3 to 6 rounds, a game's table sizes, people leaving
and arriving between rounds, random results) through the tree's ``draw_round`` and prints,
over every later round (the first has nobody to keep apart):

- avoidable repeats: pairs seated together again beyond the fewest possible, and the rounds
  that had any (goal 0). The fewest possible comes from a reference solve in this script
  (:func:`fewest_repeats`: the counting bound, then CP-SAT on ``--reference-workers``
  threads, 1 by default: whether any seating has fewer repeats than the draw's, then the
  fewest by two models, each solve stopped after ``--reference-seconds`` of CP-SAT's deterministic work,
  about as many seconds of a core (the clock stops it at ten times that); an exhaustive
  search for up to 20 people), done only for rounds with a repeat; a reference that cannot prove its minimum
  in time counts the round as unresolved and uses its best bound (so the avoidable count is
  an upper bound);
- of those, the repeats beyond a seating the reference found (avoidable for certain), and
  the rounds seated with repeats although the reference found a round without any (goal 0);
- draw time: median, p95 and the slowest, on the clock and in CPU time (the draw runs on one
  thread, so its CPU time is what it takes on a core of its own, whatever else runs).

``--progress N`` prints the figures so far every N nights on stderr. ``--misses`` lists each
round with an avoidable repeat: its people, table sizes, round number, the draw's repeats
against the fewest, and whether a round without repeats existed.

    .venv/bin/python scripts/bench_draw.py --nights 1000
    .venv/bin/python scripts/bench_draw.py --nights 200 --baseline HEAD --rounds 1

``--save-rounds FILE`` writes every later round with a repeat (the draw's tables, the
night's earlier tables and met pairs, the draw's and the reference's figures) to FILE, a JSON
object a line (``--reference-seconds 0``: no reference, a few minutes for 1,000 nights).
``--replay FILE`` then runs only the reference on those rounds, as the draw seated them
(``--only-unsettled``: only those the saving run's reference left unsettled, or without a
reference those the draw did not prove), and prints how many it settles, the rounds where it
seated fewer repeats than the draw, and its CPU time; with ``--misses``, every round:

    .venv/bin/python scripts/bench_draw.py --nights 1000 --reference-seconds 0 \\
        --save-rounds rounds.jsonl
    .venv/bin/python scripts/bench_draw.py --replay rounds.jsonl --only-unsettled \\
        --reference-seconds 3 --misses

``--baseline REV`` alternates runs of REV's draw (a temporary git worktree; before the
league/ packages, ``league.table_draw``) and the current one (scripts/benchlib.py). Each
method plays the same nights, but its earlier rounds are its own.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import json
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
    workers: int = 1,
) -> tuple[int, bool, int]:
    """(the fewest repeats any seating of these people has, proved?, the fewest the reference
    found: no more than the draw's) by a reference solve; unproved, the first is a lower
    bound. ``earlier``: the night's earlier tables, whose members all met.

    One CP-SAT model (people at tables of equal size in the order of their lowest-numbered
    person, so each seating is seen once): a variable per pair who met, true when they sit
    together (the objective); for every group who all met (the met pairs split into groups,
    each pair in one, and each earlier table), ``k`` of them at a table being ``k(k-1)/2`` of
    its pairs (exact per table, and its tangents for the LP); the counting bound (each group
    of the split spread as evenly as the tables allow) as a floor. Solves of ``seconds`` of
    work each: first whether any seating has fewer repeats than the draw's (no: the draw's is
    the fewest, proved), then, unless that settled it, the fewest (from the best seating
    known), and if still unproved the fewest by the plain model (pair variables and the
    earlier tables' counts only, no order of tables: it settles some rounds the full one
    does not in its time); then the exhaustive search for up to 20 people."""
    from ortools.sat.python import cp_model

    people = sorted(p for g in groups for p in g)
    n, tables = len(people), range(len(sizes))
    where = {p: i for i, p in enumerate(people)}
    drawn = sum(frozenset(p) in met for g in groups for p in itertools.combinations(g, 2))
    split = met_groups(people, met)
    floor = spread_bound(split, sizes)
    if drawn <= floor:
        return drawn, True, drawn

    def model(
        bound: int, best: list[list[int]], plain: bool = False
    ) -> tuple[Any, Any, list[list[Any]]]:
        """The model, its objective (repeats at most ``bound``) and seats, from ``best``;
        ``plain``: without the order of tables, the split and the floor (the model of the
        reference before, solved with CP-SAT's default linearisation: it proves some rounds
        the full one does not in its time)."""
        m = cp_model.CpModel()
        seat = [[m.new_bool_var("") for _ in tables] for _ in people]
        for row in seat:
            m.add_exactly_one(row)
        for t in tables:
            m.add(sum(seat[i][t] for i in range(n)) == sizes[t])
            if t and sizes[t] == sizes[t - 1] and not plain:
                for i in range(n):
                    m.add_bool_or([seat[i][t].Not(), *(seat[j][t - 1] for j in range(i))])
        again = {}
        for i, j in itertools.combinations(range(n), 2):
            if frozenset((people[i], people[j])) in met:
                again[i, j] = m.new_bool_var("")
                for t in tables:
                    m.add_bool_or([seat[i][t].Not(), seat[j][t].Not(), again[i, j]])
        repeats = sum(again.values())
        split_counts = []
        for exact, group in [(True, g) for g in split if not plain] + [(False, g) for g in earlier]:
            members = sorted(where[p] for p in group if p in where)
            if len(members) < 2 + (not exact):
                continue
            counts = []
            for t in tables:
                most = min(len(members), sizes[t])
                if most < 2:
                    continue
                together = m.new_int_var(0, most, "")
                m.add(together == sum(seat[i][t] for i in members))
                count = m.new_int_var(0, most * (most - 1) // 2, "")
                if exact:
                    m.add_element(together, [k * (k - 1) // 2 for k in range(most + 1)], count)
                for k in range(1, most):
                    m.add(count >= k * together - k * (k + 1) // 2)
                counts.append(count)
            m.add(sum(again[pair] for pair in itertools.combinations(members, 2)) >= sum(counts))
            if exact:
                split_counts += counts
        m.add(repeats >= sum(split_counts))  # the split's pairs are all the pairs who met
        if not plain:
            m.add(repeats >= floor)
        m.add(repeats <= bound)
        ordered = sorted(best, key=lambda g: (-len(g), min(where[p] for p in g)))
        table_of = {where[p]: t for t, g in enumerate(ordered) for p in g}
        for i in range(n):
            for t in tables:
                m.add_hint(seat[i][t], table_of[i] == t)
        return m, repeats, seat

    def solve(m: Any, plain: bool = False) -> tuple[Any, Any]:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        # A fixed amount of work, so a busy machine gives the same answers, only later; the
        # clock is a safety net.
        solver.parameters.max_deterministic_time = seconds
        solver.parameters.max_time_in_seconds = 10 * seconds
        solver.parameters.linearization_level = 1 if plain else 2  # 2: the tangents in the LP
        return solver.solve(m), solver

    def seated(solver: Any, seat: list[list[Any]]) -> list[list[int]]:
        return [[people[i] for i in range(n) if solver.boolean_value(seat[i][t])] for t in tables]

    # Is there a seating with fewer repeats than the draw's?
    m, repeats, seat = model(drawn - 1, groups)
    status, solver = solve(m)
    if status == cp_model.INFEASIBLE:
        return drawn, True, drawn
    best, found = groups, drawn
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        best = seated(solver, seat)
        found = round(solver.value(repeats))
    # The fewest, from the best seating known: the full model, then the plain one.
    lowest = floor
    for plain in (False, True):
        m, repeats, seat = model(found, best, plain)
        m.minimize(repeats)
        status, solver = solve(m, plain)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) and solver.objective_value < found:
            best, found = seated(solver, seat), round(solver.objective_value)
        if status == cp_model.OPTIMAL:
            return found, True, found
        lowest = max(lowest, math.ceil(solver.best_objective_bound - 1e-6))
    exact = (
        exhaustive_fewest(groups, sizes, met, EXHAUSTIVE_NODES)
        if len(people) <= EXHAUSTIVE_PEOPLE
        else None
    )
    if exact is not None:
        return exact, True, min(found, exact)
    return lowest, False, found


def met_groups(people: list[int], met: set[frozenset[int]]) -> list[list[int]]:
    """The pairs of ``people`` who met, split into groups who all met one another, each pair
    in exactly one group: greedily, the largest group that can be found first (mostly the
    earlier tables). The same cover as `league.nights.tablemates.cliques`, kept here on
    purpose: the reference must not change with the tree it measures, and older trees (run
    with ``--tree`` or ``--baseline``) have no such function."""
    near: dict[int, set[int]] = {p: set() for p in people}
    for a, b in itertools.combinations(people, 2):
        if frozenset((a, b)) in met:
            near[a].add(b)
            near[b].add(a)
    split = []
    while any(near.values()):
        best: list[int] = []
        for first in people:
            group, candidates = [first], set(near[first])
            while candidates:
                chosen = max(sorted(candidates), key=lambda c: len(near[c] & candidates))
                group.append(chosen)
                candidates &= near[chosen]
            if len(group) > len(best):
                best = group
        split.append(sorted(best))
        for a, b in itertools.combinations(best, 2):
            near[a].discard(b)
            near[b].discard(a)
    return split


def spread_bound(split: list[list[int]], sizes: list[int]) -> int:
    """The fewest repeats of any seating, at least: each group of ``split`` (groups who all
    met, sharing no pair) spread as evenly as the tables allow, ``k`` of a group at a table
    being ``k(k-1)/2`` of its pairs."""
    total = 0
    for group in split:
        seated = [0] * len(sizes)
        for _ in group:
            t = min((t for t, s in enumerate(sizes) if seated[t] < s), key=seated.__getitem__)
            total += seated[t]
            seated[t] += 1
    return total


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
    if args.replay:
        return replay(args)
    draw = draw_module()
    saved = open(args.save_rounds, "w") if args.save_rounds else None  # noqa: SIM115
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
                sizes = sorted((len(g) for g in groups), reverse=True)
                entry = {
                    "night": night_number,
                    "round": number,
                    "people": len(entrants),
                    "seats": [low, high],
                    "sizes": sizes,
                    "tables": groups,
                    "met": sorted(sorted(pair) for pair in met),
                    "earlier": earlier,
                    "repeats": result.repeats,
                    # The draw's own word (its explanation): no seating has fewer.
                    "draw_proved": any("the fewest possible" in x for x in result.explanation),
                }
                if result.repeats and args.reference_seconds > 0:
                    fewest, proved, found = fewest_repeats(
                        groups, sizes, met, earlier, args.reference_seconds, args.reference_workers
                    )
                    entry |= {"fewest": fewest, "proved": proved, "found": found}
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
                if saved and result.repeats:
                    saved.write(json.dumps(entry) + "\n")
                    saved.flush()
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


def replay(args: argparse.Namespace) -> dict[str, Any]:
    """The reference alone on the rounds a ``--save-rounds`` file holds (no draw: each round
    as the draw seated it then), with ``--only-unsettled`` only those the run that saved them
    left unsettled (or, saved without a reference, those the draw did not prove)."""
    rounds = [json.loads(line) for line in Path(args.replay).read_text().splitlines() if line]
    if args.only_unsettled:
        rounds = [r for r in rounds if not r.get("proved", r["draw_proved"])]
    saved = open(args.save_rounds, "w") if args.save_rounds else None  # noqa: SIM115
    settled, beaten, times, lines = 0, [], [], []
    for count, entry in enumerate(rounds, start=1):
        met = {frozenset(pair) for pair in entry["met"]}
        begun = time.process_time()
        fewest, proved, found = fewest_repeats(
            entry["tables"],
            entry["sizes"],
            met,
            entry["earlier"],
            args.reference_seconds,
            args.reference_workers,
        )
        times.append(time.process_time() - begun)
        settled += proved
        where = (
            f"night {entry['night']}, round {entry['round']}, {entry['people']} people at "
            f"tables of {'+'.join(map(str, entry['sizes']))}"
        )
        line = (
            f"{where}: draw {entry['repeats']}, "
            + (f"fewest {fewest} (proved)" if proved else f"fewest {fewest} to {found}")
            + f", reference {times[-1]:.1f} s CPU"
        )
        lines.append(line)
        if entry["repeats"] > found or (proved and entry["repeats"] > fewest):
            beaten.append(line)
        if args.progress:
            print(f"{count}/{len(rounds)} {line}", file=sys.stderr, flush=True)
        if saved:
            saved.write(json.dumps(entry | {"fewest": fewest, "proved": proved, "found": found}))
            saved.write("\n")
            saved.flush()
    cpus = sorted(times) or [0.0]
    return {
        "replayed_rounds": len(rounds),
        "settled_rounds": settled,
        "unsettled_rounds": len(rounds) - settled,
        "rounds_draw_beaten": len(beaten),
        "beaten": beaten,
        "rounds": lines,
        "reference_cpu_median_s": statistics.median(cpus),
        "reference_cpu_p95_s": cpus[math.ceil(0.95 * len(cpus)) - 1],
        "reference_cpu_max_s": cpus[-1],
        "reference_cpu_total_s": sum(cpus),
    }


def report_replay(args: argparse.Namespace, f: dict[str, Any], out: TextIO = sys.stdout) -> None:
    print(f"machine: {benchlib.machine()}", file=out)
    print(
        f"{f['replayed_rounds']} rounds replayed from {args.replay} "
        f"(reference: {args.reference_seconds:g} s, {args.reference_workers} worker(s))",
        file=out,
    )
    print(
        f"  settled (minimum proved) {f['settled_rounds']}, unsettled {f['unsettled_rounds']}",
        file=out,
    )
    print(
        f"  rounds where the reference seated fewer repeats than the draw: "
        f"{f['rounds_draw_beaten']}",
        file=out,
    )
    for line in f["beaten"]:
        print(f"    {line}", file=out)
    print(
        f"  reference CPU time: median {f['reference_cpu_median_s']:.2f} s, "
        f"p95 {f['reference_cpu_p95_s']:.2f} s, slowest {f['reference_cpu_max_s']:.2f} s, "
        f"total {f['reference_cpu_total_s']:.0f} s",
        file=out,
    )
    if args.misses and out is sys.stdout:
        for line in f["rounds"]:
            print(f"  {line}", file=out)


def report(args: argparse.Namespace, f: dict[str, Any], out: TextIO = sys.stdout) -> None:
    if args.replay:
        report_replay(args, f, out)
        return
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
    parser.add_argument(
        "--reference-seconds",
        type=float,
        default=5.0,
        help="the reference's work per solve (CP-SAT's deterministic time, about seconds of a "
        "core); 0: no reference (a --save-rounds run)",
    )
    parser.add_argument(
        "--reference-workers", type=int, default=1, help="the reference's CP-SAT threads"
    )
    parser.add_argument(
        "--save-rounds",
        metavar="FILE",
        help="write every later round with a repeat (its people, tables, earlier tables, the "
        "draw's and the reference's figures) to FILE, a JSON object a line",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        help="run only the reference, on the rounds of a --save-rounds FILE",
    )
    parser.add_argument(
        "--only-unsettled",
        action="store_true",
        help="with --replay: only the rounds the saving run's reference left unsettled",
    )
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
