"""The API of game nights and of confirmation: open a night, say who is here, add guests, draw
and take back rounds, enter each table's game, read it back; a game's status, confirm and
dispute, with the one error shape for every refusal."""

from __future__ import annotations

import datetime as dt

import pytest

from league.clubs import services
from league.models import AuditEntry, Game, GameNight, League, NightTable, Player
from tests.league.conftest import another_confirms

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
            "place": "Back room",
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


def test_status_confirm_and_dispute_through_the_api(api, users, league, players, log_game):
    another_confirms(league)
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert api("mia").get(f"/api/games/{game.pk}/").json()["status"] == "pending"
    refused = api("mia").post(f"/api/games/{game.pk}/confirm/")
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "permission_denied",
        "detail": "You logged this game: another participant confirms it.",
    }
    confirmed = api("ned").post(f"/api/games/{game.pk}/confirm/")
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "confirmed"
    assert all(p["rating_after"] is not None for p in confirmed.json()["participants"])

    second = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
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


def result_body(table: dict, **extra) -> dict:
    """A table's game as the API takes it: the drawn seats, seat 1 winning, then in seat order."""
    participants = [
        {"player": s["player"], "seat": s["seat"], "result": {"total_vp": 30 - s["seat"]}}
        for s in table["seats"]
    ]
    return {"participants": participants, **extra}


def latest_tables(client, night_id) -> list[dict]:
    return client.get(f"/api/nights/{night_id}/").json()["rounds"][-1]["tables"]


def test_a_whole_night_through_the_api(api, league, players, night_id):
    client = api("olive")
    url = f"/api/nights/{night_id}"
    pat = players["pat"].pk
    left = client.post(f"{url}/attendance/", {"player": pat, "present": False}, format="json")
    assert left.status_code == 200, left.json()
    assert left.json() == {"player": pat, "player_name": "Pat", "present": False}
    guest = client.post(f"{url}/guests/", {"name": "Gus"}, format="json")
    assert guest.status_code == 201, guest.json()
    gus = guest.json()["player"]
    assert guest.json() == {"player": gus, "player_name": "Gus", "present": True}
    assert league.memberships.filter(player_id=gus, player__user__isnull=True).exists()

    # Pat has left and Gus came: one table of four.
    (table,) = client.post(f"{url}/draw/").json()["rounds"][0]["tables"]
    assert {s["player"] for s in table["seats"]} == {
        players["olive"].pk,
        players["mia"].pk,
        players["ned"].pk,
        gus,
    }
    # Pat is back after all: the round is taken back and drawn again for five.
    back = client.post(f"{url}/attendance/", {"player": pat, "present": True}, format="json")
    assert back.status_code == 200 and back.json()["present"] is True
    undone = client.post(f"{url}/undo/")
    assert undone.status_code == 200, undone.json()
    assert undone.json()["rounds"] == []
    assert not NightTable.objects.filter(pk=table["id"]).exists()
    redrawn = client.post(f"{url}/draw/")
    assert redrawn.status_code == 201
    tables = redrawn.json()["rounds"][0]["tables"]
    assert sorted(len(t["seats"]) for t in tables) == [2, 3]
    assert pat in {s["player"] for t in tables for s in t["seats"]}

    for number in (1, 2):
        if number == 2:
            assert client.post(f"{url}/draw/").status_code == 201
        for table in latest_tables(client, night_id):
            entered = client.post(
                f"{url}/tables/{table['id']}/result/", result_body(table), format="json"
            )
            assert entered.status_code == 201, entered.json()
            game = entered.json()
            assert (game["league"], game["edition"], game["status"]) == (
                league.pk,
                "base",
                "confirmed",
            )
            assert (game["played_on"], game["place"]) == ("2026-11-20", "Back room")
            assert [p["player"] for p in game["participants"]] == [
                s["player"] for s in table["seats"]
            ]
            assert game["participants"][0]["rating_after"] is not None
        night = client.get(f"{url}/")
        assert all(t["game"] is not None for t in night.json()["rounds"][-1]["tables"])

    standings = night.json()["standings"]
    assert len(standings) == 5 and all(s["games"] == 2 for s in standings)
    # Two tables a round, each with its winner; a table of n hands out n / 2 points.
    assert sum(s["wins"] for s in standings) == 4
    assert sum(s["points"] for s in standings) == pytest.approx(2 * (3 / 2 + 2 / 2))
    assert standings[0]["position"] == 1 and standings[0]["points"] >= standings[-1]["points"]
    rated = client.get(f"/api/leagues/{league.pk}/standings/").json()
    assert {row["player_id"]: row["games_played"] for row in rated} == {
        s["player"]: 2 for s in standings
    }
    refused = client.post(f"{url}/draw/")
    assert refused.status_code == 400 and "all drawn" in str(refused.json()["fields"]["round"])


