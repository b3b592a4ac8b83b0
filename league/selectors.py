"""Reads of the league data that pages and the API share: ordering and tie-breaks live here."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.postgres.aggregates import ArrayAgg
from django.core.cache import cache
from django.db import connection
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    FloatField,
    Func,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Sum,
    When,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import timezone

from league.models import (
    AuditEntry,
    Game,
    Invitation,
    League,
    Membership,
    Participant,
    Player,
    PlayerRating,
    Season,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

_PLAY_ORDER_ASC = (
    "game__played_on",
    F("game__played_time").asc(nulls_first=True),
    "game__content_key",
    "game__id",
)
_PLAY_ORDER_DESC = (
    "-game__played_on",
    F("game__played_time").desc(nulls_last=True),
    "-game__content_key",
    "-game__id",
)


@dataclass(frozen=True)
class StandingRow:
    position: int
    player_id: int
    player_name: str
    rating: float
    provisional: bool
    games_played: int
    wins: int
    average_placement: float | None
    trend: float
    last_played_on: dt.date | None


def _positioned(rows: Iterable[Mapping[str, Any]], league: League) -> list[StandingRow]:
    # Highest rating first; equal ratings share a position, then by name for a stable order.
    ordered = sorted(
        rows, key=lambda r: (-round(r["rating"], 6), r["player_name"].lower(), r["player_id"])
    )
    result: list[StandingRow] = []
    for index, row in enumerate(ordered):
        if result and round(result[-1].rating, 6) == round(row["rating"], 6):
            position = result[-1].position
        else:
            position = index + 1
        result.append(
            StandingRow(
                position=position,
                player_id=row["player_id"],
                player_name=row["player_name"],
                rating=row["rating"],
                provisional=row["rated_games"] < league.provisional_games,
                games_played=row["games"],
                wins=row["wins"],
                average_placement=(row["placement"] / row["games"]) if row["games"] else None,
                trend=row["trend"],
                last_played_on=row["last_played_on"],
            )
        )
    return result


# A season's standings are aggregated from its games (about 450 ms for a year of 25,000 games),
# so they are kept in the cache until the league next changes.
SEASON_STANDINGS_SECONDS = 3600


def league_version(league: League) -> int:
    """A number that changes whenever the league's games or ratings do: every service that
    writes them records an audit entry in the same transaction."""
    return (
        AuditEntry.objects.filter(league=league)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
        or 0
    )


def standings(*, league: League, season: Season | None = None) -> list[StandingRow]:
    """League standings, or one season's: rating, provisional mark, games, wins, placement, trend.

    A season's standings are cached, keyed on the league's latest change (`league_version`),
    the season's dates and the league's rating settings.
    """
    if season is not None:
        key = ":".join(
            str(part)
            for part in (
                "season-standings",
                league.pk,
                league.created_at.timestamp(),
                league.provisional_games,
                league.initial_rating,
                season.pk,
                season.starts_on,
                season.ends_on,
                league_version(league),
            )
        )
        rows: list[StandingRow] | None = cache.get(key)
        if rows is None:
            rows = _standings(league=league, season=season)
            cache.set(key, rows, SEASON_STANDINGS_SECONDS)
        return rows
    return _standings(league=league, season=None)


def _standings(*, league: League, season: Season | None) -> list[StandingRow]:
    if season is None:
        # Plain values, not model instances: a 500-player league builds its rows in a third of
        # the time.
        rows = list(
            PlayerRating.objects.filter(league=league).values(
                "player_id",
                "rating",
                "rated_games",
                "wins",
                "trend",
                "last_played_on",
                player_name=F("player__name"),
                games=F("games_played"),
                placement=F("placement_sum"),
            )
        )
        return _positioned(rows, league)
    aggregated = (
        # Only confirmed games count (a result waiting for confirmation is not rated).
        Participant.objects.filter(
            game__league=league, game__season=season, game__status=Game.Status.CONFIRMED
        )
        .values("player_id", player_name=F("player__name"))
        .annotate(
            games=Count("id"),
            rated_games=Count("id", filter=Q(rating_after__isnull=False)),
            wins=Count("id", filter=Q(rank=1)),
            placement=Sum("rank"),
            last_played_on=Max("game__played_on"),
        )
    )
    with_ends: Iterable[Mapping[str, Any]]
    if connection.vendor == "postgresql":
        ends = _season_ends_postgresql(aggregated)
        with_ends = aggregated.annotate(rating_end=ends["end"], rating_start=ends["start"])
    else:
        with_ends = _with_season_ends_by_window(aggregated, league, season)
    rated_overall = dict(
        PlayerRating.objects.filter(league=league).values_list("player_id", "rated_games")
    )
    season_rows: list[dict[str, Any]] = []
    for row in with_ends:
        r = dict(row)
        rating_end, rating_start = r.pop("rating_end"), r.pop("rating_start")
        rating = rating_end if rating_end is not None else league.initial_rating
        start = rating_start if rating_start is not None else rating
        season_rows.append(
            {
                **r,
                "rating": rating,
                "trend": rating - start,
                "rated_games": rated_overall.get(r["player_id"], 0),
            }
        )
    return _positioned(season_rows, league)


class _FirstElement(Func):
    """``(array)[1]``: the first element of an array aggregate (PostgreSQL)."""

    template = "(%(expressions)s)[1]"
    output_field = FloatField()


def _season_ends_postgresql(aggregated: Iterable[Mapping[str, Any]]) -> dict[str, Func]:
    """Each player's rating after their last rated game of the season and before their first,
    computed in the same GROUP BY as the counts: one pass over the season's rows instead of a
    second query with two window sorts (450 ms -> about 200 ms for 25,000 games)."""
    rated = Q(rating_after__isnull=False, game__rated=True)
    return {
        "end": _FirstElement(ArrayAgg("rating_after", filter=rated, order_by=_PLAY_ORDER_DESC)),
        "start": _FirstElement(ArrayAgg("rating_before", filter=rated, order_by=_PLAY_ORDER_ASC)),
    }


def _with_season_ends_by_window(
    aggregated: Iterable[Mapping[str, Any]], league: League, season: Season
) -> list[dict[str, Any]]:
    # Each player's first and last rated game of the season, in one pass with window functions
    # (a correlated subquery per player re-reads the player's season for each value).
    ranked = (
        Participant.objects.filter(
            game__league=league,
            game__season=season,
            game__rated=True,
            rating_after__isnull=False,
        )
        .order_by()
        .annotate(
            from_last=Window(RowNumber(), partition_by=F("player_id"), order_by=_PLAY_ORDER_DESC),
            from_first=Window(RowNumber(), partition_by=F("player_id"), order_by=_PLAY_ORDER_ASC),
        )
        .filter(Q(from_last=1) | Q(from_first=1))
    )
    ends: dict[int, list[float | None]] = defaultdict(lambda: [None, None])
    for player_id, from_last, from_first, rating_before, rating_after in ranked.values_list(
        "player_id", "from_last", "from_first", "rating_before", "rating_after"
    ):
        if from_last == 1:
            ends[player_id][0] = rating_after
        if from_first == 1:
            ends[player_id][1] = rating_before
    return [
        {
            **r,
            "rating_end": ends.get(r["player_id"], (None, None))[0],
            "rating_start": ends.get(r["player_id"], (None, None))[1],
        }
        for r in aggregated
    ]


def rating_history(*, player: Player, league: League | None = None) -> QuerySet[Participant]:
    """A player's rated games, oldest first, with ratings before/after and expected vs actual."""
    queryset = Participant.objects.filter(
        player=player, game__rated=True, rating_after__isnull=False
    ).select_related("game", "game__league")
    if league is not None:
        queryset = queryset.filter(game__league=league)
    return queryset.order_by(
        "game__league_id",
        "game__played_on",
        F("game__played_time").asc(nulls_first=True),
        "game__content_key",
        "game__id",
    )


