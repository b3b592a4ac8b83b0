"""The API of disputes: organisers list their leagues' disputes and settle them (the game stands
and is rated, or it is deleted); nobody else sees the list or settles anything."""

from __future__ import annotations

import datetime as dt

import pytest

from league.clubs import services
from league.models import Game, League
from league.results import confirmation
from tests.league.conftest import another_confirms, record

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)


@pytest.fixture
def disputed(users, league, players, log_game):
    """Mia logged two games with Ned that wait for him; he disputes both."""
    another_confirms(league)
    disputes = []
    for vp in (30, 31):
        game = log_game("mia", DAY, ("mia", vp, 5), ("ned", 20, 3))
        disputes.append(confirmation.game_dispute(game=game, by=users["ned"], reason=f"Not {vp}"))
    return disputes


@pytest.fixture
def elsewhere(users):
    """A dispute in Vic's public league, which Olive does not organise."""
    other = services.league_create(name="Vic's", slug="vics", by=users["vic"])
    another_confirms(other)
    vic = services.player_for_user(users["vic"])
    quinn = services.player_for_user(users["quinn"])
    services.member_add(league=other, player=quinn, by=users["quinn"])
    game = record(other, users["vic"], DAY, (vic, 10, 1), (quinn, 12, 2))
    return confirmation.game_dispute(game=game, by=users["quinn"], reason="Vic miscounted")


def ids(response) -> list[int]:
    assert response.status_code == 200, response.json()
    return [d["id"] for d in response.json()["results"]]


def test_organisers_list_their_leagues_open_disputes(api, league, disputed, elsewhere):
    first, second = disputed
    listed = api("olive").get("/api/disputes/", {"league": league.pk, "open": "true"})
    assert ids(listed) == [first.pk, second.pk]
    row = listed.json()["results"][0]
    assert (row["league"], row["game"], row["reason"]) == (league.pk, first.game_id, "Not 30")
    assert (row["raised_by"], row["resolution"], row["resolved_at"]) == ("ned", "", None)
    assert ids(api("olive").get("/api/disputes/")) == [first.pk, second.pk]
    assert ids(api("olive").get("/api/disputes/", {"league": elsewhere.league_id})) == []
    assert ids(api("vic").get("/api/disputes/")) == [elsewhere.pk]
    paged = api("olive").get("/api/disputes/", {"limit": 1, "offset": 1}).json()
    assert paged["count"] == 2 and [d["id"] for d in paged["results"]] == [second.pk]


def test_members_and_visitors_list_no_disputes(api, disputed):
    for name in ("mia", "ned", "quinn", None):
        assert ids(api(name).get("/api/disputes/")) == [], name


def test_bad_filters_are_refused(api, users, disputed):
    hidden = services.league_create(name="Hidden", slug="hidden", by=users["vic"], is_public=False)
    for params, field in (
        ({"open": "yes"}, "open"),
        ({"league": "first"}, "league"),
        ({"league": hidden.pk}, "league"),
        ({"league": 10**30}, "league"),
        ({"limit": "-1"}, "limit"),
    ):
        response = api("olive").get("/api/disputes/", params)
        assert response.status_code == 400, params
        assert field in response.json()["fields"], response.json()


def test_an_organiser_confirms_a_disputed_game(api, league, disputed, players):
    first, second = disputed
    settled = api("olive").post(
        f"/api/disputes/{first.pk}/resolve/", {"note": "Checked the scoresheet"}, format="json"
    )
    assert settled.status_code == 200, settled.json()
    body = settled.json()
    assert (body["resolution"], body["resolved_by"], body["note"]) == (
        "confirmed",
        "olive",
        "Checked the scoresheet",
    )
    assert body["resolved_at"] is not None and body["game"] == first.game_id
    game = api("olive").get(f"/api/games/{first.game_id}/").json()
    assert game["status"] == "confirmed"
    assert all(p["rating_after"] is not None for p in game["participants"])
    standings = api(None).get(f"/api/leagues/{league.pk}/standings/").json()
    assert {row["player_id"]: row["games_played"] for row in standings}[players["ned"].pk] == 1
    assert ids(api("olive").get("/api/disputes/", {"open": "true"})) == [second.pk]
    assert ids(api("olive").get("/api/disputes/", {"open": "false"})) == [first.pk]
    again = api("olive").post(f"/api/disputes/{first.pk}/resolve/", {}, format="json")
    assert again.status_code == 400
    assert again.json()["fields"] == {"dispute": ["This dispute is already resolved."]}


def test_an_organiser_deletes_a_disputed_game(api, disputed):
    _, second = disputed
    settled = api("olive").post(
        f"/api/disputes/{second.pk}/resolve/", {"delete": True}, format="json"
    )
    assert settled.status_code == 200, settled.json()
    assert (settled.json()["resolution"], settled.json()["game"]) == ("deleted", None)
    assert not Game.objects.filter(pk=second.game_id).exists()
    assert api("olive").get(f"/api/games/{second.game_id}/").status_code == 404


def test_a_bad_resolution_is_refused_field_by_field_and_changes_nothing(api, disputed):
    first, _ = disputed
    url = f"/api/disputes/{first.pk}/resolve/"
    for body, field in (
        ({"delete": "perhaps"}, "delete"),
        ({"note": "x" * 2001}, "note"),
        ({"note": ["a", "list"]}, "note"),
    ):
        response = api("olive").post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["error"] == "validation_error"
        assert field in response.json()["fields"], response.json()
    first.refresh_from_db()
    assert first.resolved_at is None
    assert Game.objects.get(pk=first.game_id).status == Game.Status.DISPUTED


def test_only_organisers_settle_and_an_unseen_dispute_does_not_exist(api, league, disputed):
    first, _ = disputed
    url = f"/api/disputes/{first.pk}/resolve/"
    for name in ("mia", "ned", "quinn"):
        refused = api(name).post(url, {"delete": True}, format="json")
        assert refused.status_code == 403, name
        assert "organisers" in refused.json()["detail"]
    assert api(None).post(url, {"delete": True}, format="json").status_code == 401
    League.objects.filter(pk=league.pk).update(is_public=False)
    assert api("quinn").post(url, {"delete": True}, format="json").status_code == 404
    for unknown in (first.pk + 1000, 2**63):
        missing = api("olive").post(f"/api/disputes/{unknown}/resolve/", {}, format="json")
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
    first.refresh_from_db()
    assert first.resolved_at is None and Game.objects.filter(pk=first.game_id).exists()