def test_a_tables_game_takes_the_nights_edition_date_and_place_unless_given(api, league, players):
    client = api("olive")
    opened = client.post(
        "/api/nights/",
        {
            "league": league.pk,
            "played_on": "2026-11-20",
            "edition": "premium",
            "place": "Café",
            "present": [players[n].pk for n in ("olive", "mia", "ned", "pat")],
        },
        format="json",
    )
    url = f"/api/nights/{opened.json()['id']}"
    (table,) = client.post(f"{url}/draw/").json()["rounds"][0]["tables"]
    given = result_body(table, played_on="2026-11-21", place="", notes="Late finish")
    game = client.post(f"{url}/tables/{table['id']}/result/", given, format="json").json()
    assert (game["edition"], game["played_on"], game["place"], game["notes"]) == (
        "premium",
        "2026-11-21",
        "",
        "Late finish",
    )


def test_members_enter_their_tables_result_and_outsiders_do_not(api, users, players, night_id):
    (table,) = api("olive").post(f"/api/nights/{night_id}/draw/").json()["rounds"][0]["tables"]
    url = f"/api/nights/{night_id}/tables/{table['id']}/result/"
    outsider = api("quinn").post(url, result_body(table), format="json")
    assert outsider.status_code == 403
    assert outsider.json()["error"] == "permission_denied"
    assert api(None).post(url, result_body(table), format="json").status_code == 401
    assert NightTable.objects.get(pk=table["id"]).game is None
    entered = api("mia").post(url, result_body(table), format="json")
    assert entered.status_code == 201
    assert entered.json()["logged_by"] == "mia"


def test_only_organisers_mark_people_add_guests_and_take_rounds_back(api, players, night_id):
    url = f"/api/nights/{night_id}"
    api("olive").post(f"{url}/draw/")
    leaving = {"player": players["pat"].pk, "present": False}
    for name in ("mia", "quinn"):
        client = api(name)
        for response in (
            client.post(f"{url}/attendance/", leaving, format="json"),
            client.post(f"{url}/guests/", {"name": "Gus"}, format="json"),
            client.post(f"{url}/undo/"),
        ):
            assert response.status_code == 403, (name, response.json())
            assert "organisers" in response.json()["detail"]
    anonymous = api(None)
    assert anonymous.post(f"{url}/attendance/", leaving, format="json").status_code == 401
    assert anonymous.post(f"{url}/guests/", {"name": "Gus"}, format="json").status_code == 401
    assert anonymous.post(f"{url}/undo/").status_code == 401
    assert not Player.objects.filter(name="Gus").exists()
    night = api("olive").get(f"{url}/").json()
    assert len(night["rounds"]) == 1
    assert {s["player"]: s["present"] for s in night["standings"]}[players["pat"].pk] is True


def test_attendance_is_refused_field_by_field(api, users, league, players, night_id):
    client = api("olive")
    url = f"/api/nights/{night_id}/attendance/"
    missing = client.post(url, {"player": players["pat"].pk}, format="json")
    assert missing.status_code == 400 and "present" in missing.json()["fields"]
    # A form body without `present` is refused too, never read as someone leaving.
    form = client.post(url, {"player": players["pat"].pk})
    assert form.status_code == 400 and "present" in form.json()["fields"]
    fuzzy = client.post(url, {"player": players["pat"].pk, "present": "maybe"}, format="json")
    assert fuzzy.status_code == 400 and "present" in fuzzy.json()["fields"]
    # Quinn organises a public league of his own: Olive sees him, but he is not in hers.
    services.league_create(name="Quinn's", slug="quinns", by=users["quinn"])
    stranger = client.post(url, {"player": players["quinn"].pk, "present": True}, format="json")
    assert stranger.status_code == 400
    assert stranger.json()["fields"]["player"] == ["Quinn is not a member of Tuesday Club."]
    again = client.post(url, {"player": players["pat"].pk, "present": True}, format="json")
    assert again.json()["fields"]["player"] == ["Pat is already marked present."]
    hidden = services.league_create(name="Hidden", slug="hidden", by=users["vic"], is_public=False)
    secret = services.guest_add(league=hidden, name="Secret", by=users["vic"]).player
    unseen = client.post(url, {"player": secret.pk, "present": True}, format="json")
    assert unseen.status_code == 400 and "player" in unseen.json()["fields"]
    assert "Secret" not in str(unseen.json())
    assert not AuditEntry.objects.filter(object_type="GameNight", action="update").exists()


