"""Confirmation through the API: every refusal is 403 `permission_denied` in the one error
shape; organisers confirm a list of games or a whole night at once, all or nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from league.clubs import services
from league.models import Game, League, Player
from league.results import confirmation
from tests.league.conftest import (
    another_confirms,
    mia_logs_a_night_of_two_rounds,
    record,
)

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)


@pytest.fixture
def waiting(users, league, players, log_game):
    """Mia logged a game with Ned and Pat; the league asks another participant to confirm."""
    another_confirms(league)
    return log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3), ("pat", 10, 1))


def refused(response, detail: str) -> None:
    assert response.status_code == 403, response.json()
    assert response.json() == {"error": "permission_denied", "detail": detail}


NOT_YOURS = "Only the game's other participants who are members (or an organiser) confirm it."


@pytest.mark.parametrize("who", ["quinn", "vic", "olive_as_member"])
def test_whoever_did_not_play_is_refused_with_403(api, users, league, players, waiting, who):
    if who == "olive_as_member":  # a member of the league who did not play: Olive, demoted
        services.member_add(
            league=league, player=players["mia"], role="organiser", by=users["olive"]
        )
        services.member_set_role(
            membership=league.memberships.get(player=players["olive"]),
            role="member",
            by=users["mia"],
        )
        who = "olive"
    refused(api(who).post(f"/api/games/{waiting.pk}/confirm/"), NOT_YOURS)
    refused(
        api(who).post(f"/api/games/{waiting.pk}/dispute/", {"reason": "Wrong"}, format="json"),
        "Only the game's participants who are members (or an organiser) dispute it.",
    )
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.PENDING and not waiting.confirmations.exists()


def test_a_removed_member_is_refused_and_the_game_is_not_rated(
    api, users, league, players, waiting
):
    services.member_remove(
        membership=league.memberships.get(player=players["ned"]), by=users["olive"]
    )
    refused(api("ned").post(f"/api/games/{waiting.pk}/confirm/"), NOT_YOURS)
    refused(
        api("ned").post(f"/api/games/{waiting.pk}/dispute/", {"reason": "Wrong"}, format="json"),
        "Only the game's participants who are members (or an organiser) dispute it.",
    )
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.PENDING
    assert all(p.rating_after is None for p in waiting.participants.all())


def test_a_second_confirmation_is_a_400_beside_the_game(api, users, league, players, waiting):
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ALL)
    assert api("ned").post(f"/api/games/{waiting.pk}/confirm/").status_code == 200
    again = api("ned").post(f"/api/games/{waiting.pk}/confirm/")
    assert again.status_code == 400
    assert again.json()["fields"] == {"game": ["You have already confirmed this game."]}


def test_the_organiser_rule_refuses_participants_with_403(api, users, league, players, log_game):
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ORGANISER)
    league.refresh_from_db()
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    refused(
        api("ned").post(f"/api/games/{game.pk}/confirm/"),
        "In this league an organiser confirms results.",
    )
    assert api("olive").post(f"/api/games/{game.pk}/confirm/").json()["status"] == "confirmed"


# --- a list at once ----------------------------------------------------------------------------


def test_an_organiser_confirms_a_list_at_once(api, users, league, players, waiting, log_game):
    second = log_game("ned", DAY, ("ned", 30, 5), ("mia", 20, 3))
    response = api("olive").post(
        "/api/games/confirm/", {"games": [second.pk, waiting.pk]}, format="json"
    )
    assert response.status_code == 200, response.json()
    assert response.json() == {"confirmed": [second.pk, waiting.pk], "disputed": []}
    assert set(Game.objects.values_list("status", flat=True)) == {"confirmed"}
    assert api("olive").get(f"/api/games/{waiting.pk}/").json()["participants"][0]["rating_after"]


def test_a_member_may_not_confirm_a_list(api, waiting):
    refused(
        api("ned").post("/api/games/confirm/", {"games": [waiting.pk]}, format="json"),
        "Only a league's organisers confirm its games together.",
    )
    assert api(None).post(
        "/api/games/confirm/", {"games": [waiting.pk]}, format="json"
    ).status_code in (401, 403)


def test_a_bad_list_is_refused_game_by_game_and_confirms_nothing(api, users, players, waiting):
    hidden = services.league_create(name="Hidden", slug="hidden", by=users["vic"], is_public=False)
    vic = Player.objects.get(user=users["vic"])
    guest = services.guest_add(league=hidden, name="Secret", by=users["vic"]).player
    secret = record(hidden, users["vic"], DAY, (vic, 10, 1), (guest, 9, 1))
    done = record(
        waiting.league, users["olive"], DAY, (players["olive"], 9, 1), (players["mia"], 8, 1)
    )
    confirmation.game_confirm(game=done, by=users["mia"])
    client = api("olive")
    for body, fields in (
        ({}, {"games": ["This field is required."]}),
        ({"games": []}, {"games": ["This list may not be empty."]}),
        ({"games": ["x"]}, {"games.0": ["A valid integer is required."]}),
        (
            {"games": [waiting.pk, secret.pk, 10**9]},
            {
                "games.1": [f"There is no game with id {secret.pk}."],
                "games.2": ["There is no game with id 1000000000."],
            },
        ),
        (
            {"games": [waiting.pk, done.pk]},
            {"games.1": ["The game of 20 Nov 2026 is already confirmed."]},
        ),
    ):
        response = client.post("/api/games/confirm/", body, format="json")
        assert response.status_code == 400, body
        assert response.json()["error"] == "validation_error"
        assert response.json()["fields"] == fields, body
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.PENDING


# --- a whole night at once ---------------------------------------------------------------------


@pytest.fixture
def night_of_two_rounds(users, league, players):
    """A night of two rounds in a league where another participant confirms; Mia entered both."""
    another_confirms(league)
    return mia_logs_a_night_of_two_rounds(league, users, players, DAY)


def test_an_organiser_confirms_a_whole_night_and_disputed_games_stay(
    api, users, night_of_two_rounds
):
    night, (first, second) = night_of_two_rounds
    confirmation.game_dispute(game=second, by=users["ned"], reason="Pat had 31")
    response = api("olive").post(f"/api/nights/{night.pk}/confirm/")
    assert response.status_code == 200, response.json()
    assert response.json() == {"confirmed": [first.pk], "disputed": [second.pk]}
    statuses = dict(Game.objects.values_list("pk", "status"))
    assert statuses == {first.pk: "confirmed", second.pk: "disputed"}
    again = api("olive").post(f"/api/nights/{night.pk}/confirm/")
    assert again.status_code == 400
    assert again.json()["fields"] == {"night": ["No game of this night waits for confirmation."]}


def test_a_member_may_not_confirm_a_night(api, night_of_two_rounds):
    night, games = night_of_two_rounds
    refused(
        api("ned").post(f"/api/nights/{night.pk}/confirm/"),
        "Only this league's organisers confirm a night's games.",
    )
    assert not Game.objects.filter(status=Game.Status.CONFIRMED).exists()
