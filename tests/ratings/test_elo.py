"""Multiplayer Elo, checked against worked examples computed by hand (K = 32)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings.elo import Seat, is_zero_sum, rate_game, win_probability


def deltas(seats, k=32):
    return [round(c.delta, 2) for c in rate_game(seats, k)]


def test_two_equal_players_winner_takes_half_k():
    assert deltas([Seat(1, 1500, 1), Seat(2, 1500, 2)]) == [16.0, -16.0]


def test_favourite_gains_little_for_expected_win():
    # E = 1 / (1 + 10^(-200/400)) = 0.7597; 32 * (1 - 0.7597) = 7.69
    assert deltas([Seat(1, 1600, 1), Seat(2, 1400, 2)]) == [7.69, -7.69]


def test_underdog_gains_much_for_upset():
    assert deltas([Seat(1, 1600, 2), Seat(2, 1400, 1)]) == [-24.31, 24.31]


def test_tie_between_equals_changes_nothing():
    assert deltas([Seat(1, 1500, 1), Seat(2, 1500, 1)]) == [0.0, 0.0]


def test_tie_moves_unequal_ratings_towards_each_other():
    # actual 0.5, expected 0.7597: 32 * -0.2597 = -8.31
    assert deltas([Seat(1, 1600, 1), Seat(2, 1400, 1)]) == [-8.31, 8.31]


def test_three_player_game_by_hand():
    # Equal ratings: actual = (1+1)/2, (0+1)/2, 0; expected 0.5 each.
    assert deltas([Seat(1, 1500, 1), Seat(2, 1500, 2), Seat(3, 1500, 3)]) == [16.0, 0.0, -16.0]


def test_four_player_game_with_shared_first_place():
    # Ranks 1,1,3,4: actual (0.5+1+1)/3 = 0.8333 -> +10.67 each; 1/3 -> -5.33; 0 -> -16.
    changes = rate_game(
        [Seat(1, 1500, 1), Seat(2, 1500, 1), Seat(3, 1500, 3), Seat(4, 1500, 4)], 32
    )
    assert [round(c.delta, 2) for c in changes] == [10.67, 10.67, -5.33, -16.0]
    assert [round(c.actual, 4) for c in changes] == [0.8333, 0.8333, 0.3333, 0.0]
    assert [c.expected for c in changes] == [0.5, 0.5, 0.5, 0.5]


def test_winning_a_six_player_game_moves_like_winning_a_two_player_game():
    six = rate_game([Seat(i, 1500, i) for i in range(1, 7)], 32)
    two = rate_game([Seat(1, 1500, 1), Seat(2, 1500, 2)], 32)
    assert six[0].delta == pytest.approx(two[0].delta)
    assert six[-1].delta == pytest.approx(two[-1].delta)


def test_five_player_mixed_ratings_by_hand():
    seats = [
        Seat(1, 1700, 2),
        Seat(2, 1500, 1),
        Seat(3, 1500, 3),
        Seat(4, 1300, 5),
        Seat(5, 1400, 4),
    ]
    changes = rate_game(seats, 40)
    # Player 2 (1500, winner): expected = mean(E vs 1700, 1500, 1300, 1400)
    e = (
        win_probability(1500, 1700)
        + 0.5
        + win_probability(1500, 1300)
        + win_probability(1500, 1400)
    ) / 4
    assert changes[1].expected == pytest.approx(e)
    assert changes[1].actual == 1.0
    assert changes[1].delta == pytest.approx(40 * (1 - e))
    assert is_zero_sum(changes)


def test_a_game_needs_two_distinct_players():
    with pytest.raises(ValueError, match="at least two"):
        rate_game([Seat(1, 1500, 1)], 32)
    with pytest.raises(ValueError, match="twice"):
        rate_game([Seat(1, 1500, 1), Seat(1, 1500, 2)], 32)


@given(
    st.lists(
        st.tuples(st.floats(min_value=600, max_value=2800), st.integers(min_value=1, max_value=6)),
        min_size=2,
        max_size=6,
    ),
    st.floats(min_value=1, max_value=100),
)
def test_every_game_is_zero_sum(table, k):
    changes = rate_game([Seat(i, rating, rank) for i, (rating, rank) in enumerate(table)], k)
    assert is_zero_sum(changes)
    for change, (_, rank) in zip(changes, table, strict=True):
        if all(rank < other for j, (_, other) in enumerate(table) if j != changes.index(change)):
            assert change.delta > 0
