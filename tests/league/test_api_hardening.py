"""The league API under hostile input: no 5xx, the one error shape, bounded numbers and pages,
private leagues and their players invisible to outsiders, and a throttled token login."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from league.clubs import services
from league.models import Game, League
from tests.api_errors import api_error
from tests.league.conftest import record, spring_season

HUGE = "9223372036854775808"  # 2**63: one past PostgreSQL's bigint


@pytest.fixture
def private_league(users, players):
    league = services.league_create(
        name="Secret Club", slug="secret", by=users["olive"], is_public=False
    )
    hidden = services.player_create(name="Hidden", user=None, by=users["olive"])
    services.member_add(league=league, player=hidden, by=users["olive"])
    return league, hidden


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    # Throttles count in the default cache; each test starts from none.
    cache.clear()
    yield
    cache.clear()


# --- pages and ids ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/players/", "/api/leagues/", "/api/games/"])
def test_a_limit_past_bigint_is_capped_not_a_server_error(api, league, players, path):
    record(league, None, dt.date(2026, 3, 1), (players["mia"], 30, 5), (players["ned"], 20, 3))
    response = api(None).get(f"{path}?limit={HUGE}")
    assert response.status_code == 200
    assert len(response.json()["results"]) == response.json()["count"] > 0
    assert api(None).get(f"{path}?limit=1000&offset={HUGE}").json()["results"] == []


def test_pages_hold_at_most_the_maximum(api, users):
    for number in range(205):
        services.player_create(name=f"Player {number:03}", user=None)
        League.objects.create(name=f"League {number:03}", slug=f"l{number}")
    # Players in no league are nobody's business but their own; public leagues are listed.
    body = api(None).get("/api/leagues/?limit=500").json()
    assert body["count"] == 205 and len(body["results"]) == 200


@pytest.mark.parametrize("query", ["limit=abc", "limit=-1", "limit=0", "offset=x", "limit=1.5"])
def test_unreadable_page_parameters_are_a_400(api, query):
    body = api_error(api(None).get(f"/api/leagues/?{query}"), 400, "validation_error")
    assert set(body["fields"]) <= {"limit", "offset"}


@pytest.mark.parametrize("query", ["is_public=maybe", "game=chess", "ordering=password"])
def test_wrong_query_parameters_are_a_400_not_ignored(api, league, query):
    api_error(api(None).get(f"/api/leagues/?{query}"), 400, "validation_error")


@pytest.mark.parametrize(
    "query",
    ["league=abc", "played_after=yesterday", "player=x", f"player={HUGE}", "ordering=-secret"],
)
def test_wrong_game_filters_are_a_400(api, league, query):
    api_error(api(None).get(f"/api/games/?{query}"), 400, "validation_error")


def test_wrong_ids_in_query_parameters_of_actions_are_a_400(api, league, players):
    api_error(api(None).get(f"/api/leagues/{league.pk}/standings/?season=abc"), 400)
    api_error(api(None).get(f"/api/leagues/{league.pk}/standings/?season={HUGE}"), 400)
    api_error(api(None).get(f"/api/leagues/{league.pk}/standings/?season=999"), 404)
    api_error(api(None).get(f"/api/players/{players['mia'].pk}/ratings/?league=x"), 400)


@pytest.mark.parametrize(
    "path",
    [
        "/api/leagues/AAA/",
        "/api/games/1e3/",
        "/api/players/-1/",
        f"/api/leagues/{HUGE}0/",
        "/api/no-such-thing/",
    ],
)
def test_ids_that_are_not_ids_are_a_json_404(api, path):
    api_error(api(None).get(path), 404, "not_found")


# --- bodies ------------------------------------------------------------------------------------


def test_json_nested_a_thousand_deep_is_a_400_unauthenticated(api, users):
    body = "[" * 1000 + "]" * 1000
    response = APIClient().post("/api/auth/token/", data=body, content_type="application/json")
    assert "deeper than" in api_error(response, 400, "parse_error")["detail"]
    deep = {"username": "mia", "password": json.loads("[" * 40 + "]" * 40)}
    response = APIClient().post("/api/auth/token/", deep, format="json")
    api_error(response, 400, "parse_error")


def test_json_nested_deep_in_a_game_is_a_400(api, league, players):
    deep = "[" * 5000 + "]" * 5000
    body = (
        f'{{"league": {league.pk}, "played_on": "2026-03-01", '
        f'"participants": [{{"player": 1, "result": {deep}}}]}}'
    )
    response = api("olive").post("/api/games/", data=body, content_type="application/json")
    api_error(response, 400, "parse_error")
    assert not Game.objects.exists()


@pytest.mark.parametrize("content_type", ["application/json", "application/x-www-form-urlencoded"])
def test_a_body_past_the_upload_limit_is_a_json_413(api, users, settings, content_type):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    if content_type == "application/json":
        body = json.dumps({"name": "x" * 20_000, "slug": "big"})
    else:
        body = "name=" + "x" * 20_000 + "&slug=big"
    response = api("vic").post("/api/leagues/", data=body, content_type=content_type)
    api_error(response, 413, "request_too_large")
    assert not League.objects.filter(slug="big").exists()


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused_by_the_parser(api, users, literal):
    body = f'{{"name": "Inf Club", "slug": "inf", "k_factor": {literal}}}'
    response = api("vic").post("/api/leagues/", data=body, content_type="application/json")
    api_error(response, 400, "parse_error")
    assert not League.objects.filter(slug="inf").exists()


# --- numeric settings, required fields, and no write without what follows from it ---------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("k_factor", 1.7e308),
        ("k_factor", 0),
        ("k_factor", 101),
        ("k_factor", "nan"),
        ("initial_rating", 1.7e308),
        ("initial_rating", -1),
        ("initial_rating", 5000.5),
        ("initial_rating", "inf"),
        ("provisional_games", 2**40),
    ],
)
def test_league_numbers_out_of_range_get_a_field_error(api, users, field, value):
    response = api("vic").post(
        "/api/leagues/", {"name": "Big", "slug": "big", field: value}, format="json"
    )
    assert field in api_error(response, 400, "validation_error")["fields"]
    assert not League.objects.filter(slug="big").exists()


def test_the_league_service_refuses_the_same_ranges(users):
    with pytest.raises(services.ValidationError) as refused:
        services.league_create(
            name="Big", slug="big", by=users["vic"], k_factor=1e308, initial_rating=float("nan")
        )
    assert set(refused.value.message_dict) == {"k_factor", "initial_rating"}


def test_extreme_but_allowed_settings_rate_a_game_to_finite_numbers(api, users, players):
    response = api("olive").post(
        "/api/leagues/",
        {"name": "Edge", "slug": "edge", "k_factor": 100, "initial_rating": 5000},
        format="json",
    )
    league = League.objects.get(pk=response.json()["id"])
    for name in ("mia", "ned"):  # each joins by their own consent
        services.member_add(league=league, player=players[name], by=users[name])
    game = api("mia").post(
        "/api/games/",
        {
            "league": league.pk,
            "played_on": "2026-03-01",
            "participants": [
                {"player": players["mia"].pk, "result": {"total_vp": 30, "fed_cats": 5}},
                {"player": players["ned"].pk, "result": {"total_vp": 20, "fed_cats": 3}},
            ],
        },
        format="json",
    )
    assert game.status_code == 201
    assert [p["rating_after"] for p in game.json()["participants"]] == [5050.0, 4950.0]
    assert api(None).get(f"/api/leagues/{league.pk}/standings/").status_code == 200


def test_a_rating_that_would_not_be_finite_writes_nothing(api, users, players):
    # Only a row written around the services can hold such settings; the game is refused
    # inside its transaction instead of being stored with ratings no page can show.
    league = League.objects.create(
        name="Legacy", slug="legacy", k_factor=1.7e308, initial_rating=1.7e308
    )
    for name in ("olive", "mia"):  # each joins by their own consent
        services.member_add(league=league, player=players[name], by=users[name])
    with pytest.raises((ValueError, OverflowError)):
        record(
            league,
            users["olive"],
            dt.date(2026, 3, 1),
            (players["olive"], 30, 5),
            (players["mia"], 20, 3),
        )
    assert not Game.objects.filter(league=league).exists()


@pytest.mark.parametrize("missing", ["name", "slug"])
def test_league_required_fields(api, users, missing):
    body = {"name": "Club", "slug": "club"}
    del body[missing]
    response = api("vic").post("/api/leagues/", body, format="json")
    assert missing in api_error(response, 400, "validation_error")["fields"]


@pytest.mark.parametrize("missing", ["league", "played_on", "participants"])
def test_game_required_fields(api, league, players, missing):
    body = {
        "league": league.pk,
        "played_on": "2026-03-01",
        "participants": [
            {"player": players["mia"].pk, "result": {"total_vp": 3}},
            {"player": players["ned"].pk, "result": {"total_vp": 2}},
        ],
    }
    del body[missing]
    response = api("olive").post("/api/games/", body, format="json")
    assert missing in api_error(response, 400, "validation_error")["fields"]


@pytest.mark.parametrize("value", [10**30, "9" * 5000, -(10**12)])
def test_result_numbers_out_of_range_get_a_field_error(api, league, players, value):
    response = api("olive").post(
        "/api/games/",
        {
            "league": league.pk,
            "played_on": "2026-03-01",
            "participants": [
                {"player": players["mia"].pk, "result": {"total_vp": value}},
                {"player": players["ned"].pk, "result": {"total_vp": 2}},
            ],
        },
        format="json",
    )
    fields = api_error(response, 400, "validation_error")["fields"]
    assert any(key.startswith("participants.0") for key in fields)
    assert not Game.objects.exists()


# --- private leagues ---------------------------------------------------------------------------


def test_a_private_leagues_members_are_not_listed_to_outsiders(api, private_league, players):
    league, hidden = private_league
    for who in (None, "quinn"):
        api_error(api(who).get(f"/api/players/?league={league.pk}"), 400, "validation_error")
        names = [p["name"] for p in api(who).get("/api/players/?limit=200").json()["results"]]
        assert "Hidden" not in names and "Mia" in names
    listed = api("olive").get(f"/api/players/?league={league.pk}").json()["results"]
    assert [p["name"] for p in listed] == ["Hidden", "Olive"]


def test_a_player_only_in_private_leagues_is_a_404_like_the_page(api, client, private_league):
    league, hidden = private_league
    for who in (None, "quinn"):
        api_error(api(who).get(f"/api/players/{hidden.pk}/"), 404)
        api_error(api(who).get(f"/api/players/{hidden.pk}/ratings/"), 404)
    assert client.get(f"/players/{hidden.pk}/").status_code == 404
    assert api("olive").get(f"/api/players/{hidden.pk}/").status_code == 200


def test_a_player_sees_themselves_with_no_league(api, players):
    quinn = players["quinn"]
    assert api("quinn").get(f"/api/players/{quinn.pk}/").json()["username"] == "quinn"
    api_error(api("mia").get(f"/api/players/{quinn.pk}/"), 404)


def test_a_player_without_a_login_has_a_null_username(api, league, players, users):
    guest = services.player_create(name="Guest", user=None, by=users["olive"])
    services.member_add(league=league, player=guest, by=users["olive"])
    assert api(None).get(f"/api/players/{guest.pk}/").json()["username"] is None


def test_logging_a_game_in_a_private_league_answers_like_a_missing_one(
    api, private_league, players
):
    league, hidden = private_league

    def post(league_id):
        return api("quinn").post(
            "/api/games/",
            {
                "league": league_id,
                "played_on": "2026-03-01",
                "participants": [
                    {"player": hidden.pk, "result": {"total_vp": 3}},
                    {"player": players["quinn"].pk, "result": {"total_vp": 2}},
                ],
            },
            format="json",
        )

    private, missing = post(league.pk), post(league.pk + 1000)
    assert private.status_code == missing.status_code == 400
    assert private.json()["fields"]["league"] == [
        message.replace(str(league.pk + 1000), str(league.pk))
        for message in missing.json()["fields"]["league"]
    ]
    assert not Game.objects.filter(league=league).exists()


def test_games_filtered_by_a_private_season_answer_like_a_missing_one(api, private_league, users):
    league, _ = private_league
    season = spring_season(league, users)
    for query in (f"season={season.pk}", f"league={league.pk}"):
        api_error(api("quinn").get(f"/api/games/?{query}"), 400, "validation_error")
        assert api("olive").get(f"/api/games/?{query}").status_code == 200


# --- the token login ---------------------------------------------------------------------------


def test_the_token_login_is_throttled_per_address(users, caplog):
    client = APIClient(REMOTE_ADDR="198.51.100.7")
    answers = [
        client.post(
            "/api/auth/token/", {"username": "mia", "password": f"wrong-{n}"}, format="json"
        ).status_code
        for n in range(10)
    ]
    assert answers == [400] * 10
    right = client.post(
        "/api/auth/token/", {"username": "mia", "password": "pw-123456789"}, format="json"
    )
    body = api_error(right, 429, "throttled")
    assert "token" not in body and int(right["Retry-After"]) > 0
    elsewhere = APIClient(REMOTE_ADDR="198.51.100.8").post(
        "/api/auth/token/", {"username": "mia", "password": "pw-123456789"}, format="json"
    )
    assert elsewhere.status_code == 200 and elsewhere.json()["token"]
    failures = [r for r in caplog.records if r.name == "catleague.auth"]
    assert len(failures) == 10 and "198.51.100.7" in failures[0].getMessage()


def test_forwarded_for_is_not_trusted_without_a_proxy(users):
    for n in range(11):
        response = APIClient(REMOTE_ADDR="198.51.100.9").post(
            "/api/auth/token/",
            {"username": "mia", "password": "wrong"},
            format="json",
            HTTP_X_FORWARDED_FOR=f"203.0.113.{n}",
        )
    assert response.status_code == 429
