"""Multiplayer Elo, as pure functions (no ORM), so the maths is tested without a database. The
league rates club games with it and the arena rates bots on its ladders.

A game of n players is read as the n(n-1)/2 pairwise results it implies: a better rank beats a
worse one, equal ranks draw (half a point each). For each player

    expected = mean over opponents of 1 / (1 + 10 ** ((R_opponent - R_player) / 400))
    actual   = mean over opponents of 1, 0.5 or 0
    delta    = K * (actual - expected)

Averaging over the n-1 opponents (rather than summing) is what scales K: a 2-player game is plain
Elo, and a 6-player game moves a rating about as much as a 2-player game would, however many
pairings it holds. Every pair contributes equal and opposite amounts, so the deltas of one game
sum to zero (up to floating-point rounding).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

ZERO_SUM_TOLERANCE = 1e-6


@dataclass(frozen=True)
class Seat:
    player_id: int
    rating: float
    rank: int


@dataclass(frozen=True)
class RatingChange:
    player_id: int
    rating_before: float
    rating_after: float
    expected: float
    actual: float

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before


def win_probability(rating: float, opponent_rating: float) -> float:
    """Elo's expected score of `rating` against `opponent_rating`.

    >>> win_probability(1500, 1500)
    0.5
    >>> round(win_probability(1900, 1500), 3)
    0.909
    """
    odds: float = 10.0 ** ((opponent_rating - rating) / 400.0)
    return 1.0 / (1.0 + odds)


def rate_game(seats: Sequence[Seat], k_factor: float) -> list[RatingChange]:
    """Rating changes for one game, in seat order.

    >>> [round(c.delta, 2) for c in rate_game([Seat(1, 1500, 1), Seat(2, 1500, 2)], 32)]
    [16.0, -16.0]
    """
    count = len(seats)
    if count < 2:
        raise ValueError("a rated game needs at least two players")
    if len({s.player_id for s in seats}) != count:
        raise ValueError("a player appears twice in one game")
    opponents = count - 1
    changes = []
    for seat in seats:
        expected = 0.0
        actual = 0.0
        for other in seats:
            if other is seat:
                continue
            expected += win_probability(seat.rating, other.rating)
            if seat.rank < other.rank:
                actual += 1.0
            elif seat.rank == other.rank:
                actual += 0.5
        expected /= opponents
        actual /= opponents
        after = seat.rating + k_factor * (actual - expected)
        if not math.isfinite(after):
            # Raised inside the write's transaction: nothing is stored that cannot be shown.
            raise ValueError(f"rating {seat.rating!r} with K {k_factor!r} is not a finite number")
        changes.append(
            RatingChange(
                player_id=seat.player_id,
                rating_before=seat.rating,
                rating_after=after,
                expected=expected,
                actual=actual,
            )
        )
    return changes


def is_zero_sum(changes: Sequence[RatingChange]) -> bool:
    return abs(sum(c.delta for c in changes)) <= ZERO_SUM_TOLERANCE
