"""Reads of tournaments for pages: the list, standings after each round, matches by round,
progress."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q

from arena.common import with_seats
from arena.models import (
    Match,
    Tournament,
)
from arena.tournaments.services import (
    tournament_final_table,
    tournament_placings,
    tournament_standings,
)


def tournaments(*, limit: int = 10) -> list[Tournament]:
    return list(
        Tournament.objects.annotate(entrant_count=Count("entrants", distinct=True)).order_by(
            "-created_at", "-id"
        )[:limit]
    )


def tournament_overview(tournament: Tournament) -> dict[str, Any]:
    """The tournament page's tables: cumulative points after each regular round (rows in the
    order of the latest standings), the final table, and the places once it is over."""
    played = min(tournament.current_round, tournament.rounds)
    after_round = [tournament_standings(tournament, through_round=n) for n in range(1, played + 1)]
    latest = after_round[-1] if after_round else tournament_standings(tournament)
    by_round = [{v.pk: p for v, p in rows} for rows in after_round]
    standings = [
        {
            "position": index + 1,
            "version": version,
            "points": points,
            "per_round": [round_points[version.pk] for round_points in by_round],
        }
        for index, (version, points) in enumerate(latest)
    ]
    finished = tournament.status == Tournament.Status.FINISHED
    return {
        "round_numbers": list(range(1, played + 1)),
        "standings": standings,
        "final": tournament_final_table(tournament),
        "placings": tournament_placings(tournament) if finished else None,
    }


def tournament_matches_by_round(tournament: Tournament) -> dict[int, list[Match]]:
    rounds: dict[int, list[Match]] = defaultdict(list)
    for match in with_seats(tournament.matches.order_by("tournament_round", "duplicate_set", "id")):
        rounds[match.tournament_round or 0].append(match)
    return dict(rounds)


@dataclass(frozen=True)
class RoundProgress:
    number: int
    label: str
    finished: int
    total: int

    @property
    def done(self) -> bool:
        return self.finished == self.total


def tournament_progress(tournament: Tournament) -> list[RoundProgress]:
    """Per round started so far: matches finished (or failed) out of all."""
    rows = (
        tournament.matches.values("tournament_round")
        .annotate(
            total=Count("id"),
            finished=Count("id", filter=Q(status__in=[Match.Status.FINISHED, Match.Status.FAILED])),
        )
        .order_by("tournament_round")
    )
    return [
        RoundProgress(
            number=row["tournament_round"] or 0,
            label="Final table"
            if row["tournament_round"] == tournament.final_round
            else f"Round {row['tournament_round']}",
            finished=row["finished"],
            total=row["total"],
        )
        for row in rows
    ]
