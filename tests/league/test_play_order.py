"""Play order is the order of play: within a day, the time of day, then a game night's round,
then the order the games were entered in. Ratings, rebuilds and every list follow it."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from league.models import Game, GameNight, Participant, PlayerRating
from league.nights import services as nights
from league.results import checks
from league.results import seating as night_seating
from league.results import selectors as result_selectors
from league.results import services as result_services
from tests.league.conftest import olive_opens_night, record

pytestmark = pytest.mark.django_db

NIGHT = dt.date(2026, 11, 20)
D = dt.date(2026, 3, 1)


def independent_elo(games, *, k=32.0, initial=1500.0):
    """Multiplayer Elo written out here, apart from the code under test: `games` are tables of
    (player id, rank) in the order they were played. Returns {(game index, player id):
    (before, after)}."""
    ratings: dict[int, float] = {}
    seen = {}
    for index, table in enumerate(games):
        before = {pid: ratings.get(pid, initial) for pid, _ in table}
        for pid, rank in table:
            others = [(o, r) for o, r in table if o != pid]
            expected = sum(1 / (1 + 10 ** ((before[o] - before[pid]) / 400)) for o, _ in others)
            actual = sum(1.0 if rank < r else 0.5 if rank == r else 0.0 for _, r in others)
            after = before[pid] + k * (actual - expected) / len(others)
            ratings[pid] = after
            seen[(index, pid)] = (before[pid], after)
    return seen


def stored_ratings(game: Game) -> dict[int, tuple[float, float]]:
    return {
        p.player_id: (p.rating_before, p.rating_after)
        for p in Participant.objects.filter(game=game)
    }


def assert_rated_as(games: list[Game]) -> None:
    """Every rating before and after of `games` is the independent Elo over them in this
    order."""
    tables = [list(g.participants.values_list("player_id", "rank")) for g in games]
    expected = independent_elo(tables)
    for index, game in enumerate(games):
        for player_id, (before, after) in stored_ratings(game).items():
            want_before, want_after = expected[(index, player_id)]
            assert before == pytest.approx(want_before), (index, player_id)
            assert after == pytest.approx(want_after), (index, player_id)


def enter_table(table, users, *, winner_seat: int):
    """Enter a night table's game through the service its result page uses: the player in
    `winner_seat` wins, the others follow in seat order."""
    ids = night_seating.table_setup(table)
    order = [winner_seat, *(s for s in range(1, len(ids) + 1) if s != winner_seat)]
    participants = [
        checks.ParticipantInput(
            player_id=pid,
            seat=seat,
            result={"total_vp": 40 - 5 * order.index(seat), "fed_cats": 3},
        )
        for seat, pid in enumerate(ids, start=1)
    ]
    return nights.table_game_record(
        table=table, logged_by=users["olive"], participants=participants, played_on=NIGHT
    )


def test_a_three_round_night_is_rated_in_round_order_and_a_rebuild_agrees(
    users, league, seven, api
):
    night = olive_opens_night(
        league, users, NIGHT, seven, rounds=3, first_round=GameNight.FirstRound.RANDOM, seed=11
    )
    played: list[Game] = []
    for number in (1, 2, 3):
        drawn = nights.round_draw(night=night, by=users["olive"])
        # The last table is entered first: the order within a round is the organiser's.
        tables = list(drawn.tables.order_by("-number"))
        games = [
            enter_table(table, users, winner_seat=1 + (number + table.number) % table.seats.count())
            for table in tables
        ]
        assert {g.night_round for g in games} == {number}
        played += games
    assert_rated_as(played)
    evening = {g.pk: stored_ratings(g) for g in played}

    result_services.ratings_rebuild(league=league, by=users["olive"])
    assert {g.pk: stored_ratings(g) for g in played} == evening

    # A correction of a round-1 game re-rates the night from its date, still round by round.
    first = played[0]
    swapped = [
        checks.ParticipantInput(
            player_id=p.player_id,
            seat=p.seat,
            result={"total_vp": 10 + p.rank, "fed_cats": 3},
        )
        for p in first.participants.order_by("seat")
    ]
    result_services.game_edit(game=first, by=users["olive"], participants=swapped)
    assert_rated_as(played)

    # Every list shows the night newest first: round 3, then 2, then 1.
    newest_first = [g.night_round for g in result_selectors.recent_games(league=league)]
    assert newest_first == sorted(newest_first, reverse=True)
    mia = seven[1]
    ids = result_selectors.player_game_ids(player=mia, leagues=[league])
    rounds = [p.game.night_round for p in result_selectors.player_game_rows(ids=ids)]
    assert rounds == [3, 2, 1]
    listed = api("mia").get(f"/api/games/?league={league.pk}&player={mia.pk}").json()["results"]
    assert [Game.objects.get(pk=g["id"]).night_round for g in listed] == [3, 2, 1]
    history = [p.game.night_round for p in result_selectors.rating_history(player=mia)]
    assert history == [1, 2, 3]


def test_untimed_games_of_one_day_are_rated_in_the_order_they_were_entered(
    league, players, users, log_game
):
    mia, ned = players["mia"], players["ned"]
    first = log_game("olive", D, (mia, 30, 5), (ned, 20, 3))
    second = log_game("olive", D, (ned, 30, 5), (mia, 20, 3))
    third = log_game("olive", D, (mia, 31, 5), (ned, 20, 3))
    assert_rated_as([first, second, third])
    result_services.ratings_rebuild(league=league)
    assert_rated_as([first, second, third])
    # A time of day comes after the untimed games of its day, whenever it was entered.
    timed = log_game("olive", D, (ned, 30, 5), (mia, 2, 1), played_time=dt.time(9))
    assert_rated_as([first, second, third, timed])


def test_a_night_round_comes_after_the_untimed_games_of_the_day_logged_on_their_own(
    users, league, seven, log_game
):
    night = olive_opens_night(league, users, NIGHT, seven, rounds=1)
    drawn = nights.round_draw(night=night, by=users["olive"])
    tables = [enter_table(t, users, winner_seat=1) for t in drawn.tables.all()]
    mia, ned = seven[1], seven[2]
    alone = log_game("olive", NIGHT, (mia, 30, 5), (ned, 20, 3))
    # Logged after the night's games, but a game outside a night has no round: it goes first.
    assert list(Game.objects.filter(league=league).in_play_order()) == [alone, *tables]
    assert_rated_as([alone, *tables])


def ratings(league):
    return {r.player.name: round(r.rating, 9) for r in PlayerRating.objects.filter(league=league)}


def test_games_with_distinct_times_give_one_result_whatever_order_they_were_logged_in(
    users, league, players
):
    o, m, n, p = (players[k] for k in ("olive", "mia", "ned", "pat"))
    games = [
        (D, dt.time(19), [(o, 30, 5), (m, 25, 4), (n, 20, 3)]),
        (D, dt.time(21), [(m, 31, 5), (p, 31, 4)]),
        (D, None, [(p, 40, 6), (o, 12, 2), (n, 12, 1), (m, 9, 1)]),
        (D + dt.timedelta(days=1), None, [(n, 33, 5), (o, 33, 5)]),
    ]
    results = []
    # No two games share a day and a time (the first day has one untimed game), so no two
    # depend on the order they were entered in: all 24 logging orders give one result.
    for order in itertools.permutations(range(len(games))):
        Game.objects.filter(league=league).delete()
        PlayerRating.objects.filter(league=league).delete()
        for index in order:
            when, time, table = games[index]
            record(league, users["olive"], when, *table, played_time=time)
        results.append(ratings(league))
    assert all(r == results[0] for r in results)
    assert len(results) == 24
