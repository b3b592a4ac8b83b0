"""Ladder standings and summaries, with overall and per-seat win rates."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count

from arena.models import (
    BotVersion,
    Ladder,
    LadderEntry,
)


@dataclass(frozen=True)
class Rate:
    """Wins out of games, with the rate as a fraction (None before any game)."""

    games: int
    wins: int

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def percent(self) -> str:
        """The rate as a whole percentage, or an en dash before any game.

        >>> Rate(4, 1).percent, Rate(0, 0).percent
        ('25%', '–')
        """
        return "–" if not self.games else f"{self.wins * 100 / self.games:.0f}%"


@dataclass(frozen=True)
class LadderRow:
    """One line of a ladder's standings, in plain values: a ladder page draws hundreds."""

    position: int
    bot_name: str
    owner: str
    version_number: int
    rating: float
    provisional: bool
    games: int
    forfeits: int
    overall: Rate
    seats: list[Rate]

    @property
    def rating_shown(self) -> int:
        return round(self.rating)


@dataclass
class LadderSummary:
    ladder: Ladder
    rows: list[LadderRow] = field(default_factory=list)
    bots: int = 0


def seat_rates(seat_record: dict[str, list[int]], players: int) -> list[Rate]:
    """Per seat (0-based, all of them) the games and wins a ladder entry recorded.

    >>> [r.rate for r in seat_rates({"0": [4, 1], "2": [2, 2]}, 3)]
    [0.25, None, 1.0]
    """
    rates = []
    for seat in range(players):
        games, wins = seat_record.get(str(seat), [0, 0])
        rates.append(Rate(games, wins))
    return rates


def ladder_standings(ladder: Ladder, *, limit: int | None = None) -> list[LadderRow]:
    """The ladder's active bot versions, best rating first; equal ratings share a position."""
    entries = (
        LadderEntry.objects.filter(ladder=ladder, version__status=BotVersion.Status.ACTIVE)
        .order_by("-rating", "version__bot__name", "version__number")
        # Plain values, not model instances: a ladder page lists hundreds of entries.
        .values_list(
            "rating",
            "games",
            "wins",
            "forfeits",
            "seat_record",
            "version__number",
            "version__bot__name",
            "version__bot__owner__username",
        )
    )
    if limit is not None:
        entries = entries[:limit]
    rows: list[LadderRow] = []
    for index, (rating, games, wins, forfeits, seat_record, number, name, owner) in enumerate(
        entries
    ):
        same = rows and round(rows[-1].rating, 6) == round(rating, 6)
        rows.append(
            LadderRow(
                position=rows[-1].position if same else index + 1,
                bot_name=name,
                owner=owner,
                version_number=number,
                rating=rating,
                provisional=games < ladder.provisional_games,
                games=games,
                forfeits=forfeits,
                overall=Rate(games, wins),
                seats=seat_rates(seat_record, ladder.players),
            )
        )
    return rows


def ladder_summaries(*, top: int = 5, with_bots_only: bool = False) -> list[LadderSummary]:
    """Each active ladder with its top bots and how many bots it ranks (only the ladders that
    rank some bot, if asked)."""
    counts = dict(
        LadderEntry.objects.filter(version__status=BotVersion.Status.ACTIVE)
        .values_list("ladder")
        .annotate(n=Count("id"))
        .values_list("ladder", "n")
    )
    return [
        LadderSummary(
            ladder=ladder,
            rows=ladder_standings(ladder, limit=top) if counts.get(ladder.pk) else [],
            bots=counts.get(ladder.pk, 0),
        )
        for ladder in Ladder.objects.filter(active=True)
        if counts.get(ladder.pk) or not with_bots_only
    ]
