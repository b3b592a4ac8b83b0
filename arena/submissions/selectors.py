"""Reads about bots for pages: versions, matches, ratings over time, fault reports (owners
only), and the active versions a user may seat in a challenge or a tournament."""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from arena.common import RECENT_MATCHES, with_seats
from arena.ladders.selectors import Rate, seat_rates
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match, MatchSeat

FAULT_REPORT_MATCHES = 10


# The rating chart reads at most the last this many points per ladder; the chart thins them
# further to CHART_POINTS_DRAWN, which is plenty for a line and keeps the page light.
CHART_POINTS_PER_LADDER = 1000


CHART_POINTS_DRAWN = 80


def bot_versions(bot: Bot) -> list[BotVersion]:
    return list(bot.versions.defer("source").order_by("-number"))


def bot_ladder_rates(version: BotVersion | None) -> list[dict[str, Any]]:
    """Per ladder the version plays: rating, games, overall and per-seat win rates."""
    if version is None:
        return []
    rows = []
    for entry in (
        LadderEntry.objects.filter(version=version)
        .select_related("ladder")
        .order_by("ladder__players")
    ):
        rows.append(
            {
                "ladder": entry.ladder,
                "entry": entry,
                "overall": Rate(entry.games, entry.wins),
                "seats": seat_rates(entry.seat_record, entry.ladder.players),
            }
        )
    return rows


def _bot_seats(bot: Bot) -> QuerySet[MatchSeat]:
    # Through the bot's version ids, newest match first by id (ids grow with creation): the
    # seat index on version_id answers this without joining every match to sort by date.
    return MatchSeat.objects.filter(
        version_id__in=BotVersion.objects.filter(bot=bot).values("pk")
    ).order_by("-match_id")


def bot_matches(bot: Bot, *, limit: int = RECENT_MATCHES) -> list[Match]:
    """The bot's latest matches of every kind (validation included: it is the bot's page)."""
    ids = list(_bot_seats(bot).values_list("match_id", flat=True)[:limit])
    return list(with_seats(Match.objects.filter(pk__in=ids)).order_by("-id"))


def bot_rating_series(bot: Bot) -> list[tuple[str, list[tuple[dt.datetime, float]]]]:
    """Rating after each rated ladder match, one series per ladder (every version of the bot:
    a new version starts again from the ladder's initial rating). At most the last
    CHART_POINTS_PER_LADDER matches per ladder."""
    rows = (
        _bot_seats(bot)
        .filter(
            rating_after__isnull=False,
            match__ladder__isnull=False,
            match__finished_at__isnull=False,
        )
        .values_list("match__ladder_id", "match__finished_at", "rating_after")
    )
    ladders = dict(Ladder.objects.values_list("pk", "players"))
    points: dict[int, list[tuple[dt.datetime, float]]] = defaultdict(list)
    for ladder_id, finished_at, rating in rows[: CHART_POINTS_PER_LADDER * len(ladders)]:
        if len(points[ladder_id]) < CHART_POINTS_PER_LADDER:
            assert finished_at is not None and rating is not None  # the filter excludes nulls
            points[ladder_id].append((finished_at, rating))
    return [
        (f"{ladders[pk]} players", list(reversed(points[pk])))
        for pk in sorted(points, key=lambda pk: ladders[pk])
    ]


@dataclass(frozen=True)
class FaultReport:
    match_id: int
    finished_at: dt.datetime | None
    seat: int
    version: str
    faults: list[dict[str, Any]]
    stderr: str


def owner_fault_reports(bot: Bot, *, limit: int = FAULT_REPORT_MATCHES) -> list[FaultReport]:
    """For the bot's owner only: faults and stderr of its latest finished matches.

    Only the two parts of each log that are needed are read from the database.
    """
    seats = list(
        _bot_seats(bot)
        .filter(match__status=Match.Status.FINISHED)[:limit]
        .values_list("match_id", "match__finished_at", "seat", "version__number")
    )
    parts = {
        pk: (faults or [], stderr or [])
        for pk, faults, stderr in Match.objects.filter(pk__in=[s[0] for s in seats]).values_list(
            "pk", "log__faults", "log__stderr"
        )
    }
    reports = []
    for match_id, finished_at, seat, number in seats:
        faults, stderr = parts.get(match_id, ([], []))
        reports.append(
            FaultReport(
                match_id=match_id,
                finished_at=finished_at,
                seat=seat,
                version=f"v{number}",
                faults=faults[seat] if seat < len(faults) else [],
                stderr=(stderr[seat] or "") if seat < len(stderr) else "",
            )
        )
    return reports


def owns_bot(bot: Bot, user: Any) -> bool:
    """Whether ``user`` owns ``bot``: the owner alone sees its sources, stderr and fault texts."""
    return getattr(user, "is_authenticated", False) and bot.owner_id == user.pk


# The validation service writes "<n> fault(s) in the validation match; the first, at step <s>:
# <status> (<the bot's error text>)." and then the end of the bot's stderr.
_FAULTS_LINE = re.compile(
    r"^(\d+ fault\(s\) in the validation match; the first, at step \S+: [\w-]+)"
)


def rejection_summary(rejection: str) -> str:
    """The one line of a rejection anyone may read: how many faults and of which kind, or why
    the match could not be played, with no text that came from the bot or a worker.

    >>> rejection_summary("2 fault(s) in the validation match; the first, at step 0: crash "
    ...                   "(the bot raised ValueError: secret).\\nThe bot's stderr ended with: x")
    '2 fault(s) in the validation match; the first, at step 0: crash.'
    >>> rejection_summary("The validation match could not be played: OSError: /srv/x")
    'The validation match could not be played.'
    """
    if not rejection:
        return ""
    faults = _FAULTS_LINE.match(rejection)
    if faults:
        return f"{faults.group(1)}."
    return rejection.splitlines()[0].split(":", 1)[0].rstrip(".") + "."


@dataclass(frozen=True)
class OwnBot:
    bot: Bot
    versions: list[BotVersion]
    matches: list[Match]
    fault_reports: list[FaultReport]


def own_bots(user: Any, *, matches: int = 5, reports: int = 3) -> list[OwnBot]:
    """For the owner only: each bot's versions (with rejection reasons), latest matches and
    the faults and stderr of its latest finished matches."""
    return [
        OwnBot(
            bot=bot,
            versions=bot_versions(bot),
            matches=bot_matches(bot, limit=matches),
            fault_reports=[
                r for r in owner_fault_reports(bot, limit=reports) if r.faults or r.stderr
            ],
        )
        for bot in Bot.objects.filter(owner=user).select_related("active_version").order_by("name")
    ]


CHALLENGE_CANDIDATES = 300


def challenge_candidates(user: Any) -> list[BotVersion]:
    """Active versions a user may seat in a challenge: their own first, then everyone else's
    (the most recently uploaded first)."""
    versions = (
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
        .select_related("bot__owner")
        .defer("source")
    )
    own = list(versions.filter(bot__owner=user).order_by("bot__name", "-number"))
    others = list(versions.exclude(bot__owner=user).order_by("-created_at")[:CHALLENGE_CANDIDATES])
    return own + others
