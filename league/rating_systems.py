"""The rating systems a league can choose, as small strategy objects (pure code, no ORM).

Each system turns one game (every player's skill going in, and their rank) into each player's
skill coming out, with the two numbers the game page explains: `expected`, the share of the
pairwise results the system predicted for the player, and `actual`, the share they got (1 for
each opponent finished ahead of, ½ for each level, 0 behind). `league.results.ratings` stores
what a system returns and never asks which system it is.

- **Elo** (the default): `ratings.elo`'s multiplayer Elo. A skill is one number.
- **OpenSkill**: the Weng-Lin Bayesian rating with the Plackett-Luce model, computed by the
  `openskill` library (https://openskill.me). A skill is a mean μ and an uncertainty σ; the
  rating shown (and ranked on) is the conservative μ − 3σ, which starts at 0 and rises as
  the system grows sure of a player. Its `expected` is the mean over opponents of the
  library's `predict_win` for the pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from openskill.models import PlackettLuce

from ratings.elo import Seat, rate_game

ELO = "elo"
OPENSKILL = "openskill"
SYSTEM_CHOICES = [
    (ELO, "Multiplayer Elo"),
    (OPENSKILL, "OpenSkill (Weng-Lin, Plackett-Luce)"),
]
# The conservative rating is μ minus this many σ.
CONSERVATIVE_SIGMAS = 3.0


@dataclass(frozen=True)
class Skill:
    """What a system knows of a player going into (or out of) a game."""

    rating: float  # the number shown and ranked on
    mu: float | None = None
    sigma: float | None = None


@dataclass(frozen=True)
class Rated:
    player_id: int
    before: Skill
    after: Skill
    expected: float
    actual: float

    @property
    def delta(self) -> float:
        return self.after.rating - self.before.rating


class RatingSystem(Protocol):
    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...

    @property
    def zero_sum(self) -> bool:
        """Whether the rating changes of one game add up to zero (a rebuild checks it)."""
        ...

    def initial(self) -> Skill: ...

    def skill(self, rating: float, mu: float | None, sigma: float | None) -> Skill:
        """A stored skill read back (the columns `league.results.ratings` writes)."""
        ...

    def rate(self, seats: Sequence[tuple[int, Skill, int]]) -> list[Rated]:
        """(player id, skill, rank) in seat order -> each player's change, same order."""
        ...


def _actual_shares(ranks: Sequence[int]) -> list[float]:
    """Each player's share of the pairwise results: 1 ahead, ½ level, 0 behind.

    >>> _actual_shares([1, 2, 2])
    [1.0, 0.25, 0.25]
    """
    opponents = len(ranks) - 1
    return [
        sum(
            1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            for other, theirs in enumerate(ranks)
            if other != index
        )
        / opponents
        for index, mine in enumerate(ranks)
    ]


def _check_table(seats: Sequence[tuple[int, Skill, int]]) -> None:
    if len(seats) < 2:
        raise ValueError("a rated game needs at least two players")
    if len({player_id for player_id, _, _ in seats}) != len(seats):
        raise ValueError("a player appears twice in one game")


@dataclass(frozen=True)
class Elo:
    """`ratings.elo.rate_game` with the league's K factor and starting rating."""

    k_factor: float = 32.0
    initial_rating: float = 1500.0
    key: str = ELO
    label: str = "Multiplayer Elo"
    zero_sum: bool = True

    def initial(self) -> Skill:
        return Skill(rating=self.initial_rating)

    def skill(self, rating: float, mu: float | None, sigma: float | None) -> Skill:
        return Skill(rating=rating)

    def rate(self, seats: Sequence[tuple[int, Skill, int]]) -> list[Rated]:
        changes = rate_game(
            [Seat(player_id, skill.rating, rank) for player_id, skill, rank in seats],
            self.k_factor,
        )
        return [
            Rated(
                player_id=c.player_id,
                before=Skill(rating=c.rating_before),
                after=Skill(rating=c.rating_after),
                expected=c.expected,
                actual=c.actual,
            )
            for c in changes
        ]


_MODEL = PlackettLuce()


def conservative(mu: float, sigma: float) -> float:
    """μ − 3σ: a rating the player is very likely to be above.

    >>> conservative(25.0, 25.0 / 3)
    0.0
    """
    return mu - CONSERVATIVE_SIGMAS * sigma


@dataclass(frozen=True)
class OpenSkill:
    """Weng-Lin with the Plackett-Luce model, with the library's defaults (μ 25, σ 25/3)."""

    key: str = OPENSKILL
    label: str = "OpenSkill (Weng-Lin, Plackett-Luce)"
    zero_sum: bool = False

    def initial(self) -> Skill:
        return self._skill(_MODEL.mu, _MODEL.sigma)

    def skill(self, rating: float, mu: float | None, sigma: float | None) -> Skill:
        if mu is None or sigma is None:
            # A game rated under Elo before the league switched: a rebuild replaces it.
            return self.initial()
        return self._skill(mu, sigma)

    @staticmethod
    def _skill(mu: float, sigma: float) -> Skill:
        return Skill(rating=conservative(mu, sigma), mu=mu, sigma=sigma)

    def rate(self, seats: Sequence[tuple[int, Skill, int]]) -> list[Rated]:
        _check_table(seats)
        before = [self.skill(s.rating, s.mu, s.sigma) for _, s, _ in seats]
        teams = [[_MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
        ranks = [rank for _, _, rank in seats]
        after = _MODEL.rate(teams, ranks=[float(r) for r in ranks])
        actual = _actual_shares(ranks)
        # Each pair once: the library's two chances of a pair add up to 1.
        chances = [0.0] * len(seats)
        for index in range(len(seats)):
            for other in range(index + 1, len(seats)):
                mine, theirs = _MODEL.predict_win([teams[index], teams[other]])
                chances[index] += mine
                chances[other] += theirs
        rated = []
        for index, (player_id, _, _) in enumerate(seats):
            new = after[index][0]
            if not (math.isfinite(new.mu) and math.isfinite(new.sigma)):
                raise ValueError(f"OpenSkill gave a rating that is not a finite number: {new!r}")
            expected = chances[index] / (len(seats) - 1)
            rated.append(
                Rated(
                    player_id=player_id,
                    before=before[index],
                    after=self._skill(new.mu, new.sigma),
                    expected=expected,
                    actual=actual[index],
                )
            )
        return rated


def system_for(key: str, *, k_factor: float = 32.0, initial_rating: float = 1500.0) -> RatingSystem:
    """The system a league chose (its Elo settings are used by Elo only)."""
    if key == OPENSKILL:
        return OpenSkill()
    if key == ELO:
        return Elo(k_factor=k_factor, initial_rating=initial_rating)
    raise ValueError(f"unknown rating system {key!r}; known: {ELO}, {OPENSKILL}")
