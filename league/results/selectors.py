"""Reads of games that pages and the API share: a league's or player's games, rating
history, head to head, and the results that wait for confirmation."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import (
    Count,
    Exists,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Value,
)
from django.db.models.functions import Coalesce

from league.models import (
    Game,
    GameConfirmation,
    GameDispute,
    League,
    Membership,
    Participant,
    Player,
    PlayerRating,
    Season,
    play_order,
)
from league.results.standings import PLAY_ORDER_ASC, PLAY_ORDER_DESC, StandingRow, standings

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


def rating_history(*, player: Player, league: League | None = None) -> QuerySet[Participant]:
    """A player's rated games, oldest first, with ratings before/after and expected vs actual."""
    queryset = Participant.objects.filter(
        player=player, game__rated=True, rating_after__isnull=False
    ).select_related("game", "game__league")
    if league is not None:
        queryset = queryset.filter(game__league=league)
    return queryset.order_by("game__league_id", *PLAY_ORDER_ASC)


def games_for(*, league: League | None = None, player: Player | None = None) -> QuerySet[Game]:
    queryset = Game.objects.select_related("league", "season", "logged_by").prefetch_related(
        "participants__player"
    )
    if league is not None:
        queryset = queryset.filter(league=league)
    if player is not None:
        queryset = queryset.filter(participants__player=player)
    return queryset.order_by(*_NEWEST_FIRST)


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


# Newest first: exactly the reverse of the play order (`GameQuerySet.in_play_order`). On
# PostgreSQL the league_game_newest_first index (migration 0002) holds this order, so a page of
# a league's games is an index scan even with 100,000 games.
_NEWEST_FIRST = play_order(newest_first=True)


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
        .order_by(*PLAY_ORDER_DESC)
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


# --- the league list -----------------------------------------------------------------------


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


# --- confirmation ---------------------------------------------------------------------------


_WAITING_FOR_PARTICIPANTS = (League.Confirmation.ANOTHER, League.Confirmation.ALL)


def _waiting_for_q(user: User) -> Q:
    """The pending games that wait for `user`: one they played as a current member, did not log
    and have not confirmed, where participants confirm; or one of a league they organise that
    waits for an organiser (the league's rule, or nobody else at the table could confirm)."""
    member_here = Membership.objects.filter(league=OuterRef("league"), player__user=user)
    played = Participant.objects.filter(game=OuterRef("pk"), player__user=user)
    confirmed = GameConfirmation.objects.filter(game=OuterRef("pk"), user=user)
    someone_else_confirms = Participant.objects.filter(
        game=OuterRef("pk"),
        player__user__isnull=False,
        player__memberships__league=OuterRef("league"),
    ).exclude(player__user=Coalesce(OuterRef("logged_by"), Value(0)))
    as_player = (
        Q(league__confirmation__in=_WAITING_FOR_PARTICIPANTS)
        & Exists(played)
        & Exists(member_here)
        & ~Q(logged_by=user)
        & ~Exists(confirmed)
    )
    as_organiser = Exists(member_here.filter(role=Membership.Role.ORGANISER)) & (
        Q(league__confirmation=League.Confirmation.ORGANISER) | ~Exists(someone_else_confirms)
    )
    return Q(status=Game.Status.PENDING) & (as_player | as_organiser)


def _to_settle_q(user: User) -> Q:
    """The games of a league `user` organises with a dispute nobody has settled yet."""
    organiser_here = Membership.objects.filter(
        league=OuterRef("league"), player__user=user, role=Membership.Role.ORGANISER
    )
    open_dispute = GameDispute.objects.filter(game=OuterRef("pk"), resolved_at__isnull=True)
    return Exists(organiser_here) & Exists(open_dispute)


def to_settle(*, user: User | AnonymousUser) -> list[Game]:
    """Disputed games this user settles as an organiser (`_to_settle_q`), oldest first."""
    if not user.is_authenticated:
        return []
    return list(_with_table(Game.objects.filter(_to_settle_q(user))).order_by(*play_order()))


def waiting_for(*, user: User | AnonymousUser) -> list[Game]:
    """Games waiting for this user's confirmation (`_waiting_for_q`), oldest first."""
    if not user.is_authenticated:
        return []
    return list(_with_table(Game.objects.filter(_waiting_for_q(user))).order_by(*play_order()))


def waiting_count(*, user: User | AnonymousUser) -> int:
    """How many games wait for this user: to confirm, or (an organiser) a dispute to settle.
    One query, for every page's menu."""
    if not user.is_authenticated:
        return 0
    return Game.objects.filter(_waiting_for_q(user) | _to_settle_q(user)).count()


def open_disputes(*, leagues: QuerySet[League] | list[League]) -> list[GameDispute]:
    """Unresolved disputes of these leagues, oldest first (the organisers settle them)."""
    return list(
        GameDispute.objects.filter(league__in=leagues, resolved_at__isnull=True)
        .select_related("game", "league", "raised_by")
        .order_by("raised_at", "id")
    )


def organised_leagues(*, user: User | AnonymousUser) -> QuerySet[League]:
    if not user.is_authenticated:
        return League.objects.none()
    if user.is_superuser:
        return League.objects.all()
    return League.objects.filter(
        memberships__player__user=user, memberships__role=Membership.Role.ORGANISER
    )


def confirmed_by(*, game: Game) -> list[str]:
    """Who has confirmed a game so far, by name."""
    return [
        c.player.name if c.player else (c.user.get_username() if c.user else "someone")
        for c in game.confirmations.select_related("player", "user")
    ]
