"""The API of game nights and of confirmation: open a night, draw, read it back; a game's
status, confirm and dispute, with the one error shape for every refusal."""

from __future__ import annotations

import datetime as dt

import pytest

from league import services
from league.models import Game, GameNight, League
from tests.league.conftest import record

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)


@pytest.fixture
def night_id(api, league, players):
    response = api("olive").post(
        "/api/nights/",
        {
            "league": league.pk,
            "played_on": "2026-11-20",
            "edition": "base",
            "rounds": 2,
            "present": [players[n].pk for n in ("olive", "mia", "ned", "pat")],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_an_organiser_opens_a_night_and_draws_through_the_api(api, night_id):
    client = api("olive")
    drawn = client.post(f"/api/nights/{night_id}/draw/")
    assert drawn.status_code == 201
    body = drawn.json()
    (first,) = body["rounds"]
    assert [len(t["seats"]) for t in first["tables"]] == [4]
    assert first["tables"][0]["game"] is None
    assert first["explanation"][0].startswith("First round")
    again = client.get(f"/api/nights/{night_id}/")
    assert again.json()["rounds"] == body["rounds"]
    assert client.get("/api/nights/", {"league": body["night"]["league"]}).json()["count"] == 1


def test_members_read_nights_but_do_not_draw(api, night_id):
    response = api("mia").post(f"/api/nights/{night_id}/draw/")
    assert response.status_code == 403
    assert "organisers" in response.json()["detail"]
    assert api(None).get(f"/api/nights/{night_id}/").status_code == 200


def test_a_bad_night_is_refused_field_by_field(api, league):
    response = api("olive").post(
        "/api/nights/",
        {"league": league.pk, "played_on": "2026-11-20", "edition": "base", "max_table": 9},
        format="json",
    )
    assert response.status_code == 400
    assert "max_table" in response.json()["fields"]
    assert not GameNight.objects.exists()


def test_a_private_leagues_nights_are_not_found(api, league, night_id):
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert api("quinn").get(f"/api/nights/{night_id}/").status_code == 404


def test_a_player_the_organiser_cannot_see_is_refused_like_an_unknown_one(api, users, players):
    hidden = services.league_create(
        name="Hidden", slug="hidden", by=users["quinn"], is_public=False
    )
    secret = services.guest_add(league=hidden, name="Secret", by=users["quinn"]).player
    mine = services.league_create(name="Mine", slug="mine", by=users["vic"])
    response = api("vic").post(
        "/api/nights/",
        {"league": mine.pk, "played_on": "2026-11-20", "edition": "base", "present": [secret.pk]},
        format="json",
    )
    assert response.status_code == 400
    assert "Secret" not in str(response.json())
    assert "present" in response.json()["fields"]


def test_status_confirm_and_dispute_through_the_api(api, users, league, players):
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ANOTHER)
    league.refresh_from_db()
    game = record(league, users["mia"], DAY, (players["mia"], 30, 5), (players["ned"], 20, 3))
    assert api("mia").get(f"/api/games/{game.pk}/").json()["status"] == "pending"
    refused = api("mia").post(f"/api/games/{game.pk}/confirm/")
    assert refused.status_code == 400 and "another participant" in str(refused.json())
    confirmed = api("ned").post(f"/api/games/{game.pk}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    assert all(p["rating_after"] is not None for p in confirmed.json()["participants"])

    second = record(league, users["mia"], DAY, (players["mia"], 30, 5), (players["ned"], 20, 3))
    empty = api("ned").post(f"/api/games/{second.pk}/dispute/", {"reason": ""}, format="json")
    assert empty.status_code == 400
    disputed = api("ned").post(
        f"/api/games/{second.pk}/dispute/", {"reason": "I had 25"}, format="json"
    )
    assert disputed.status_code == 200 and disputed.json()["status"] == "disputed"
    assert api(None).post(f"/api/games/{second.pk}/confirm/").status_code in (401, 403)
    listed = api("olive").get("/api/games/", {"status": "disputed"}).json()
    assert [g["id"] for g in listed["results"]] == [second.pk]
    assert Game.objects.get(pk=second.pk).disputes.get().reason == "I had 25"


def test_the_confirmation_rule_is_set_with_patch(api, league):
    response = api("olive").patch(
        f"/api/leagues/{league.pk}/",
        {"confirmation": "organiser", "confirmation_days": 3},
        format="json",
    )
    assert response.status_code == 200, response.json()
    league.refresh_from_db()
    assert (league.confirmation, league.confirmation_days) == ("organiser", 3)
    bad = api("olive").patch(
        f"/api/leagues/{league.pk}/",
        {"confirmation": "never", "confirmation_days": 0},
        format="json",
    )
    assert bad.status_code == 400
    assert {"confirmation", "confirmation_days"} <= set(str(bad.json()).split("'"))
