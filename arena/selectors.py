"""Reads of the arena's data for pages: ordering, win rates and who may see what live here.

Lists never load match logs (they can be tens of kilobytes each); the few reads that need a
part of a log fetch only that part.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Case, Count, Max, Prefetch, Q, QuerySet, When

import engine
from arena import services
from arena.models import (
    Bot,
    BotVersion,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
    PlayRating,
    Tournament,
)
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.contrib.auth.models import User

RECENT_MATCHES = 15
FAULT_REPORT_MATCHES = 10
# The rating chart reads at most the last this many points per ladder; the chart thins them
# further to CHART_POINTS_DRAWN, which is plenty for a line and keeps the page light.
CHART_POINTS_PER_LADDER = 1000
CHART_POINTS_DRAWN = 80


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


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    seats = MatchSeat.objects.select_related("version__bot", "player").order_by("seat")
    return matches.defer("log", "limits").prefetch_related(Prefetch("seats", queryset=seats))


def recent_matches(*, limit: int = RECENT_MATCHES, **filters: Any) -> list[Match]:
    """Finished matches, newest first (validation matches are the owners' business)."""
    matches = (
        Match.objects.filter(status=Match.Status.FINISHED, **filters)
        .exclude(kind=Match.Kind.VALIDATION)
        .order_by("-finished_at", "-id")
    )
    return list(_with_seats(matches)[:limit])


def live_matches(*, limit: int = RECENT_MATCHES) -> list[Match]:
    """Running matches first, then the oldest queued ones."""
    running = Match.objects.filter(status=Match.Status.RUNNING).order_by("started_at", "id")
    queued = Match.objects.filter(status=Match.Status.QUEUED).order_by("created_at", "id")
    found = list(_with_seats(running)[:limit])
    if len(found) < limit:
        found += list(_with_seats(queued)[: limit - len(found)])
    return found


def queued_count() -> int:
    return Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).count()


def tournaments(*, limit: int = 10) -> list[Tournament]:
    return list(
        Tournament.objects.annotate(entrant_count=Count("entrants", distinct=True)).order_by(
            "-created_at", "-id"
        )[:limit]
    )


# --- one bot ---------------------------------------------------------------------------------


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
    return list(_with_seats(Match.objects.filter(pk__in=ids)).order_by("-id"))


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


def owned_seats(match: Match, user: Any) -> set[int]:
    """The seats of ``match`` whose bot ``user`` owns (empty for visitors)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return {
        s.seat for s in match.seats.all() if s.version is not None and owns_bot(s.version.bot, user)
    }


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


def log_for_viewer(match: Match, user: Any) -> dict[str, Any]:
    """A match log as ``user`` may see it: stderr and fault texts only for the seats whose bot
    they own (the match page's rule); everyone sees which moves faulted and how."""
    log = match.log or {}
    owned = owned_seats(match, user)
    visible = dict(log)
    visible["stderr"] = [
        text if seat in owned else None for seat, text in enumerate(log.get("stderr") or [])
    ]
    visible["faults"] = [
        [fault if seat in owned else {**fault, "reason": None} for fault in faults]
        for seat, faults in enumerate(log.get("faults") or [])
    ]
    visible["steps"] = [
        step if step.get("seat") in owned or not step.get("reason") else {**step, "reason": None}
        for step in log.get("steps") or []
    ]
    return visible


# --- tournaments ---------------------------------------------------------------------------------


def tournament_overview(tournament: Tournament) -> dict[str, Any]:
    """The tournament page's tables: cumulative points after each regular round (rows in the
    order of the latest standings), the final table, and the places once it is over."""
    played = min(tournament.current_round, tournament.rounds)
    after_round = [
        services.tournament_standings(tournament, through_round=n) for n in range(1, played + 1)
    ]
    latest = after_round[-1] if after_round else services.tournament_standings(tournament)
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
        "final": services.tournament_final_table(tournament),
        "placings": services.tournament_placings(tournament) if finished else None,
    }


