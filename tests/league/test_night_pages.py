"""The game-night and confirmation pages through Django's test client: organisers open nights,
draw and manage who is here; members enter a table's result in the league's result form,
pre-filled with the table; participants confirm or dispute; organisers settle disputes."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from league.clubs import services
from league.models import Game, GameNight, League, NightTable, Player
from league.nights import services as nights
from league.results import checks, confirmation
from league.results import seating as night_seating
from tests.league.conftest import members, olive_opens_night
from tests.league.test_pages_entry import field_errors, page, previewed

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)


@pytest.fixture
def night(users, league, players):
    return olive_opens_night(league, users, DAY, members(players), rounds=2)


def test_an_organiser_opens_a_night_from_the_form(as_user, league, players):
    client = as_user("olive")
    form = client.get("/leagues/tuesday/nights/new/")
    assert form.status_code == 200 and "Who is here" in page(form)
    assert "Solitaire" not in page(form)  # not a table game
    response = client.post(
        "/leagues/tuesday/nights/new/",
        {
            "played_on": "2026-11-20",
            "edition": "base",
            "rounds": 3,
            "first_round": "random",
            "place": "Club room",
            "present": [players["mia"].pk, players["ned"].pk, players["pat"].pk],
        },
    )
    night = GameNight.objects.get()
    assert response.status_code == 302 and response.url == f"/leagues/tuesday/nights/{night.pk}/"
    assert (night.min_table, night.max_table, night.first_round) == (2, 4, "random")
    assert night.attendees.count() == 3


def test_a_table_size_the_edition_does_not_allow_is_shown_beside_the_field(as_user, league):
    response = as_user("olive").post(
        "/leagues/tuesday/nights/new/",
        {
            "played_on": "2026-11-20",
            "edition": "base",
            "rounds": 2,
            "max_table": 6,
            "first_round": "rating",
        },
    )
    assert response.status_code == 400
    assert field_errors(page(response), "id_max_table") == ["Base game seats 2 to 4."]
    assert not GameNight.objects.exists()


@pytest.mark.parametrize("who", ["mia", "quinn"])
def test_only_organisers_open_nights_and_draw(as_user, night, who):
    client = as_user(who)
    assert client.get("/leagues/tuesday/nights/new/").status_code == 403
    assert client.post(f"/leagues/tuesday/nights/{night.pk}/draw/").status_code == 403
    assert not night.night_rounds.exists()


def test_anyone_sees_a_public_leagues_night(as_user, night):
    response = as_user(None).get(f"/leagues/tuesday/nights/{night.pk}/")
    assert response.status_code == 200
    assert "Draw round" not in page(response)


def test_draw_then_enter_a_tables_result_prefilled_with_its_seats(as_user, night, players):
    client = as_user("olive")
    client.post(f"/leagues/tuesday/nights/{night.pk}/draw/")
    table = NightTable.objects.get(round__night=night, number=1)
    seated = night_seating.table_setup(table)
    assert len(seated) == 4
    html = page(client.get(f"/leagues/tuesday/nights/{night.pk}/"))
    assert "Enter result" in html and "How round 1 was drawn" in html and "starts" in html

    client = as_user("mia")
    url = f"/leagues/tuesday/nights/{night.pk}/tables/{table.pk}/result/"
    setup = page(client.get(url))
    assert 'value="4"' in setup  # four players, from the table
    query = "?league=tuesday&edition=base&players=4&mode=totals"
    entry = page(client.get(url + query))
    for index, player_id in enumerate(seated, start=1):
        chosen = re.search(rf'name="seat{index}-player"[^>]*>(.*?)</select>', entry, re.S)
        assert f'<option value="{player_id}" selected>' in chosen.group(1)
    data = {"played_on": "2026-11-20", "place": ""}
    for index, player_id in enumerate(seated, start=1):
        data |= {
            f"seat{index}-player": player_id,
            f"seat{index}-seat": index,
            f"seat{index}-total_vp": 40 - index,
            f"seat{index}-fed_cats": 3,
        }
    digest = previewed(client, url + query, data)
    response = client.post(url + query, {**data, "action": "save", "previewed": digest})
    assert response.status_code == 302 and response.url == f"/leagues/tuesday/nights/{night.pk}/"
    table.refresh_from_db()
    assert table.game is not None and table.game.participants.count() == 4
    night_page = page(client.get(response.url))
    assert "+1 pt" in night_page  # the winner's night point
    again = client.get(url)
    assert again.status_code == 302 and again.url.endswith(f"/games/{table.game_id}/")


def test_a_tables_form_starts_from_the_nights_entry_values(as_user, night, monkeypatch):
    """The page takes a table's edition where the API does (``nights.entry_values``)."""
    as_user("olive").post(f"/leagues/tuesday/nights/{night.pk}/draw/")
    table = NightTable.objects.get(round__night=night, number=1)
    monkeypatch.setattr(
        nights, "entry_values", lambda n: {"edition": "premium", "played_on": DAY, "place": ""}
    )
    setup = page(
        as_user("mia").get(f"/leagues/tuesday/nights/{night.pk}/tables/{table.pk}/result/")
    )
    assert re.search(r'<input type="hidden" name="edition" value="premium"', setup)