def test_a_guest_is_refused_by_name(api, night_id):
    client = api("olive")
    url = f"/api/nights/{night_id}/guests/"
    players_before = Player.objects.count()
    for body, message in (
        ({}, "This field is required."),
        ({"name": "   "}, "This field may not be blank."),
        ({"name": "x" * 101}, "Ensure this field has no more than 100 characters."),
        ({"name": "mia"}, "Tuesday Club already has a player called 'mia': choose another name."),
    ):
        response = client.post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["fields"] == {"name": [message]}
    assert Player.objects.count() == players_before


def test_a_round_is_taken_back_only_while_none_of_its_results_is_in(api, night_id):
    client = api("olive")
    url = f"/api/nights/{night_id}"
    nothing = client.post(f"{url}/undo/")
    assert nothing.status_code == 400
    assert nothing.json()["fields"] == {"round": ["No round has been drawn yet."]}
    (table,) = client.post(f"{url}/draw/").json()["rounds"][0]["tables"]
    client.post(f"{url}/tables/{table['id']}/result/", result_body(table), format="json")
    played = client.post(f"{url}/undo/")
    assert played.status_code == 400
    assert played.json()["fields"] == {
        "round": ["Round 1 already has results: it cannot be drawn again."]
    }
    assert len(client.get(f"{url}/").json()["rounds"]) == 1


def test_a_tables_result_is_refused_field_by_field_and_nothing_is_written(api, players, night_id):
    client = api("olive")
    (table,) = client.post(f"/api/nights/{night_id}/draw/").json()["rounds"][0]["tables"]
    url = f"/api/nights/{night_id}/tables/{table['id']}/result/"
    games_before = Game.objects.count()
    stranger = result_body(table)
    stranger["participants"][1]["player"] = players["quinn"].pk
    for body, field in (
        ({}, "participants"),
        (stranger, "participants.1.player"),
        (result_body(table, played_on="2999-01-01"), "played_on"),
        (result_body(table, played_on="soon"), "played_on"),
        (result_body(table, edition="deluxe"), "edition"),
        (result_body(table, game="cantankerous-cats"), "game"),
    ):
        response = client.post(url, body, format="json")
        assert response.status_code == 400, body
        assert response.json()["error"] == "validation_error"
        assert field in response.json()["fields"], response.json()
    assert Game.objects.count() == games_before
    assert NightTable.objects.get(pk=table["id"]).game is None
    assert client.post(url, result_body(table), format="json").status_code == 201
    twice = client.post(url, result_body(table), format="json")
    assert twice.status_code == 400 and "already entered" in twice.json()["fields"]["table"][0]
    assert Game.objects.count() == games_before + 1


