"""Game-night table draws (league/nights/draw.py): pure code, property tests, no database."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.nights.draw import DrawError, Entrant, draw_round, table_sizes

# The games' table sizes: Cat Lady, Cat Lady with Box of Treats / Cantankerous Cats.
SIZES = [(2, 4), (2, 6), (3, 5), (4, 4), (2, 2)]


def people(count: int, **extra) -> list[Entrant]:
    return [Entrant(i, f"P{i}", rating=1600 - 7 * i, **extra) for i in range(count)]


def seatable(count: int, low: int, high: int) -> int:
    """The most people tables of low..high can seat (checked by trying every table count)."""
    best = 0
    for seated in range(count + 1):
        if any(low * t <= seated <= high * t for t in range(1, seated + 1)):
            best = seated
    return best


def repeat_free_exists(ids: list[int], sizes: list[int], met: set[frozenset]) -> bool:
    """Exhaustive: can ``ids`` fill tables of ``sizes`` with no pair that has met?"""

    def place(remaining: list[int], left: list[int]) -> bool:
        if not remaining:
            return True
        first, rest = remaining[0], remaining[1:]
        for size in set(left):
            others_left = list(left)
            others_left.remove(size)
            for others in itertools.combinations(rest, size - 1):
                group = (first, *others)
                if any(frozenset(p) in met for p in itertools.combinations(group, 2)):
                    continue
                if place([i for i in rest if i not in others], others_left):
                    return True
        return False

    return place(ids, sizes)


@given(st.integers(0, 40), st.sampled_from(SIZES))
def test_table_sizes_are_legal_as_even_as_possible_and_seat_everyone_who_can_be(count, bounds):
    low, high = bounds
    sizes = table_sizes(count, low, high)
    assert all(low <= size <= high for size in sizes)
    assert sum(sizes) == seatable(count, low, high)
    if sizes:
        assert max(sizes) - min(sizes) <= 1
        assert len(sizes) == -(-sum(sizes) // high)  # no more tables than needed


def test_eleven_people_at_cat_lady_sit_four_four_three():
    draw = draw_round(entrants=people(11), min_size=2, max_size=4, round_number=1)
    assert [len(t.players) for t in draw.tables] == [4, 4, 3]
    assert draw.sitting_out == []
    assert "tables of 4 + 4 + 3" in " ".join(draw.explanation)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 12), st.sampled_from(SIZES), st.data())
def test_later_rounds_avoid_repeat_tablemates_whenever_a_draw_without_repeats_exists(
    count, bounds, data
):
    low, high = bounds
    entrants = people(count)
    pairs = list(itertools.combinations(range(count), 2))
    met = data.draw(st.lists(st.sampled_from(pairs), max_size=len(pairs), unique=True))
    entrants = [
        Entrant(e.id, e.name, e.rating, points=data.draw(st.integers(0, 6))) for e in entrants
    ]
    sizes = table_sizes(count, low, high)
    if not sizes:
        with pytest.raises(DrawError):
            draw_round(entrants=entrants, min_size=low, max_size=high, round_number=2, met=met)
        return
    draw = draw_round(entrants=entrants, min_size=low, max_size=high, round_number=2, met=met)
    seated = [p for t in draw.tables for p in t.players]
    assert sorted(seated + draw.sitting_out) == list(range(count))  # everyone, once
    assert sorted(len(t.players) for t in draw.tables) == sorted(sizes)
    assert len(draw.sitting_out) == count - seatable(count, low, high)
    met_pairs = {frozenset(p) for p in met}
    if repeat_free_exists(sorted(seated), sizes, met_pairs):
        assert draw.repeats == 0, draw.explanation
    assert draw.repeats == sum(
        frozenset(p) in met_pairs for t in draw.tables for p in itertools.combinations(t.players, 2)
    )


def test_the_first_round_groups_by_rating_or_draws_at_random():
    by_rating = draw_round(entrants=people(8), min_size=2, max_size=4, round_number=1)
    assert [t.players for t in by_rating.tables] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    shuffled = draw_round(
        entrants=people(8), min_size=2, max_size=4, round_number=1, by_rating=False, seed=11
    )
    again = draw_round(
        entrants=people(8), min_size=2, max_size=4, round_number=1, by_rating=False, seed=11
    )
    assert shuffled.tables == again.tables  # the seed decides
    assert [t.players for t in shuffled.tables] != [t.players for t in by_rating.tables]
    assert "at random" in shuffled.explanation[0]


def test_later_rounds_seat_similar_points_together_when_nobody_has_met():
    entrants = [Entrant(i, f"P{i}", points=points) for i, points in enumerate([0, 3, 1, 2])]
    draw = draw_round(entrants=entrants, min_size=2, max_size=2, round_number=2)
    assert [set(t.players) for t in draw.tables] == [{1, 3}, {0, 2}]


def test_who_starts_rotates_to_whoever_started_least_tonight():
    entrants = [Entrant(i, f"P{i}", starts=starts) for i, starts in enumerate([2, 1, 0, 1])]
    draw = draw_round(entrants=entrants, min_size=4, max_size=4, round_number=2)
    table = draw.tables[0]
    assert table.starter == 2 and table.players[0] == 2
    assert "P2 starts (has not started tonight so far)" in " ".join(draw.explanation)


def test_someone_who_must_sit_out_is_whoever_sat_out_least():
    entrants = [Entrant(i, f"P{i}", sat_out=1 if i == 4 else 0) for i in range(5)]
    draw = draw_round(entrants=entrants, min_size=4, max_size=4, round_number=2)
    assert draw.sitting_out == [3]  # P4, last in the order, sat out already
    assert "sitting out: P3" in " ".join(draw.explanation)


def test_arrivals_and_departures_are_just_the_next_rounds_list():
    first = draw_round(entrants=people(6), min_size=2, max_size=4, round_number=1)
    met = [pair for t in first.tables for pair in itertools.combinations(t.players, 2)]
    later = people(7)[1:] + [Entrant(99, "Newcomer")]  # P0 left, P6 and a newcomer came
    draw = draw_round(entrants=later, min_size=2, max_size=4, round_number=2, met=met)
    assert sorted(p for t in draw.tables for p in t.players) == sorted(e.id for e in later)
    # P3, P4 and P5 shared a table and two tables cannot keep all three apart: one repeat.
    assert draw.repeats == 1


def test_bad_input_is_refused():
    with pytest.raises(DrawError, match="twice"):
        draw_round(entrants=people(3) + people(1), min_size=2, max_size=4, round_number=1)
    with pytest.raises(DrawError, match="at least 2"):
        draw_round(entrants=people(1), min_size=2, max_size=4, round_number=1)
    with pytest.raises(DrawError, match="make no sense"):
        table_sizes(5, 4, 2)


def test_a_large_night_is_drawn_quickly_with_few_repeats():
    entrants = people(40)
    met = [(i, i + 1) for i in range(0, 39)]
    draw = draw_round(entrants=entrants, min_size=2, max_size=4, round_number=2, met=met)
    assert [len(t.players) for t in draw.tables] == [4] * 10
    assert draw.repeats == 0