def test_a_tables_form_asks_only_how_results_are_entered(as_user, night):
    """The night knows the table's edition and size: the form states them instead of asking,
    and a query string cannot change them."""
    as_user("olive").post(f"/leagues/tuesday/nights/{night.pk}/draw/")
    table = NightTable.objects.get(round__night=night, number=1)
    url = f"/leagues/tuesday/nights/{night.pk}/tables/{table.pk}/result/"
    client = as_user("mia")
    setup = page(client.get(url))
    assert "Base game · 4 players, as drawn for this table" in setup
    assert 'type="radio" name="edition"' not in setup and "Number of players" not in setup
    assert 'type="radio" name="mode"' in setup
    entry = page(client.get(url + "?league=tuesday&edition=premium&players=2&mode=totals"))
    assert "Base game · 4 players" in entry and entry.count("Total VP") == 4


def test_a_player_not_drawn_to_the_table_is_refused_beside_their_row_from_the_preview_on(
    as_user, users, league, night, players
):
    as_user("olive").post(f"/leagues/tuesday/nights/{night.pk}/draw/")
    table = NightTable.objects.get(round__night=night, number=1)
    seated = night_seating.table_setup(table)
    # Uma is a member of the league who is not here tonight.
    uma = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    left_out = Player.objects.get(pk=seated[-1])
    client = as_user("mia")
    url = f"/leagues/tuesday/nights/{night.pk}/tables/{table.pk}/result/"
    url += "?league=tuesday&edition=base&players=4&mode=totals"
    data = {"played_on": "2026-11-20", "place": ""}
    for index, player_id in enumerate([*seated[:-1], uma.pk], start=1):
        data |= {
            f"seat{index}-player": player_id,
            f"seat{index}-seat": index,
            f"seat{index}-total_vp": 40 - index,
            f"seat{index}-fed_cats": 3,
        }
    # The preview already says so, as Save does (a digest from elsewhere changes nothing).
    for action in ("preview", "save"):
        response = client.post(url, {**data, "action": action, "previewed": "0" * 64})
        assert response.status_code == 400, action
        html = page(response)
        assert "Preview: check the result" not in html
        assert field_errors(html, "id_seat4-player") == ["Uma was not drawn to table 1 of round 1."]
        assert (
            f"Everyone drawn to table 1 of round 1 is in its result: {left_out} is missing." in html
        )
    assert not Game.objects.exists()
    table.refresh_from_db()
    assert table.game is None


def table_game(users, night):
    """Round 1 drawn and its table's game entered: seat 1 wins, then in seat order."""
    table = nights.round_draw(night=night, by=users["olive"]).tables.get()
    participants = [
        checks.ParticipantInput(player_id=pid, seat=seat, result={"total_vp": 40 - seat})
        for seat, pid in enumerate(night_seating.table_setup(table), start=1)
    ]
    game = nights.table_game_record(
        table=table, logged_by=users["mia"], participants=participants, played_on=DAY
    )
    return table, game


