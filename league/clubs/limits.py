"""What a league's settings may be (ratings, confirmation). The Elo maths itself is :mod:`ratings.elo`, shared
with the arena's ladders."""

from __future__ import annotations

# What a league may be set to. Far beyond any club's use, and far from where a rating, a K-sized
# step or 10 ** (difference / 400) stops being a finite float.
K_FACTOR_RANGE = (1.0, 100.0)
INITIAL_RATING_RANGE = (0.0, 5000.0)
# Rated games before a player's rating stops being marked provisional.
PROVISIONAL_GAMES_RANGE = (0, 1000)
# How long a result may wait for confirmation before it becomes final on its own.
CONFIRMATION_DAYS_RANGE = (1, 90)
