"""League services on the real database: recording, backdating, editing, deleting, rebuilding."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError

from league.clubs import services
from league.models import AuditEntry, Game, Participant, PlayerRating
from league.results import checks, standings
from league.results import services as result_services
from ratings.elo import win_probability
from tests.league.conftest import log_solitaire

pytestmark = pytest.mark.django_db

D = dt.date(2026, 3, 1)


def ratings(league):
    return {r.player.name: round(r.rating, 9) for r in PlayerRating.objects.filter(league=league)}


def test_recorded_game_stores_why_each_rating_moved(league, players, users, log_game):
    game = log_game("mia", D, ("mia", 30, 5), ("ned", 22, 4))
    mia, ned = game.participants.order_by("seat")
    assert (mia.rank, ned.rank) == (1, 2)
    assert (mia.rating_before, mia.expected_score, mia.actual_score) == (1500, 0.5, 1.0)
    assert mia.rating_after == pytest.approx(1516)
    assert ned.rating_after == pytest.approx(1484)
    assert ratings(league) == {"Mia": 1516, "Ned": 1484}
    assert AuditEntry.objects.filter(
        object_type="Game", object_id=game.pk, action="create"
    ).exists()


def test_backdated_game_rebuilds_later_ratings(league, players, users, log_game):
    o, m, n = players["olive"], players["mia"], players["ned"]
    log_game("olive", D, (o, 30, 5), (m, 20, 3))
    later = log_game("olive", D + dt.timedelta(days=7), (m, 30, 5), (n, 20, 3))
    before = later.participants.get(player=m).rating_before
    log_game("olive", D - dt.timedelta(days=7), (m, 30, 5), (o, 20, 3))
    after = Participant.objects.get(game=later, player=m).rating_before
    assert before == pytest.approx(1484)
    # Now Mia beat Olive first (1516 vs 1484), then lost to her as the favourite.
    assert after == pytest.approx(1516 - 32 * win_probability(1516, 1484))
    fresh = ratings(league)
    result_services.ratings_rebuild(league=league)
    assert ratings(league) == fresh


def test_editing_a_game_reranks_and_rebuilds(league, players, users, log_game):
    o, m = players["olive"], players["mia"]
    game = log_game("olive", D, (o, 30, 5), (m, 20, 3))
    result_services.game_edit(
        game=game,
        by=users["olive"],
        participants=[
            checks.ParticipantInput(player_id=o.pk, seat=1, result={"total_vp": 10, "fed_cats": 1}),
            checks.ParticipantInput(player_id=m.pk, seat=2, result={"total_vp": 20, "fed_cats": 3}),
        ],
    )
    assert ratings(league) == {"Olive": 1484, "Mia": 1516}
    assert AuditEntry.objects.filter(action="update", object_id=game.pk).get().changes["before"]


def test_moving_a_game_later_reorders_ratings(league, players, users, log_game):
    o, m = players["olive"], players["mia"]
    first = log_game("olive", D, (o, 30, 5), (m, 20, 3))
    log_game("olive", D + dt.timedelta(days=1), (m, 30, 5), (o, 20, 3))
    result_services.game_edit(game=first, by=users["olive"], played_on=D + dt.timedelta(days=2))
    moved = Participant.objects.get(game=first, player=o)
    assert moved.rating_before == pytest.approx(1484)


def test_deleting_a_game_rebuilds_and_removes_empty_standings(league, players, users, log_game):
    o, m, n = players["olive"], players["mia"], players["ned"]
    first = log_game("olive", D, (o, 30, 5), (n, 20, 3))
    log_game("olive", D + dt.timedelta(days=1), (o, 30, 5), (m, 20, 3))
    result_services.game_delete(game=first, by=users["olive"])
    assert ratings(league) == {"Olive": 1516, "Mia": 1484}


def test_rebuild_command_checks_zero_sum(league, players, users, capsys, log_game):
    o, m, n, p = (players[k] for k in ("olive", "mia", "ned", "pat"))
    for day in range(10):
        log_game(
            "olive",
            D + dt.timedelta(days=day),
            (o, 30 - day, 5),
            (m, 20 + day, 3),
            (n, 25, 4),
            (p, 10, 1),
        )
    call_command("rebuild_ratings", "tuesday")
    out = capsys.readouterr().out
    assert "10 rated games" in out and "zero-sum OK" in out
    assert sum(
        r.rating - 1500 for r in PlayerRating.objects.filter(league=league)
    ) == pytest.approx(0)


def test_rebuild_command_refuses_unknown_league(db):
    with pytest.raises(CommandError, match="nope"):
        call_command("rebuild_ratings", "nope")


def test_nothing_is_written_when_a_game_is_refused(league, players, users, log_game):
    with pytest.raises(ValidationError) as caught:
        log_game("olive", D, ("olive", 30, 5), ("quinn", 20, 3))
    assert "participants.1.player" in caught.value.message_dict
    assert not Game.objects.exists() and not Participant.objects.exists()


def test_future_dates_are_refused(league, players, users, log_game):
    with pytest.raises(ValidationError) as caught:
        log_game("olive", dt.date(2999, 1, 1), ("olive", 3, 1), ("mia", 2, 1))
    assert "played_on" in caught.value.message_dict


def test_standings_show_provisional_trend_and_placement(league, players, users, log_game):
    o, m = players["olive"], players["mia"]
    for day in range(6):
        log_game("olive", D + dt.timedelta(days=day), (o, 30, 5), (m, 20, 3))
    rows = standings.standings(league=league)
    assert [r.player_name for r in rows] == ["Olive", "Mia"]
    top = rows[0]
    assert (top.games_played, top.wins, top.average_placement, top.provisional) == (
        6,
        6,
        1.0,
        False,
    )
    first_five = Participant.objects.filter(player=o).order_by("game__played_on")
    assert top.trend == pytest.approx(top.rating - first_five[1].rating_before)


def test_season_standings_cover_only_their_games(league, players, users, log_game):
    o, m = players["olive"], players["mia"]
    log_game("olive", D, (o, 30, 5), (m, 20, 3))
    season = services.season_create(
        league=league,
        name="Spring",
        starts_on=D + dt.timedelta(days=1),
        ends_on=D + dt.timedelta(days=60),
        by=users["olive"],
    )
    log_game("olive", D + dt.timedelta(days=2), (m, 30, 5), (o, 20, 3))
    rows = standings.standings(league=league, season=season)
    mia = next(r for r in rows if r.player_name == "Mia")
    assert (mia.position, mia.games_played, mia.wins) == (1, 1, 1)
    assert mia.trend == pytest.approx(mia.rating - 1484)


def test_overlapping_seasons_refused(league, users):
    services.season_create(
        league=league, name="A", starts_on=D, ends_on=D + dt.timedelta(days=9), by=users["olive"]
    )
    with pytest.raises(ValidationError) as caught:
        services.season_create(
            league=league,
            name="B",
            starts_on=D + dt.timedelta(days=5),
            ends_on=D + dt.timedelta(days=20),
            by=users["olive"],
        )
    assert "starts_on" in caught.value.message_dict


def test_last_organiser_cannot_leave(league, users):
    membership = league.memberships.get(role="organiser")
    with pytest.raises(ValidationError):
        services.member_remove(membership=membership, by=users["olive"])


def test_unrated_solitaire_counts_games_but_not_rating(league, players, users):
    log_solitaire(league, users, D, players["mia"], 40, 35)
    standing = PlayerRating.objects.get(league=league, player=players["mia"])
    assert (standing.rating, standing.games_played, standing.rated_games, standing.wins) == (
        1500,
        1,
        0,
        1,
    )