def correction(player_ids, scores):
    data = {"played_on": "2026-11-20", "place": "", "notes": "Recounted"}
    for index, (player_id, vp) in enumerate(zip(player_ids, scores, strict=True), start=1):
        data |= {
            f"seat{index}-player": player_id,
            f"seat{index}-seat": index,
            f"seat{index}-total_vp": vp,
            f"seat{index}-fed_cats": 3,
        }
    return data


def test_correcting_a_tables_game_with_someone_else_is_refused_beside_their_row(
    as_user, users, league, night
):
    table, game = table_game(users, night)
    seated = night_seating.table_setup(table)
    uma = services.guest_add(league=league, name="Uma", by=users["olive"]).player
    left_out = Player.objects.get(pk=seated[-1])
    before = list(game.participants.order_by("seat").values_list("player_id", "score"))
    client = as_user("olive")
    url = f"/leagues/tuesday/games/{game.pk}/edit/"
    assert "its players stay the ones drawn to that table" in page(client.get(url))
    url += "?league=tuesday&edition=base&players=4&mode=totals"
    data = correction([*seated[:-1], uma.pk], [30, 31, 32, 33])
    for action in ("preview", "save"):
        response = client.post(url, {**data, "action": action, "previewed": "0" * 64})
        assert response.status_code == 400, action
        html = page(response)
        assert field_errors(html, "id_seat4-player") == ["Uma was not drawn to table 1 of round 1."]
        assert "a correction keeps the players drawn to that table" in html
        assert (
            f"Everyone drawn to table 1 of round 1 is in its result: {left_out} is missing." in html
        )
    game.refresh_from_db()
    assert game.notes == ""
    assert list(game.participants.order_by("seat").values_list("player_id", "score")) == before
    assert not game.participants.filter(player=uma).exists()


def test_a_tables_game_is_corrected_with_its_players_in_other_seats(as_user, users, night):
    table, game = table_game(users, night)
    reordered = list(reversed(night_seating.table_setup(table)))
    client = as_user("olive")
    url = (
        f"/leagues/tuesday/games/{game.pk}/edit/?league=tuesday&edition=base&players=4&mode=totals"
    )
    data = correction(reordered, [20, 35, 25, 30])
    digest = previewed(client, url, data)
    response = client.post(url, {**data, "action": "save", "previewed": digest})
    assert response.status_code == 302 and response.url == f"/leagues/tuesday/games/{game.pk}/"
    game.refresh_from_db()
    assert game.notes == "Recounted"
    rows = game.participants.order_by("seat").values_list("player_id", "score", "rank")
    assert list(rows) == [
        (reordered[0], 20, 4),
        (reordered[1], 35, 1),
        (reordered[2], 25, 3),
        (reordered[3], 30, 2),
    ]
    table.refresh_from_db()
    assert table.game_id == game.pk


def test_people_leave_and_guests_arrive_from_the_night_page(as_user, night, players):
    client = as_user("olive")
    response = client.post(
        f"/leagues/tuesday/nights/{night.pk}/people/",
        {"player": players["pat"].pk, "present": "0"},
    )
    assert response.status_code == 302
    assert not night.attendees.get(player=players["pat"]).present
    response = client.post(f"/leagues/tuesday/nights/{night.pk}/guests/", {"name": "Rosa"})
    assert response.status_code == 302
    assert night.attendees.filter(player__name="Rosa", present=True).exists()
    duplicate = client.post(f"/leagues/tuesday/nights/{night.pk}/guests/", {"name": "Rosa"})
    assert duplicate.status_code == 400
    assert field_errors(page(duplicate), "id_name") == [
        "Tuesday Club already has a player called &#x27;Rosa&#x27;: choose another name."
    ]


def test_drawing_past_the_last_round_says_why(as_user, night):
    client = as_user("olive")
    client.post(f"/leagues/tuesday/nights/{night.pk}/draw/")
    response = client.post(f"/leagues/tuesday/nights/{night.pk}/draw/", follow=True)
    assert "still being played" in page(response)
    assert night.night_rounds.count() == 1


# --- confirmation pages -------------------------------------------------------------------


@pytest.fixture
def waiting(users, league, players, log_game):
    league.confirmation = League.Confirmation.ANOTHER
    league.save()
    return log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))


