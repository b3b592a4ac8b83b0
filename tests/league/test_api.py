"""The REST API: reads, writes, permissions and one clear 400 per bad input."""

import datetime as dt

import pytest

from league.models import AuditEntry, Game, Membership, Participant
from tests.league.conftest import pad_lines

pytestmark = pytest.mark.django_db

D = "2026-03-01"


def game_body(league, *rows, **extra):
    return {
        "league": league.pk,
        "edition": "base",
        "played_on": D,
        "participants": [
            {"player": p.pk, "seat": i + 1, "result": {"total_vp": vp, "fed_cats": fed}}
            for i, (p, vp, fed) in enumerate(rows)
        ],
        **extra,
    }


def test_member_logs_a_game_and_sees_rating_changes(api, league, players):
    response = api("mia").post(
        "/api/games/",
        game_body(
            league, (players["mia"], 30, 5), (players["ned"], 25, 4), (players["pat"], 25, 3)
        ),
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert [p["rank"] for p in body["participants"]] == [1, 2, 3]
    assert body["participants"][0]["rating_delta"] == pytest.approx(16)
    assert body["participants"][0]["expected_score"] == 0.5
    assert body["logged_by"] == "mia"


def test_anyone_reads_public_standings_and_history(api, league, players, users, log_game):
    log_game("olive", dt.date(2026, 3, 1), ("mia", 30, 5), ("ned", 2, 1))
    standings = api(None).get(f"/api/leagues/{league.pk}/standings/").json()
    assert [(r["position"], r["player_name"], r["provisional"]) for r in standings] == [
        (1, "Mia", True),
        (2, "Ned", True),
    ]
    history = api(None).get(f"/api/players/{players['mia'].pk}/ratings/?league={league.pk}").json()
    assert history["count"] == 1
    assert history["results"][0]["rating_after"] == pytest.approx(1516)


def test_private_league_hidden_from_outsiders(api, league, players):
    league.is_public = False
    league.save()
    assert api(None).get(f"/api/leagues/{league.pk}/").status_code == 404
    assert api("quinn").get(f"/api/leagues/{league.pk}/standings/").status_code == 404
    assert api("mia").get(f"/api/leagues/{league.pk}/standings/").status_code == 200
    assert league.pk not in [lg["id"] for lg in api(None).get("/api/leagues/").json()["results"]]


def test_non_members_cannot_log_games(api, league, players):
    body = game_body(league, (players["mia"], 30, 5), (players["ned"], 25, 4))
    assert api(None).post("/api/games/", body, format="json").status_code in (401, 403)
    response = api("quinn").post("/api/games/", body, format="json")
    assert response.status_code == 403
    assert response.json()["error"] == "permission_denied"
    assert not Game.objects.exists()


def test_only_organisers_edit_or_delete(api, league, players, users, log_game):
    game = log_game("mia", dt.date(2026, 3, 1), ("mia", 30, 5), ("ned", 2, 1))
    assert (
        api("mia").patch(f"/api/games/{game.pk}/", {"notes": "x"}, format="json").status_code == 403
    )
    assert api("mia").delete(f"/api/games/{game.pk}/").status_code == 403
    response = api("olive").patch(f"/api/games/{game.pk}/", {"notes": "great game"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "great game"
    assert api("olive").delete(f"/api/games/{game.pk}/").status_code == 204
    assert list(
        AuditEntry.objects.filter(object_type="Game")
        .values_list("action", flat=True)
        .order_by("id")
    ) == ["create", "update", "delete"]
    audit = api("olive").get(f"/api/leagues/{league.pk}/audit/")
    assert audit.status_code == 200 and audit.json()["count"] >= 3
    assert api("mia").get(f"/api/leagues/{league.pk}/audit/").status_code == 403


def _bad(api, league, players, mutate):
    body = game_body(league, (players["mia"], 30, 5), (players["ned"], 25, 4))
    mutate(body, players)
    response = api("olive").post("/api/games/", body, format="json")
    assert response.status_code == 400, response.json()
    assert not Game.objects.exists() and not Participant.objects.exists()
    payload = response.json()
    assert payload["error"] == "validation_error"
    return payload["fields"]


@pytest.mark.parametrize(
    ("mutate", "field", "text"),
    [
        (
            lambda b, p: b["participants"][1].update(player=999999),
            "participants.1.player",
            "no player",
        ),
        (
            lambda b, p: b["participants"][1].update(player=p["mia"].pk),
            "participants.1.player",
            "more than once",
        ),
        (
            lambda b, p: b["participants"][1].update(player=p["quinn"].pk),
            "participants.1.player",
            "not a member",
        ),
        (lambda b, p: b["participants"].pop(), "participants", "2–4 players"),
        (
            lambda b, p: b["participants"][1]["result"].update(total_vp=30, fed_cats=None),
            "participants.1.fed_cats",
            "tie",
        ),
        (
            lambda b, p: b["participants"][0]["result"].update(pad_lines(20, 5, 3, 0, 0, 0)),
            "participants.0.total_vp",
            "add up to 28",
        ),
        (
            lambda b, p: b["participants"][0]["result"].update(fed_cats=-2),
            "participants.0.fed_cats",
            "less than 0",
        ),
        (lambda b, p: b.update(played_on="2999-01-01"), "played_on", "future"),
        (lambda b, p: b.pop("played_on"), "played_on", "required"),
        (lambda b, p: b.update(edition="deluxe"), "edition", "no edition"),
        (lambda b, p: b["participants"][1].update(seat=1), "participants.1.seat", "taken twice"),
        (lambda b, p: b["participants"][0].pop("result"), "participants.0.result", "required"),
    ],
)
def test_bad_game_input_gets_a_field_message(api, league, players, mutate, field, text):
    fields = _bad(api, league, players, mutate)
    assert field in fields, fields
    assert any(text in message for message in fields[field]), fields[field]


def test_too_many_players(api, league, players, users):
    from league.clubs import services

    extra = [services.player_create(name=f"P{i}", by=users["olive"]) for i in range(2)]
    for player in extra:
        services.member_add(league=league, player=player, by=users["olive"])
    body = game_body(
        league,
        *[
            (p, 10 + i, 1)
            for i, p in enumerate([players["mia"], players["ned"], players["pat"], *extra])
        ],
    )
    response = api("olive").post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert "not 5" in response.json()["fields"]["participants"][0]


def test_malformed_json_is_a_400(api, league, players):
    response = api("olive").post("/api/games/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "parse_error"


def test_league_creation_makes_creator_organiser_and_members_managed(api, users, players):
    response = api("vic").post(
        "/api/leagues/",
        {"name": "Vic's Club", "slug": "vic", "game": "cantankerous-cats"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    league_id = response.json()["id"]
    members = api("vic").get(f"/api/leagues/{league_id}/members/").json()["results"]
    assert [m["role"] for m in members] == ["organiser"]
    guest = api("vic").post("/api/players/", {"name": "Vic's guest"}, format="json").json()
    added = api("vic").post(
        f"/api/leagues/{league_id}/members/", {"player": guest["id"]}, format="json"
    )
    assert added.status_code == 201
    assert (
        api("quinn")
        .post(f"/api/leagues/{league_id}/members/", {"player": players["mia"].pk}, format="json")
        .status_code
        == 403
    )
    again = api("vic").post(
        f"/api/leagues/{league_id}/members/", {"player": guest["id"]}, format="json"
    )
    assert again.status_code == 400 and "already" in again.json()["fields"]["player"][0]
    gone = api("vic").delete(f"/api/leagues/{league_id}/members/{guest['id']}/")
    assert gone.status_code == 204
    duplicate = api("vic").post("/api/leagues/", {"name": "Again", "slug": "vic"}, format="json")
    assert duplicate.status_code == 400 and "slug" in duplicate.json()["fields"]


def test_games_filter_and_paginate(api, league, players, users, log_game):
    for day in range(3):
        log_game("olive", dt.date(2026, 3, 1 + day), ("mia", 30, 5), ("ned", 2, 1))
    body = api(None).get(f"/api/games/?league={league.pk}&played_after=2026-03-02&limit=1").json()
    assert body["count"] == 2 and len(body["results"]) == 1 and body["next"]
    assert api(None).get(f"/api/games/?player={players['pat'].pk}").json()["count"] == 0


def test_schema_and_docs_served_locally(api):
    schema = api(None).get("/api/schema/")
    assert schema.status_code == 200 and b"/api/games/" in schema.content
    docs = api(None).get("/api/docs/")
    assert docs.status_code == 200 and b"/static/drf_spectacular_sidecar/" in docs.content


def test_token_authentication(api, users, league, players):
    from rest_framework.test import APIClient

    client = APIClient()
    token = client.post("/api/auth/token/", {"username": "mia", "password": "pw-123456789"}).json()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token['token']}")
    response = client.post(
        "/api/games/",
        game_body(league, (players["mia"], 30, 5), (players["ned"], 25, 4)),
        format="json",
    )
    assert response.status_code == 201


def test_catalogue_lists_games(api):
    games = {g["key"]: g for g in api(None).get("/api/catalogue/").json()}
    assert games["cat-lady"]["editions"][2]["max_players"] == 6
    assert "mischief_points" in [f["name"] for f in games["cantankerous-cats"]["result_fields"]]
    statuses = {e["key"]: e["card_data_status"] for e in games["cat-lady"]["editions"]}
    assert statuses == {
        "base": "complete",
        "premium": "incomplete",
        "box-of-treats": "incomplete",
        "solitaire": None,
    }


def test_an_organiser_cannot_pull_a_player_with_a_login_into_their_league(api, users, players):
    league_id = (
        api("vic")
        .post("/api/leagues/", {"name": "Vic's Club", "slug": "vic"}, format="json")
        .json()["id"]
    )
    pulled = api("vic").post(
        f"/api/leagues/{league_id}/members/", {"player": players["quinn"].pk}, format="json"
    )
    assert pulled.status_code == 400
    assert "invitation" in pulled.json()["fields"]["player"][0]
    assert not Membership.objects.filter(league_id=league_id, player=players["quinn"]).exists()


def test_an_organiser_cannot_add_a_guest_someone_else_entered(api, users, players):
    olives_guest = (
        api("olive").post("/api/players/", {"name": "Olive's guest"}, format="json").json()
    )
    league_id = (
        api("vic")
        .post("/api/leagues/", {"name": "Vic's Club", "slug": "vic"}, format="json")
        .json()["id"]
    )
    taken = api("vic").post(
        f"/api/leagues/{league_id}/members/", {"player": olives_guest["id"]}, format="json"
    )
    assert (
        taken.status_code == 400
        and "guest someone else entered" in taken.json()["fields"]["player"][0]
    )
    assert not Membership.objects.filter(league_id=league_id).exclude(role="organiser").exists()


def test_an_organiser_can_still_make_a_member_an_organiser_through_the_api(api, league, players):
    promoted = api("olive").post(
        f"/api/leagues/{league.pk}/members/",
        {"player": players["mia"].pk, "role": "organiser"},
        format="json",
    )
    assert promoted.status_code == 201
    assert Membership.objects.get(league=league, player=players["mia"]).role == "organiser"
