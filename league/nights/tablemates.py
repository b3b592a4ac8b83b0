"""Seating people at tables with the fewest pairs who already met: OR-Tools' CP-SAT, pure code.

People are numbers ``0..n-1`` in the order the draw prefers (the standings); ``met`` holds the
pairs who already shared a table tonight. :func:`seat` answers the tables (lists of people,
one per size in ``sizes``) and whether no seating has fewer repeats.

Three solves, each stopped by an amount of the solver's deterministic work (the same on every
machine, so the same night gives the same draw) or, on a machine too busy to do that work in
time, by the clock:

1. **Is a round without repeats possible?** Pairs who met are kept apart outright: for every
   group of people who all met one another (mostly an earlier table), at most one of them at
   each table. This is a colouring with table capacities, which the solver settles (finds a
   seating or proves there is none) far faster than it minimises.
2. **Otherwise the fewest repeats.** Repeats are counted by those groups: ``k`` of a group at
   one table are ``k(k-1)/2`` pairs who met, each pair counted in exactly one group; the
   count is convex in ``k``, so its tangents give the solver the bound that proves a minimum.
   If the first solve proved a round without repeats impossible, the minimum is at least 1.
3. **Then the Swiss order**: with no more repeats than found, everyone as near the table the
   order gives them as can be.

Every solve starts from the best seating known so far; the first from a quick improvement of
the order's own tables by swapping people between tables (a start only: the solver decides).
Before any solve, a counting bound (:func:`spread_bound`: each group who all met spread as
evenly as the tables allow) often proves that start the fewest already, and the solves are
skipped; otherwise it is the fewest-repeats solve's floor.

>>> seat(6, [3, 3], {(0, 1), (0, 2)})  # 0 met 1 and 2: apart, the rest near the order
([[0, 4, 5], [1, 2, 3]], True)
>>> seat(6, [3, 3], {(0, 1), (0, 2), (1, 2)})  # three who all met, two tables: one pair again
([[0, 2, 5], [1, 3, 4]], True)
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

# Each solve stops after a fixed amount of the solver's deterministic work (in its own units,
# roughly a second each on a quiet core), so the same night gives the same draw on any
# machine. The clock is only a safety net for a machine so busy that the work does not fit in
# a second: SOLVE_SECONDS for the whole draw, of which the first solve may take ZERO_SECONDS
# and the last is left SWISS_SECONDS; a draw the clock cuts short may differ from one run to
# the next. Replaying 423 benchmark rounds at load average 4-5 on the 2-core machine, no draw
# took longer than 0.8 s with the work limits alone.
ZERO_WORK = 0.1
FEWEST_WORK = 0.3
SWISS_WORK = 0.05
SOLVE_SECONDS = 0.9
ZERO_SECONDS = 0.4
SWISS_SECONDS = 0.08
SOLVER_SEED = 0
# Swaps of the tabu search that gives the solver its start (about 0.1 s at 36 people).
SWAPS = 800
# How long the two people of a swap stay put, as a share of everyone: a sixth first; while
# the search ends above the lower bound, a quarter, then an eighth (on the benchmark's hard
# rounds none finds every minimum the others miss: night 65's 22 people at tables of 5-6 need
# the quarter, night 992's 32 the eighth).
RESTING = (6, 4, 8)
# If those still end above the lower bound: one longer search, vectorised (numpy: about
# 0.05 s for 1,500 swaps at 30 people, where the plain search takes a quarter of a second),
# from the order's tables, the swapped people resting an eighth of everyone. Night 134's
# round 5 (29 people at 6+6+6+6+5) needs it: 12 pairs after the short searches and the
# solves, 11 after this one.
LONG_SWAPS = 1500
LONG_RESTING = 8
FOUND = ("OPTIMAL", "FEASIBLE")  # a solve's statuses that come with a seating


@dataclass
class _Model:
    """A seating model: ``seat[p][t]`` true when person ``p`` sits at table ``t``."""

    model: cp_model.CpModel
    seat: list[list[cp_model.IntVar]]


def seat(
    count: int,
    sizes: Sequence[int],
    met: Iterable[tuple[int, int]],
    *,
    budget: float | None = None,
) -> tuple[list[list[int]], bool]:
    """Tables for people ``0..count-1`` (one list per size of ``sizes``, whose sum is
    ``count``) with the fewest pairs of ``met`` together, then the nearest the order; and
    whether that fewest is proven (False: the work or time ran out first). ``budget``: the
    clock's safety net for the whole draw, in seconds (:data:`SOLVE_SECONDS` when None)."""
    begun = time.perf_counter()
    budget = SOLVE_SECONDS if budget is None else budget  # read now: a test may lift it
    pairs = sorted({(min(a, b), max(a, b)) for a, b in met if a != b})
    groups = cliques(count, pairs)
    plain = _plain(count, sizes)
    lowest = spread_bound(groups, sizes)  # the fewest found is proven at least this
    best = improved(plain, pairs, count, target=lowest)
    fewest = _repeats(best, pairs)
    if fewest > lowest == 0:
        zero = _seating(count, sizes)
        for group in groups:
            for t in range(len(sizes)):
                zero.model.add_at_most_one(zero.seat[p][t] for p in group)
        _hint(zero, best)
        status, solver = _solve(zero, begun, ZERO_SECONDS, ZERO_WORK)
        if status in FOUND:
            best, fewest = _tables(solver, zero), 0
        elif status == "INFEASIBLE":
            lowest = 1
    if fewest > lowest:
        least = _seating(count, sizes)
        repeats = _repeat_count(least, groups, sizes)
        least.model.add(repeats >= lowest)
        least.model.minimize(repeats)
        _hint(least, best)
        status, solver = _solve(least, begun, budget - SWISS_SECONDS, FEWEST_WORK)
        if status in FOUND:
            found = _tables(solver, least)
            if _repeats(found, pairs) < fewest:
                best, fewest = found, _repeats(found, pairs)
            lowest = max(lowest, math.ceil(solver.best_objective_bound - 1e-6))
    return _swiss(count, sizes, groups, plain, best, fewest, begun, budget), fewest <= lowest


