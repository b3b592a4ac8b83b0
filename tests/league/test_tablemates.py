"""Seating with the fewest repeats (league/nights/tablemates.py): pure code, no database."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from league.nights import tablemates


def repeats(tables: list[list[int]], met: set[tuple[int, int]]) -> int:
    return sum(
        (min(a, b), max(a, b)) in met
        for table in tables
        for a, b in itertools.combinations(table, 2)
    )


def round_robin(count: int, rounds: int) -> list[list[list[int]]]:
    """The circle method: ``rounds`` rounds of pairs in which nobody meets anyone twice."""
    ring = list(range(1, count))
    played = []
    for _ in range(rounds):
        line = [0, *ring]
        played.append([[line[i], line[count - 1 - i]] for i in range(count // 2)])
        ring = ring[-1:] + ring[:-1]
    return played


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.sampled_from([2, 3, 4, 5, 6]), st.data())
def test_the_solvers_start_keeps_everyone_once_and_never_adds_repeats(tables, size, data):
    sizes = [size] * tables
    count = sum(sizes)
    pairs = list(itertools.combinations(range(count), 2))
    met = set(data.draw(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True)))
    plain = [list(range(t * size, (t + 1) * size)) for t in range(len(sizes))]
    start = tablemates.improved(plain, sorted(met), count)
    assert sorted(p for table in start for p in table) == list(range(count))
    assert [len(table) for table in start] == sizes
    assert repeats(start, met) <= repeats(plain, met)
    assert start == tablemates.improved(plain, sorted(met), count)  # the same start each time


def test_forty_people_in_pairs_after_five_rounds_meet_no_one_again():
    # Tables of two: a round without repeats is a perfect matching among those who have not
    # met, and the round robin's sixth round is one.
    played = round_robin(40, 5)
    met = {(min(a, b), max(a, b)) for round_ in played for a, b in round_}
    tables, proven = tablemates.seat(40, [2] * 20, met)
    assert repeats(tables, met) == 0 and proven
    assert sorted(p for table in tables for p in table) == list(range(40))


def test_a_round_without_repeats_is_proven_impossible_and_the_fewest_seated(monkeypatch):
    # The work limits decide, not the clock's safety net (which a loaded machine reaches
    # first: at load 14 on two cores the draw gets a fifth of a core).
    monkeypatch.setattr(tablemates, "SOLVE_SECONDS", 60.0)
    monkeypatch.setattr(tablemates, "ZERO_SECONDS", 30.0)
    # 16 people as a 4 x 4 grid met by rows, by columns and by the diagonals (r + c) mod 4:
    # a fourth round free of repeats would be a transversal of that cyclic Latin square, and
    # one of even order has none.
    grid = [[4 * r + c for c in range(4)] for r in range(4)]
    groups = [*grid, *zip(*grid, strict=True)]
    groups += [
        [4 * r + c for r in range(4) for c in range(4) if (r + c) % 4 == s] for s in range(4)
    ]
    met = {(min(a, b), max(a, b)) for g in groups for a, b in itertools.combinations(g, 2)}
    tables, proven = tablemates.seat(16, [4, 4, 4, 4], met)
    assert proven
    assert repeats(tables, met) == min_repeats_over_tables_of_four(met)


def min_repeats_over_tables_of_four(met: set[tuple[int, int]]) -> int:
    """Exhaustive over every split of 0..15 into four tables of four (2.6 million)."""
    best = [len(met)]

    def place(rest: list[int], cost: int) -> None:
        if cost >= best[0]:
            return
        if not rest:
            best[0] = cost
            return
        first, others = rest[0], rest[1:]
        for mates in itertools.combinations(others, 3):
            table = (first, *mates)
            step = sum((a, b) in met for a, b in itertools.combinations(table, 2))
            place([p for p in others if p not in mates], cost + step)

    place(list(range(16)), 0)
    return best[0]


def test_the_counting_bound_proves_a_start_the_fewest_without_a_solve(monkeypatch):
    # Two groups of three who met, at three tables of three: spread, no pair meets again
    # (bound 0); six who all met at three tables of two: at least 1 + 1 + 1 pairs.
    assert tablemates.spread_bound([[0, 1, 2], [3, 4, 5]], [3, 3, 3]) == 0
    assert tablemates.spread_bound([list(range(6))], [2, 2, 2]) == 3
    met = set(itertools.combinations(range(6), 2))
    solves = []
    solve = tablemates._solve

    def counted(*args, **kwargs):
        solves.append(args)
        return solve(*args, **kwargs)

    monkeypatch.setattr(tablemates, "_solve", counted)
    tables, proven = tablemates.seat(6, [2, 2, 2], met)
    assert proven and repeats(tables, met) == 3
    assert len(solves) == 1  # the Swiss order's only: no solve to prove the fewest