def games_for(*, league: League | None = None, player: Player | None = None) -> QuerySet[Game]:
    queryset = Game.objects.select_related("league", "season", "logged_by").prefetch_related(
        "participants__player"
    )
    if league is not None:
        queryset = queryset.filter(league=league)
    if player is not None:
        queryset = queryset.filter(participants__player=player)
    return queryset.order_by(
        "-played_on", F("played_time").desc(nulls_last=True), "-content_key", "-id"
    )


@dataclass(frozen=True)
class HeadToHead:
    opponent_id: int
    opponent_name: str
    games: int
    ahead: int
    behind: int
    level: int

    @property
    def ahead_share(self) -> float:
        return self.ahead / self.games if self.games else 0.0


def head_to_head(
    *,
    player: Player,
    league: League | None = None,
    leagues: QuerySet[League] | list[League] | None = None,
) -> list[HeadToHead]:
    """For each opponent: games shared, and how often the player finished ahead, behind or level.

    `league` narrows to one league; `leagues` to the games of those leagues (the ones a
    visitor may see).
    """
    mine = Participant.objects.filter(player=player)
    if league is not None:
        mine = mine.filter(game__league=league)
    if leagues is not None:
        mine = mine.filter(game__league__in=leagues)
    my_ranks = dict(mine.values_list("game_id", "rank"))
    others = (
        Participant.objects.filter(game_id__in=list(my_ranks))
        .exclude(player=player)
        .values_list("game_id", "player_id", "player__name", "rank")
    )
    # opponent id -> [name, games, ahead, behind, level]
    tally: dict[int, list[Any]] = defaultdict(lambda: ["", 0, 0, 0, 0])
    for game_id, opponent_id, name, rank in others:
        row = tally[opponent_id]
        row[0] = name
        row[1] += 1
        mine_rank = my_ranks[game_id]
        if mine_rank < rank:
            row[2] += 1
        elif mine_rank > rank:
            row[3] += 1
        else:
            row[4] += 1
    return sorted(
        (
            HeadToHead(
                opponent_id=o, opponent_name=r[0], games=r[1], ahead=r[2], behind=r[3], level=r[4]
            )
            for o, r in tally.items()
        ),
        key=lambda h: (-h.games, h.opponent_name.lower()),
    )