def _swiss(
    count: int,
    sizes: Sequence[int],
    groups: list[list[int]],
    plain: list[list[int]],
    best: list[list[int]],
    fewest: int,
    begun: float,
    budget: float,
) -> list[list[int]]:
    """With no more than ``fewest`` repeats, everyone as near the table the order gives them
    (the plain draw's) as can be: the sum over people of how many tables away they sit."""
    swiss = _seating(count, sizes)
    if fewest == 0:
        for group in groups:
            for t in range(len(sizes)):
                swiss.model.add_at_most_one(swiss.seat[p][t] for p in group)
    else:
        swiss.model.add(_repeat_count(swiss, groups, sizes) <= fewest)
    home = {p: t for t, table in enumerate(plain) for p in table}
    swiss.model.minimize(
        sum(abs(t - home[p]) * swiss.seat[p][t] for p in range(count) for t in range(len(sizes)))
    )
    _hint(swiss, best)
    status, solver = _solve(swiss, begun, budget, SWISS_WORK)
    if status in FOUND:
        return _tables(solver, swiss)
    return best


def _seating(count: int, sizes: Sequence[int]) -> _Model:
    """Everyone at one table, each table full; tables of one size in the order of their
    best-placed person, so the search sees each seating once."""
    from ortools.sat.python import cp_model  # see _solve

    model = cp_model.CpModel()
    tables = range(len(sizes))
    seat = [[model.new_bool_var(f"seat_{p}_{t}") for t in tables] for p in range(count)]
    for row in seat:
        model.add_exactly_one(row)
    for t in tables:
        model.add(sum(seat[p][t] for p in range(count)) == sizes[t])
    # Someone sits at a table only if someone placed higher sits at the one before it (of
    # the same size).
    for t in tables[1:]:
        if sizes[t] == sizes[t - 1]:
            for p in range(count):
                model.add_bool_or([seat[p][t].Not(), *(seat[q][t - 1] for q in range(p))])
    return _Model(model, seat)


