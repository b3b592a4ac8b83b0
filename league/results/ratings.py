"""Apply the league's rating system (`league.rating_systems`) to stored games, in play order.

Called by `league.results.services` and `league.clubs.services` inside their transaction, with the league row locked. A game that
comes after every other rated game is rated on its own; anything else (a backdated game, an
edit, a deletion) replays every game from the affected date, starting from each player's rating
just before that date. Both paths run the same arithmetic in the same play order
(`league.models.play_order`), so a rebuild gives exactly the ratings the games got as they
were logged; games with distinct days or times of day are rated the same whatever order they
were logged in.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection
from django.db.models import F, Q, Sum, Window
from django.db.models.functions import RowNumber

from league.models import Game, League, Participant, PlayerRating, play_order
from league.rating_systems import Rated, RatingSystem, Skill, system_for

# The trend is the rating change over this many of the player's most recent rated games.
TREND_GAMES = 5

_PLAY_ORDER_ASC = play_order(through="game__")
_PLAY_ORDER_DESC = play_order(through="game__", newest_first=True)


# Only confirmed games count: a game waiting for confirmation (or disputed) is neither rated
# nor in the standings until it is confirmed, which rebuilds from its date like any backdated
# game.
_COUNTED = Q(game__status=Game.Status.CONFIRMED)


@dataclass(frozen=True)
class RebuildReport:
    games_rated: int
    players: int
    max_game_imbalance: float
    total_imbalance: float
    # Elo's changes add up to zero; OpenSkill's need not, so its rebuild checks nothing.
    zero_sum_expected: bool = True

    @property
    def zero_sum(self) -> bool:
        """The invariant holds (or the league's rating system has none)."""
        if not self.zero_sum_expected:
            return True
        return self.max_game_imbalance <= 1e-6 and self.total_imbalance <= 1e-6


def league_system(league: League) -> RatingSystem:
    return system_for(
        league.rating_system, k_factor=league.k_factor, initial_rating=league.initial_rating
    )


# What the rating pass writes on each participant of a rated game, in this order.
_UPDATE_COLUMNS = (
    "rating_before",
    "rating_after",
    "expected_score",
    "actual_score",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
)
# The values of `_UPDATE_COLUMNS`; an update is a participant's id with them.
_Values = tuple[
    float | None,
    float | None,
    float | None,
    float | None,
    float | None,
    float | None,
    float | None,
    float | None,
]
_Update = tuple[int, *_Values]


def _play_key(game: Game) -> tuple[dt.date, bool, dt.time, bool, int, int]:
    # Mirrors `play_order()`: a missing time, and a missing round, sort first.
    return (
        game.played_on,
        game.played_time is not None,
        game.played_time or dt.time(0),
        game.night_round is not None,
        game.night_round or 0,
        game.pk,
    )


def after_change(
    league: League, game: Game, *, earliest: dt.date, also_players: Iterable[int] = ()
) -> None:
    players = set(game.participants.values_list("player_id", flat=True)) | set(also_players)
    if game.rated and game.status == Game.Status.CONFIRMED:
        later = (
            league.games.filter(
                rated=True, status=Game.Status.CONFIRMED, played_on__gte=game.played_on
            )
            .exclude(pk=game.pk)
            .in_play_order()
            .last()
        )
        is_last = earliest >= game.played_on and (
            later is None or _play_key(later) < _play_key(game)
        )
        if is_last:
            # One read of these players' games serves both the rating and the standings.
            played = _games_of(league, players)
            _rate_one(league, game, played)
            refresh_standings(league, players, played=played)
            return
        rebuild_from(league, earliest, also_players=players)
        return
    refresh_standings(league, players)


def _current_ratings(
    league: League, system: RatingSystem, player_ids: Iterable[int], before: dt.date | None
) -> dict[int, Skill]:
    """Each player's rating going into `before` (or now, if None)."""
    ids = set(player_ids)
    history = Participant.objects.filter(
        game__league=league,
        game__rated=True,
        player_id__in=ids,
        rating_after__isnull=False,
    )
    if before is not None:
        history = history.filter(game__played_on__lt=before)
    # One pass with a window function, rather than a subquery per player that re-reads and
    # re-sorts the player's whole history.
    latest = (
        history.order_by()
        .annotate(
            from_last=Window(RowNumber(), partition_by=F("player_id"), order_by=_PLAY_ORDER_DESC)
        )
        .filter(from_last=1)
        .values_list("player_id", "rating_after", "mu_after", "sigma_after")
    )
    ratings = {pid: system.initial() for pid in ids}
    for player_id, last, mu, sigma in latest:
        if last is not None:
            ratings[player_id] = system.skill(last, mu, sigma)
    return ratings


@dataclass
class _Played:
    """One game of one player, as the standings need it."""

    game_id: int
    rank: int
    rated: bool
    played_on: dt.date
    rating_before: float | None
    rating_after: float | None
    mu_after: float | None = None
    sigma_after: float | None = None

    @property
    def in_history(self) -> bool:
        return self.rated and self.rating_after is not None


def _games_of(league: League, player_ids: Iterable[int]) -> dict[int, list[_Played]]:
    """Every game of these players in the league, each player's in play order."""
    rows = (
        Participant.objects.filter(game__league=league, player_id__in=set(player_ids))
        .filter(_COUNTED)
        .order_by(*_PLAY_ORDER_ASC)
        .values_list(
            "player_id",
            "game_id",
            "rank",
            "game__rated",
            "game__played_on",
            "rating_before",
            "rating_after",
            "mu_after",
            "sigma_after",
        )
    )
    played: dict[int, list[_Played]] = defaultdict(list)
    for row in rows:
        played[row[0]].append(_Played(*row[1:]))
    return played


def _rate_one(league: League, game: Game, played: dict[int, list[_Played]]) -> None:
    """Rate a game that comes after every other rated game; `played` is updated to match."""
    system = league_system(league)
    participants = list(game.participants.all())
    skills = {}
    for p in participants:
        history = [g for g in played.get(p.player_id, ()) if g.in_history]
        last = history[-1] if history else None
        skills[p.player_id] = (
            system.skill(last.rating_after, last.mu_after, last.sigma_after)
            if last is not None and last.rating_after is not None
            else system.initial()
        )
    changes = system.rate([(p.player_id, skills[p.player_id], p.rank) for p in participants])
    for participant, change in zip(participants, changes, strict=True):
        for column, value in zip(_UPDATE_COLUMNS, _values(change), strict=True):
            setattr(participant, column, value)
    Participant.objects.bulk_update(participants, list(_UPDATE_COLUMNS))
    for change in changes:
        for entry in played.get(change.player_id, ()):
            if entry.game_id == game.pk:
                entry.rating_before, entry.rating_after = change.before.rating, change.after.rating
                entry.mu_after, entry.sigma_after = change.after.mu, change.after.sigma


def rebuild_from(league: League, start: dt.date, *, also_players: Iterable[int] = ()) -> int:
    """Re-rate every game of the league played on or after `start`. Returns games rated."""
    rows = list(
        Participant.objects.filter(game__league=league, game__played_on__gte=start)
        .filter(_COUNTED)
        .order_by(*_PLAY_ORDER_ASC, "seat")
        .values_list("id", "game_id", "player_id", "rank", "game__rated")
    )
    involved = {player_id for _, _, player_id, _, _ in rows} | set(also_players)
    system = league_system(league)
    ratings = _current_ratings(league, system, involved, start)
    updates: list[_Update] = []
    games_rated = 0
    index = 0
    while index < len(rows):
        game_id = rows[index][1]
        end = index
        while end < len(rows) and rows[end][1] == game_id:
            end += 1
        table = rows[index:end]
        if table[0][4] and len(table) >= 2:
            changes = system.rate(
                [(player_id, ratings[player_id], rank) for _, _, player_id, rank, _ in table]
            )
            for (participant_id, *_), change in zip(table, changes, strict=True):
                ratings[change.player_id] = change.after
                updates.append((participant_id, *_values(change)))
            games_rated += 1
        else:
            updates.extend(
                (participant_id, None, None, None, None, None, None, None, None)
                for participant_id, *_ in table
            )
        index = end
    _write_ratings(updates)
    refresh_standings(league, involved)
    return games_rated


def _values(change: Rated) -> _Values:
    """A change as the values of `_UPDATE_COLUMNS`."""
    return (
        change.before.rating,
        change.after.rating,
        change.expected,
        change.actual,
        change.before.mu,
        change.before.sigma,
        change.after.mu,
        change.after.sigma,
    )


def _write_ratings(updates: list[_Update]) -> None:
    if not updates:
        return
    table = Participant._meta.db_table
    if connection.vendor == "postgresql":
        # COPY into a temporary table and one UPDATE ... FROM: a full rebuild writes hundreds of
        # thousands of rows, which row-by-row or CASE-based updates cannot do in seconds.
        with connection.cursor() as cursor:
            cursor.execute(
                "CREATE TEMP TABLE IF NOT EXISTS league_rating_update "
                "(id bigint, rb double precision, ra double precision, "
                "ex double precision, ac double precision, mb double precision, "
                "sb double precision, ma double precision, sa double precision) ON COMMIT DROP"
            )
            cursor.execute("TRUNCATE league_rating_update")
            raw = cursor.cursor
            with raw.copy(
                "COPY league_rating_update (id, rb, ra, ex, ac, mb, sb, ma, sa) FROM STDIN"
            ) as copy:
                for row in updates:
                    copy.write_row(row)
            cursor.execute(
                f"UPDATE {table} AS p SET rating_before = u.rb, rating_after = u.ra, "
                "expected_score = u.ex, actual_score = u.ac, mu_before = u.mb, "
                "sigma_before = u.sb, mu_after = u.ma, sigma_after = u.sa "
                "FROM league_rating_update AS u WHERE p.id = u.id"
            )
            cursor.execute("TRUNCATE league_rating_update")
        return
    objects = [
        Participant(id=pid, **dict(zip(_UPDATE_COLUMNS, values, strict=True)))
        for pid, *values in updates
    ]
    Participant.objects.bulk_update(objects, list(_UPDATE_COLUMNS), batch_size=500)


def refresh_standings(
    league: League, player_ids: Iterable[int], *, played: dict[int, list[_Played]] | None = None
) -> None:
    """Recompute the stored standing rows of these players from their games.

    `played` is `_games_of(league, player_ids)` when the caller has already read it.
    """
    ids = set(player_ids)
    if not ids:
        return
    if played is None:
        played = _games_of(league, ids)
    initial = league_system(league).initial().rating
    existing = {
        r.player_id: r for r in PlayerRating.objects.filter(league=league, player_id__in=ids)
    }
    to_create: list[PlayerRating] = []
    to_update: list[PlayerRating] = []
    seen: set[int] = set()
    for player_id in sorted(ids):
        games = played.get(player_id)
        if not games:
            continue
        seen.add(player_id)
        history = [g for g in games if g.in_history]
        rating = history[-1].rating_after if history else None
        if rating is None:
            rating = initial
        base = history[-TREND_GAMES].rating_before if len(history) >= TREND_GAMES else None
        if base is None and history:
            base = history[0].rating_before
        standing = existing.get(player_id) or PlayerRating(league=league, player_id=player_id)
        standing.rating = rating
        standing.games_played = len(games)
        standing.rated_games = len(history)
        standing.wins = sum(1 for g in games if g.rank == 1)
        standing.placement_sum = sum(g.rank for g in games)
        standing.last_played_on = max(g.played_on for g in games)
        standing.trend = rating - base if base is not None else 0.0
        (to_update if standing.pk else to_create).append(standing)
    PlayerRating.objects.bulk_create(to_create)
    PlayerRating.objects.bulk_update(
        to_update,
        [
            "rating",
            "games_played",
            "rated_games",
            "wins",
            "placement_sum",
            "last_played_on",
            "trend",
        ],
        batch_size=500,
    )
    gone = ids - seen
    if gone:
        PlayerRating.objects.filter(league=league, player_id__in=gone).delete()


def rebuild_all(league: League) -> RebuildReport:
    first = league.games.order_by("played_on").values_list("played_on", flat=True).first()
    players = set(
        Participant.objects.filter(game__league=league).values_list("player_id", flat=True)
    )
    stale = PlayerRating.objects.filter(league=league).exclude(player_id__in=players)
    stale.delete()
    games_rated = rebuild_from(league, first, also_players=players) if first else 0
    imbalance = (
        Participant.objects.filter(
            game__league=league, game__rated=True, rating_after__isnull=False
        )
        .values("game_id")
        .annotate(total=Sum(F("rating_after") - F("rating_before")))
        .values_list("total", flat=True)
    )
    max_game = max((abs(total) for total in imbalance), default=0.0)
    initial = league_system(league).initial().rating
    total = abs(sum(r - initial for r in league.ratings.values_list("rating", flat=True)))
    return RebuildReport(
        games_rated=games_rated,
        players=len(players),
        max_game_imbalance=max_game,
        total_imbalance=total,
        zero_sum_expected=league_system(league).zero_sum,
    )