# --- pages ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueSummary:
    league: League
    games: int
    players: int
    last_played_on: dt.date | None


def league_summaries(*, leagues: QuerySet[League]) -> list[LeagueSummary]:
    """Each league with its number of games and rated players and the last day played."""
    listed = list(leagues)
    counts = {
        row["league_id"]: row
        for row in Game.objects.filter(league__in=listed)
        .order_by()
        .values("league_id")
        .annotate(games=Count("id"), last_played_on=Max("played_on"))
    }
    players = dict(
        PlayerRating.objects.filter(league__in=listed)
        .order_by()
        .values("league_id")
        .annotate(n=Count("id"))
        .values_list("league_id", "n")
    )
    summaries = []
    for league in listed:
        count = counts.get(league.pk)  # None: no games yet
        summaries.append(
            LeagueSummary(
                league=league,
                games=count["games"] if count else 0,
                players=players.get(league.pk, 0),
                last_played_on=count["last_played_on"] if count else None,
            )
        )
    return summaries


# Newest first: exactly the reverse of the play order (`GameQuerySet.in_play_order`). On
# PostgreSQL the league_game_newest_first index (migration 0002) holds this order, so a page of
# a league's games is an index scan even with 100,000 games.
_NEWEST_FIRST = ("-played_on", F("played_time").desc(nulls_last=True), "-content_key", "-id")


def _with_table(queryset: QuerySet[Game]) -> QuerySet[Game]:
    participants = Participant.objects.select_related("player").order_by("rank", "seat")
    return queryset.select_related("league", "season").prefetch_related(
        Prefetch("participants", queryset=participants)
    )


def recent_games(*, league: League, season: Season | None = None) -> QuerySet[Game]:
    """A league's games (or one season's), newest first, with their players in finishing order.

    Paginate or slice it: the participants are prefetched for the games of the page only.
    """
    queryset = Game.objects.filter(league=league)
    if season is not None:
        queryset = queryset.filter(season=season)
    return _with_table(queryset.order_by(*_NEWEST_FIRST))


def latest_games(*, leagues: QuerySet[League] | list[League], limit: int) -> list[Game]:
    """The `limit` newest games across several leagues (the home page), newest first.

    Each league's newest games come from its own index scan, then the few candidates are merged:
    one sort over every league's games would read them all.
    """
    candidates: list[int] = []
    for league in leagues:
        candidates += (
            Game.objects.filter(league=league)
            .order_by(*_NEWEST_FIRST)
            .values_list("pk", flat=True)[:limit]
        )
    return list(
        _with_table(Game.objects.filter(pk__in=candidates).order_by(*_NEWEST_FIRST))[:limit]
    )


def game_detail(*, game_id: int) -> Game | None:
    """One game with its league, season, who logged it (with their player, whose name the page
    shows) and participants in finishing order (then seat)."""
    participants = Participant.objects.select_related("player").order_by("rank", "seat")
    return (
        Game.objects.select_related("league", "season", "logged_by__player")
        .prefetch_related(Prefetch("participants", queryset=participants))
        .filter(pk=game_id)
        .first()
    )