def test_the_other_player_sees_it_waiting_and_confirms_it(as_user, waiting):
    client = as_user("ned")
    assert "Waiting for you to confirm" in page(client.get("/accounts/me/"))
    assert "1 game waiting for you to confirm" in page(client.get("/"))
    html = page(client.get(f"/leagues/tuesday/games/{waiting.pk}/"))
    assert "Confirm this result" in html and "Dispute" in html
    response = client.post(f"/leagues/tuesday/games/{waiting.pk}/confirm/")
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.CONFIRMED
    assert "Waiting for you to confirm" not in page(client.get("/accounts/me/"))
    assert "waiting for you to confirm" not in page(client.get("/"))


def test_whoever_logged_it_cannot_confirm_it(as_user, waiting):
    client = as_user("mia")
    assert "Confirm this result" not in page(client.get(f"/leagues/tuesday/games/{waiting.pk}/"))
    response = client.post(f"/leagues/tuesday/games/{waiting.pk}/confirm/", follow=True)
    assert "another participant confirms it" in page(response)
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.PENDING


def test_a_dispute_reaches_the_organiser_who_settles_it(as_user, waiting):
    client = as_user("ned")
    empty = client.post(
        f"/leagues/tuesday/games/{waiting.pk}/dispute/", {"reason": ""}, follow=True
    )
    assert "Say what is wrong" in page(empty)
    client.post(f"/leagues/tuesday/games/{waiting.pk}/dispute/", {"reason": "I had 25"})
    client = as_user("olive")
    league_page = page(client.get("/leagues/tuesday/"))
    assert "Disputed results to settle" in league_page and "I had 25" in league_page
    dispute = waiting.disputes.get()
    response = client.post(
        f"/leagues/tuesday/disputes/{dispute.pk}/resolve/", {"action": "confirm", "note": "ok"}
    )
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.CONFIRMED
    assert (
        as_user("ned").post(f"/leagues/tuesday/disputes/{dispute.pk}/resolve/").status_code == 403
    )


def test_the_settings_page_sets_the_confirmation_rule(as_user, league):
    required = {"name": "Tuesday Club", "provisional_games": 5}
    chosen = {"is_public": "on", "confirmation": "all", "confirmation_days": 3}
    response = as_user("olive").post("/leagues/tuesday/settings/", required | chosen)
    assert response.status_code == 302
    league.refresh_from_db()
    assert (league.confirmation, league.confirmation_days) == ("all", 3)
    bad = as_user("olive").post("/leagues/tuesday/settings/", required | {"confirmation_days": 0})
    assert bad.status_code == 400 and field_errors(page(bad), "id_confirmation_days")


def test_a_confirmed_league_game_changes_nothing_for_final_at_once(
    users, league, players, log_game
):
    game = log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert game.status == Game.Status.CONFIRMED
    assert checks.confirmers(game) == []


def test_the_change_log_says_a_game_was_confirmed_automatically(as_user, waiting, league):
    Game.objects.filter(pk=waiting.pk).update(created_at=waiting.created_at - dt.timedelta(days=8))
    assert confirmation.games_confirm_overdue() == 1
    html = page(as_user("olive").get("/leagues/tuesday/changes/"))
    assert (
        "<em>automatically</em>" in html
        and "Nobody confirmed or disputed it within 7 days." in html
    )


def test_a_game_logged_in_a_confirming_league_says_it_waits(as_user, league, players):
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ANOTHER)
    client = as_user("mia")
    url = "/games/new/?league=tuesday&edition=base&players=2&mode=totals"
    data = {"played_on": "2026-11-20"}
    for index, (name, vp) in enumerate((("mia", 30), ("ned", 20)), start=1):
        data |= {
            f"seat{index}-player": players[name].pk,
            f"seat{index}-seat": index,
            f"seat{index}-total_vp": vp,
            f"seat{index}-fed_cats": 3,
        }
    digest = previewed(client, url, data)
    response = client.post(url, {**data, "action": "save", "previewed": digest}, follow=True)
    assert "it is rated once confirmed (another participant with a login confirms)" in page(
        response
    )
    assert Game.objects.get().status == Game.Status.PENDING