def _repeat_count(
    seating: _Model, groups: list[list[int]], sizes: Sequence[int]
) -> cp_model.LinearExpr:
    """The pairs who met seated together: over each group who all met, and each table,
    ``k(k-1)/2`` for ``k`` of them there (bounded below by its tangents, exact at the
    minimum; groups of two are the pair itself)."""
    model, terms = seating.model, []
    for group in groups:
        for t, size in enumerate(sizes):
            most = min(len(group), size)
            if most < 2:
                continue
            together = model.new_int_var(0, most, f"of_{group[0]}_{t}")
            model.add(together == sum(seating.seat[p][t] for p in group))
            count = model.new_int_var(0, most * (most - 1) // 2, f"met_{group[0]}_{t}")
            model.add_element(together, [k * (k - 1) // 2 for k in range(most + 1)], count)
            for k in range(1, most):
                model.add(count >= k * together - k * (k + 1) // 2)
            terms.append(count)
    return sum(terms)  # type: ignore[return-value]


def _solve(
    seating: _Model, begun: float, until: float, work: float
) -> tuple[str, cp_model.CpSolver]:
    """Solve with one search thread and a fixed seed, stopping after ``work`` or ``until``
    seconds after ``begun``, whichever comes first; the status by name (``OPTIMAL``,
    ``FEASIBLE``, ``INFEASIBLE`` or ``UNKNOWN``)."""
    # Imported here, not at the top: OR-Tools imports pandas and numpy, about 0.55 s that
    # every process loading the URLs (each manage.py command, worker and web server) would
    # pay at start-up; only a draw needs it.
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SOLVER_SEED
    solver.parameters.linearization_level = 2  # the tangents, in the LP
    solver.parameters.max_time_in_seconds = max(until - (time.perf_counter() - begun), 0.01)
    solver.parameters.max_deterministic_time = work
    return solver.status_name(solver.solve(seating.model)), solver


def _hint(seating: _Model, tables: list[list[int]]) -> None:
    """Start the search from ``tables`` (put in the model's table order: sizes, largest
    first, then by their best-placed person)."""
    ordered = sorted(tables, key=lambda table: (-len(table), min(table)))
    where = {p: t for t, table in enumerate(ordered) for p in table}
    for p, row in enumerate(seating.seat):
        for t, var in enumerate(row):
            seating.model.add_hint(var, where[p] == t)


def _tables(solver: cp_model.CpSolver, seating: _Model) -> list[list[int]]:
    count, tables = len(seating.seat), len(seating.seat[0])
    return [
        [p for p in range(count) if solver.boolean_value(seating.seat[p][t])] for t in range(tables)
    ]


def _plain(count: int, sizes: Sequence[int]) -> list[list[int]]:
    """Tables in the order's sequence: the best draw when nobody has met anyone."""
    cut = list(itertools.accumulate(sizes))
    return [list(range(a, b)) for a, b in zip([0, *cut[:-1]], cut, strict=True)]


def _repeats(tables: Iterable[Sequence[int]], pairs: Sequence[tuple[int, int]]) -> int:
    known = set(pairs)
    return sum(
        (min(a, b), max(a, b)) in known
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )


def spread_bound(groups: Iterable[Sequence[int]], sizes: Sequence[int]) -> int:
    """A lower bound on the repeats of any seating at tables of ``sizes``: each group of
    people who all met one another (``groups`` share no pair) spread as evenly as the
    tables allow, ``k`` of them at a table being ``k(k-1)/2`` pairs who met (pigeonhole; the
    first person at a table adds no pair, the second one, the third two...).

    >>> spread_bound([[0, 1, 2, 3, 4]], [2, 2, 2])  # five who met, three tables: 2 + 2 + 1
    2
    >>> spread_bound([[0, 1, 2], [3, 4, 5]], [3, 3])  # each three over two tables
    2
    """
    total = 0
    for group in groups:
        seated = [0] * len(sizes)
        for _ in group:
            table = min(
                (t for t, size in enumerate(sizes) if seated[t] < size), key=seated.__getitem__
            )
            total += seated[table]
            seated[table] += 1
    return total


def improved(
    tables: list[list[int]],
    pairs: Sequence[tuple[int, int]],
    count: int,
    steps: int = SWAPS,
    target: int = 0,
) -> list[list[int]]:
    """A start for the solver: ``tables`` after ``steps`` swaps of two people at different
    tables, each time the swap that seats the fewest pairs who met (one of the people in such
    a pair moves; the two who just swapped stay put a few swaps unless that finds a new
    best); the best tables seen, as soon as they have no more than ``target`` (a lower
    bound) repeats. A tabu search: fixed steps and seed, so the same tables. If it ends
    above ``target``, it starts again from ``tables`` with the swapped people resting longer
    (:data:`RESTING`), then once more for longer (:data:`LONG_SWAPS`, vectorised), and the
    best end wins.

    >>> improved([[0, 1], [2, 3]], [(0, 1), (2, 3)], 4)
    [[0, 3], [2, 1]]
    """
    best: list[list[int]] = []
    best_cost = 0
    for share in RESTING:
        found, cost = _tabu(tables, pairs, count, steps, target, max(3, count // share))
        if not best or cost < best_cost:
            best, best_cost = found, cost
        if best_cost <= target:
            break
    if best_cost > target and LONG_SWAPS:
        found, cost = _long_tabu(tables, pairs, count, LONG_SWAPS, target, count // LONG_RESTING)
        if cost < best_cost:
            best = found
    return best


def _tabu(
    tables: list[list[int]],
    pairs: Sequence[tuple[int, int]],
    count: int,
    steps: int,
    target: int,
    rest: int,
) -> tuple[list[list[int]], int]:
    """One tabu search (see :func:`improved`): the best tables seen and their repeats; the
    two people of a swap stay put ``rest`` (to ``rest + 2``) swaps."""
    rng = random.Random(SOLVER_SEED)
    near = [[0] * count for _ in range(count)]
    for a, b in pairs:
        near[a][b] = near[b][a] = 1
    tables = [list(table) for table in tables]
    at = {p: t for t, table in enumerate(tables) for p in table}
    # met[p][t]: how many of those p met sit at table t.
    met = [[0] * len(tables) for _ in range(count)]
    for a, b in pairs:
        met[a][at[b]] += 1
        met[b][at[a]] += 1
    cost = sum(met[p][at[p]] for p in range(count)) // 2
    best, best_cost = [list(table) for table in tables], cost
    resting = [0] * count  # the step until which someone stays put
    for step in range(1, steps + 1):
        if best_cost <= target:
            break  # no seating has fewer
        chosen, chosen_rank, chosen_change, ties = (0, 0), 0, 0, 0
        for a in range(count):
            ta = at[a]
            if met[a][ta] == 0:
                continue
            for b in range(count):
                tb = at[b]
                if tb == ta:
                    continue
                change = met[a][tb] + met[b][ta] - 2 * near[a][b] - met[a][ta] - met[b][tb]
                rank = change
                if max(resting[a], resting[b]) > step and cost + change >= best_cost:
                    rank += count * count  # resting, and no new best: a last resort
                if ties == 0 or rank < chosen_rank:
                    chosen, chosen_rank, chosen_change, ties = (a, b), rank, change, 1
                elif rank == chosen_rank:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        chosen, chosen_change = (a, b), change
        if ties == 0:
            break  # one table: no swap to make
        a, b = chosen
        ta, tb = at[a], at[b]
        tables[ta][tables[ta].index(a)] = b
        tables[tb][tables[tb].index(b)] = a
        at[a], at[b] = tb, ta
        for q in range(count):
            if near[a][q]:
                met[q][ta] -= 1
                met[q][tb] += 1
            if near[b][q]:
                met[q][tb] -= 1
                met[q][ta] += 1
        cost += chosen_change
        resting[a] = resting[b] = step + rest + rng.randrange(3)
        if cost < best_cost:
            best, best_cost = [list(table) for table in tables], cost
    return best, best_cost


def _long_tabu(
    tables: list[list[int]],
    pairs: Sequence[tuple[int, int]],
    count: int,
    steps: int,
    target: int,
    rest: int,
) -> tuple[list[list[int]], int]:
    """:func:`_tabu` with numpy, each swap's change for every pair of people at once (ties
    broken by one draw among them): the best tables seen and their repeats."""
    import numpy as np  # here, not at the top, for the reason given in _solve

    rng = random.Random(SOLVER_SEED)
    near = np.zeros((count, count), dtype=np.int64)
    for a, b in pairs:
        near[a, b] = near[b, a] = 1
    at = np.zeros(count, dtype=np.int64)
    for t, table in enumerate(tables):
        at[table] = t
    everyone = np.arange(count)
    met = near @ (at[:, None] == np.arange(len(tables))).astype(np.int64)  # as in _tabu
    cost = int(met[everyone, at].sum()) // 2
    best, best_cost = at.copy(), cost
    resting = np.zeros(count, dtype=np.int64)
    apart = np.triu(np.ones((count, count), dtype=bool), 1)  # each swap once
    last = 4 * count * count  # resting, and no new best: a last resort
    for step in range(1, steps + 1):
        if best_cost <= target:
            break
        own = met[everyone, at]  # how many of those each person met sit at their table
        there = met[:, at]  # there[a, b]: those a met at b's table
        change = there + there.T - 2 * near - own[:, None] - own[None, :]
        allowed = apart & (at[:, None] != at[None, :]) & ((own[:, None] > 0) | (own[None, :] > 0))
        rests = np.maximum(resting[:, None], resting[None, :]) > step
        rank = np.where(allowed, change + last * (rests & (cost + change >= best_cost)), 4 * last)
        lowest = rank.min()
        if lowest >= 4 * last:
            break  # one table: no swap to make
        ties = np.flatnonzero(rank == lowest)
        a, b = divmod(int(ties[rng.randrange(len(ties))]), count)
        ta, tb = int(at[a]), int(at[b])
        cost += int(change[a, b])
        at[a], at[b] = tb, ta
        met[:, ta] += near[b] - near[a]
        met[:, tb] += near[a] - near[b]
        resting[a] = resting[b] = step + rest + rng.randrange(3)
        if cost < best_cost:
            best, best_cost = at.copy(), cost
    seated: list[list[int]] = [[] for _ in tables]
    for p in range(count):
        seated[int(best[p])].append(p)
    return seated, best_cost


def cliques(count: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """``pairs`` (of people ``0..count-1``) split into groups whose members all met one
    another, each pair in exactly one group: greedily, the largest group that can be found
    first (after a few rounds, mostly the earlier rounds' tables).

    >>> cliques(5, {(0, 1), (0, 2), (1, 2), (2, 3), (3, 4)})
    [[0, 1, 2], [2, 3], [3, 4]]
    """
    near: list[set[int]] = [set() for _ in range(count)]
    for a, b in pairs:
        near[a].add(b)
        near[b].add(a)
    groups = []
    while any(near):
        best: list[int] = []
        for first in range(count):
            group, candidates = [first], set(near[first])
            while candidates:
                chosen = max(sorted(candidates), key=lambda c: len(near[c] & candidates))
                group.append(chosen)
                candidates &= near[chosen]
            if len(group) > len(best):
                best = group
        groups.append(sorted(best))
        for a, b in itertools.combinations(best, 2):
            near[a].discard(b)
            near[b].discard(a)
    return groups