def visible_players(*, user: User | AnonymousUser) -> QuerySet[Player]:
    """The players `user` may see: themselves, and whoever plays in or belongs to a league the
    user may see (the rule of the player page: someone only in private leagues stays hidden)."""
    leagues = League.objects.visible_to(user)
    played = Participant.objects.filter(player=OuterRef("pk"), game__league__in=leagues)
    member = Membership.objects.filter(player=OuterRef("pk"), league__in=leagues)
    mine = Q(user=user) if getattr(user, "is_authenticated", False) else Q(pk__in=[])
    return Player.objects.filter(mine | Exists(played) | Exists(member))


def player_leagues(*, player: Player, leagues: QuerySet[League]) -> list[League]:
    """The leagues among `leagues` where the player has played or is a member, by name."""
    played = Participant.objects.filter(player=player, game__league=OuterRef("pk"))
    member = Membership.objects.filter(player=player, league=OuterRef("pk"))
    return list(leagues.filter(Exists(played) | Exists(member)).order_by("name"))


@dataclass(frozen=True)
class PlayerStanding:
    league: League
    row: StandingRow
    of: int  # players in the standings


def player_standings(*, player: Player, leagues: list[League]) -> list[PlayerStanding]:
    """The player's line of each league's standings (position among how many), where rated."""
    result = []
    for league in leagues:
        rows = standings(league=league)
        mine = next((r for r in rows if r.player_id == player.pk), None)
        if mine is not None:
            result.append(PlayerStanding(league=league, row=mine, of=len(rows)))
    return result


def player_game_ids(*, player: Player, leagues: QuerySet[League] | list[League]) -> list[int]:
    """The ids of the player's participations in these leagues, newest game first.

    All of them (a few hundred at most for a very active player): paginate this list, then load
    a page with `player_game_rows`. Asking the database for one page with LIMIT/OFFSET makes it
    walk the league's games newest first and probe each for the player (70,000 probes for page
    10 of a 100,000-game league); the player's own rows sort in a few milliseconds.
    """
    return list(
        Participant.objects.filter(player=player, game__league__in=leagues)
        .order_by(*_PLAY_ORDER_DESC)
        .values_list("pk", flat=True)
    )


def player_game_rows(*, ids: list[int]) -> list[Participant]:
    """These participations, in the given order, each with its game, league and the game's
    players in finishing order (three queries)."""
    table = Participant.objects.select_related("player").order_by("rank", "seat")
    rows = (
        Participant.objects.filter(pk__in=ids)
        .select_related("game", "game__league")
        .prefetch_related(Prefetch("game__participants", queryset=table))
    )
    by_id = {row.pk: row for row in rows}
    return [by_id[pk] for pk in ids if pk in by_id]


# --- club management ------------------------------------------------------------------------


def usable_invitation(*, token: str) -> Invitation | None:
    """The invitation with this token if it can still be accepted."""
    invitation = (
        Invitation.objects.select_related("league", "player").filter(token=token).first()
        if token
        else None
    )
    if invitation is None or invitation.revoked_at is not None:
        return None
    if invitation.player_id is not None and invitation.accepted_at is not None:
        return None
    if invitation.expires_at <= timezone.now():
        return None
    return invitation


def open_invitations(*, league: League) -> list[Invitation]:
    return list(
        league.invitations.select_related("player", "created_by")
        .filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
        .exclude(player__isnull=False, accepted_at__isnull=False)
    )


def members(*, league: League) -> list[Membership]:
    """Organisers first, then by name."""
    return list(
        league.memberships.select_related("player__user")
        .annotate(
            games=Count(
                "player__participations", filter=Q(player__participations__game__league=league)
            )
        )
        .order_by(Case(When(role=Membership.Role.ORGANISER, then=0), default=1), "player__name")
    )


def audit_entries(*, league: League) -> QuerySet[AuditEntry]:
    return league.audit.select_related("user").order_by("-at", "-id")


@dataclass(frozen=True)
class UserLeague:
    league: League
    role: str
    player_name: str


def user_leagues(*, user: User) -> list[UserLeague]:
    rows = (
        Membership.objects.filter(player__user=user)
        .select_related("league", "player")
        .order_by("league__name")
    )
    return [UserLeague(league=m.league, role=m.role, player_name=m.player.name) for m in rows]