def tournament_matches_by_round(tournament: Tournament) -> dict[int, list[Match]]:
    rounds: dict[int, list[Match]] = defaultdict(list)
    for match in _with_seats(
        tournament.matches.order_by("tournament_round", "duplicate_set", "id")
    ):
        rounds[match.tournament_round or 0].append(match)
    return dict(rounds)


def matches_page(*, status: str | None = None, duplicate_set: str = "") -> QuerySet[Match]:
    matches = Match.objects.exclude(kind=Match.Kind.VALIDATION)
    if duplicate_set:
        matches = matches.filter(duplicate_set=duplicate_set)
    if status:
        matches = matches.filter(status=status)
    return _with_seats(matches.order_by("-created_at", "-id"))


def has_faults(match: Match) -> bool:
    return any(s.faults for s in match.seats.all())


# --- a user's own bots, challenges, tournament progress -------------------------------------


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


__all__ = [
    "FaultReport",
    "OwnBot",
    "RoundProgress",
    "challenge_candidates",
    "own_bots",
    "tournament_progress",
    "LadderRow",
    "LadderSummary",
    "Rate",
    "bot_ladder_rates",
    "bot_matches",
    "bot_rating_series",
    "bot_versions",
    "has_faults",
    "ladder_standings",
    "ladder_summaries",
    "live_matches",
    "log_for_viewer",
    "matches_page",
    "owned_seats",
    "owns_bot",
    "owner_fault_reports",
    "queued_count",
    "recent_matches",
    "rejection_summary",
    "seat_rates",
    "tournament_matches_by_round",
    "tournament_overview",
    "tournaments",
]


# --- live matches (people against bots) ----------------------------------------------------


def live_opponents() -> dict[str, list[tuple[str, str]]]:
    """For each game, the seats a person may fill: house bots, then every active version with
    its best ladder rating (values ``house:<game>:<name>`` and ``v:<id>``)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for game in sorted({name for name, _ in engine.registered_games()}):
        found[game] = [
            (f"house:{game}:{name}", f"House bot: {name}") for name in strategy_names(game)
        ]
    best = dict(
        LadderEntry.objects.values("version_id")
        .annotate(best=Max("rating"))
        .values_list("version_id", "best")
    )
    versions = (
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
        .select_related("bot")
        .order_by("bot__name")
    )
    for version in versions:
        rating = best.get(version.pk)
        label = f"{version} (rated {rating:.0f})" if rating is not None else f"{version} (unrated)"
        found.setdefault(version.bot.game, []).append((f"v:{version.pk}", label))
    return found


def live_games_of(user: User, *, limit: int = 20) -> list[Match]:
    """A person's live matches, unfinished first, then the newest."""
    matches = Match.objects.filter(kind=Match.Kind.LIVE, live_seats__user=user).order_by(
        Case(When(status__in=[Match.Status.QUEUED, Match.Status.RUNNING], then=0), default=1),
        "-created_at",
        "-id",
    )
    return list(_with_seats(matches)[:limit])


def play_pool(*, game: str, players: int, limit: int = 50) -> list[PlayRating]:
    """One pool's standings: people and bots on one scale, best first."""
    return list(
        PlayRating.objects.filter(game=game, players=players)
        .select_related("user", "version__bot")
        .order_by("-rating")[:limit]
    )


def play_ratings_of(
    *, user: User | None = None, versions: Iterable[BotVersion] | None = None
) -> list[PlayRating]:
    """A person's ratings against bots, or bot versions' ratings against people."""
    ratings = PlayRating.objects.select_related("user", "version__bot")
    if user is not None:
        ratings = ratings.filter(user=user)
    else:
        assert versions is not None  # callers give one of the two
        ratings = ratings.filter(version__in=versions)
    return list(ratings.order_by("game", "players"))