def test_a_tables_result_names_the_players_drawn_to_it(api, league, players, night_id):
    client = api("olive")
    url = f"/api/nights/{night_id}"
    assert client.post(f"{url}/guests/", {"name": "Gus"}, format="json").status_code == 201
    first, second = client.post(f"{url}/draw/").json()["rounds"][0]["tables"]
    assert (len(first["seats"]), len(second["seats"])) == (3, 2)
    entered = client.post(f"{url}/tables/{first['id']}/result/", result_body(first), format="json")
    assert entered.status_code == 201  # ratings exist: the refusals below must not move them
    ratings = sorted(league.ratings.values_list("player_id", "rating", "games_played"))
    games = Game.objects.count()
    result = f"{url}/tables/{second['id']}/result/"

    swapped = result_body(second)
    swapped["participants"][1]["player"] = first["seats"][0]["player"]
    response = client.post(result, swapped, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "participants.1.player": [
            f"{first['seats'][0]['player_name']} sat at table 1, not at table 2 of round 1."
        ],
        "participants": [
            "Everyone drawn to table 2 of round 1 is in its result: "
            f"{second['seats'][1]['player_name']} is missing."
        ],
    }
    alone = result_body(second)
    alone["participants"] = alone["participants"][:1]
    response = client.post(result, alone, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["participants"]
    assert Game.objects.count() == games
    assert sorted(league.ratings.values_list("player_id", "rating", "games_played")) == ratings
    assert NightTable.objects.get(pk=second["id"]).game is None
    assert client.post(result, result_body(second), format="json").status_code == 201


def test_a_tables_game_keeps_its_players_when_corrected(api, users, league, players, night_id):
    client = api("olive")
    (table,) = client.post(f"/api/nights/{night_id}/draw/").json()["rounds"][0]["tables"]
    entered = client.post(
        f"/api/nights/{night_id}/tables/{table['id']}/result/", result_body(table), format="json"
    )
    assert entered.status_code == 201
    game = f"/api/games/{entered.json()['id']}/"
    uma = services.guest_add(league=league, name="Uma", by=users["olive"]).player

    def written():
        return (
            client.get(game).json(),
            sorted(league.ratings.values_list("player_id", "rating", "games_played")),
            AuditEntry.objects.count(),
        )

    before = written()
    kept = (
        "This game was played at table 1 of round 1 on the night of 2026-11-20: a correction "
        "keeps the players drawn to that table (their results and seats may change)."
    )
    left_out = table["seats"][3]["player_name"]
    swapped = result_body(table, notes="Fixed")
    swapped["participants"][3]["player"] = uma.pk
    for send in (client.patch, client.put):
        response = send(game, swapped, format="json")
        assert response.status_code == 400, send
        assert response.json()["error"] == "validation_error"
        assert response.json()["fields"] == {
            "participants.3.player": ["Uma was not drawn to table 1 of round 1."],
            "participants": [
                kept,
                f"Everyone drawn to table 1 of round 1 is in its result: {left_out} is missing.",
            ],
        }
    fewer = result_body(table)
    fewer["participants"] = fewer["participants"][:3]
    response = client.patch(game, fewer, format="json")
    assert response.status_code == 400
    assert list(response.json()["fields"]) == ["participants"]
    assert written() == before

    # The same players in other seats, with other results; or another field alone.
    reseated = result_body(table)
    for row in reseated["participants"]:
        row["seat"] = 5 - row["seat"]
    response = client.patch(game, reseated, format="json")
    assert response.status_code == 200, response.json()
    by_seat = sorted(response.json()["participants"], key=lambda p: p["seat"])
    assert [p["player"] for p in by_seat] == [s["player"] for s in reversed(table["seats"])]
    response = client.put(game, {"notes": "Recounted"}, format="json")
    assert response.status_code == 200 and response.json()["notes"] == "Recounted"


def test_a_table_of_another_night_or_an_unseen_night_is_not_found(api, users, league, night_id):
    client = api("olive")
    (table,) = client.post(f"/api/nights/{night_id}/draw/").json()["rounds"][0]["tables"]
    other = client.post(
        "/api/nights/",
        {"league": league.pk, "played_on": "2026-11-21", "edition": "base"},
        format="json",
    ).json()["id"]
    body = result_body(table)
    assert (
        client.post(
            f"/api/nights/{other}/tables/{table['id']}/result/", body, format="json"
        ).status_code
        == 404
    )
    for unknown in (table["id"] + 1000, 2**63, 10**30):
        response = client.post(
            f"/api/nights/{night_id}/tables/{unknown}/result/", body, format="json"
        )
        assert response.status_code == 404, unknown
        assert response.json()["error"] == "not_found"
    League.objects.filter(pk=league.pk).update(is_public=False)
    for path, data in (
        (f"tables/{table['id']}/result/", body),
        ("attendance/", {"player": 1, "present": True}),
        ("guests/", {"name": "Gus"}),
        ("undo/", None),
    ):
        response = api("quinn").post(f"/api/nights/{night_id}/{path}", data, format="json")
        assert response.status_code == 404, path
    assert NightTable.objects.get(pk=table["id"]).game is None
