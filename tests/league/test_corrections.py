"""Every correction works: each kind of game (a score pad with zeros, the calculator's cards,
totals only, Cantankerous Cats with no Mischief points), logged on the page or through the
API, is corrected on the page (as a browser sends the form it is shown) and through the API;
so is a game whose player has left the league since. Every kind of game logged in every way
(the page, the API, a night's table, a BG Stats import) is corrected both ways in
test_corrections_page_api.py and test_corrections_nights_bgstats.py, over the kinds of
test_corrections_kinds.py."""

from __future__ import annotations

import datetime as dt
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from league.clubs import services as clubs
from league.models import Game
from league.nights import services as nights
from league.results import entry as result_entry
from league.results import seating
from tests.league.conftest import PAD, olive_opens_night, score_pad
from tests.league.test_pages_entry import (
    cards_table,
    costume_moved_to_ned_score,
    field_errors,
    mischief_form,
    page,
    totals_form,
)

pytestmark = pytest.mark.django_db

DAY = "2026-03-03"
CARDS = "/games/new/?league=tuesday&edition=base&players=2&mode=cards:base"
TOTALS_2 = "/games/new/?league=tuesday&edition=base&players=2&mode=totals"


class _ResultForm(HTMLParser):
    """What a browser sends from the page's result form: its action and its fields' values
    (ticked boxes and chosen options only), before anyone changes anything."""

    def __init__(self) -> None:
        super().__init__()
        self.action = ""
        self.values: dict[str, list[str]] = {}
        self._inside = False
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            # The result form posts to its own page, back to the top of the entry.
            if a.get("method") == "post" and "#entry-top" in (a.get("action") or ""):
                self._inside, self.action = True, a["action"]
            return
        if not self._inside:
            return
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.values.setdefault(name, []).append(a.get("value", "on"))
            else:
                self.values.setdefault(name, []).append(a.get("value") or "")
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select].append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = [""]

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] = [self.values[self._textarea][0] + data]

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self._inside = False


def opened(client, url: str) -> tuple[str, dict[str, list[str]]]:
    """The correction page's form: where it posts and what it sends unchanged."""
    response = client.get(url)
    assert response.status_code == 200, page(response)[-2000:]
    form = _ResultForm()
    form.feed(page(response))
    assert form.action, "the page shows the result form"
    split = urlsplit(form.action.replace("&amp;", "&"))
    return f"{split.path}?{split.query}", form.values


def preview_and_save(client, url: str, data: dict) -> Game:
    response = client.post(url, {**data, "action": "preview"})
    assert response.status_code == 200, re.findall(r"<p>(.*?)</p>", page(response))
    digest = re.search(r'name="previewed" value="(\w+)"', page(response)).group(1)
    response = client.post(url, {**data, "action": "save", "previewed": digest})
    assert response.status_code == 302, page(response)[-2000:]
    game_id = int(re.search(r"/games/(\d+)/", response["Location"]).group(1))
    return Game.objects.get(pk=game_id)


def results(game: Game) -> list[dict]:
    return [p.result for p in game.participants.order_by("seat")]


def pad_seat(seat: int, player, *, total: int, fed: int, pad: tuple[int, ...]) -> dict:
    return {
        f"seat{seat}-player": player.pk,
        f"seat{seat}-seat": seat,
        f"seat{seat}-total_vp": total,
        f"seat{seat}-fed_cats": fed,
        **{f"seat{seat}-{name}": value for name, value in zip(PAD, pad, strict=True)},
    }


# --- on the page -------------------------------------------------------------------------------


def test_a_calculator_game_reopens_with_its_cards_and_is_scored_again(as_user, league, players):
    logged = preview_and_save(as_user("mia"), CARDS, cards_table(players))
    before = results(logged)
    assert logged.scored_with == "base"
    mia_cards = logged.participants.get(seat=1).cards
    assert mia_cards["cats"] == ["Bronte"] and mia_cards["strays"] == ["Florence"]
    assert mia_cards["counts"]["food_tuna"] == 2

    url, form = opened(as_user("olive"), f"/leagues/tuesday/games/{logged.pk}/edit/")
    assert "mode=cards%3Abase" in url or "mode=cards:base" in url
    assert form["seat1-cats"] == ["Bronte"] and form["seat1-strays"] == ["Florence"]
    assert form["seat1-food_tuna"] == ["2"] and form["seat2-toy_cat_tower"] == ["2"]
    assert form["seat1-food_milk"] == ["1"] and form["seat2-food_milk"] == ["0"]

    # Mia's costume was Ned's: the correction moves it and the calculator scores both again.
    form["seat1-costumes"], form["seat2-costumes"] = ["0"], ["1"]
    corrected = preview_and_save(as_user("olive"), url, form)
    assert corrected.pk == logged.pk
    assert corrected.participants.get(seat=2).cards["counts"]["costumes"] == 1
    again = costume_moved_to_ned_score()
    assert results(corrected) == result_entry.league_results(again)
    assert results(corrected) != before


def test_a_calculator_game_is_corrected_as_totals_with_its_zero_lines(as_user, league, players):
    logged = preview_and_save(as_user("mia"), CARDS, cards_table(players))
    url = f"/leagues/tuesday/games/{logged.pk}/edit/?league=tuesday&edition=base&players=2&mode=totals"
    _, form = opened(as_user("olive"), url)
    # The calculator's zero lines (toys, catnip, VP tokens, food penalty) are shown as 0.
    assert [form[f"seat1-{name}"] for name in PAD] == [["7"], ["0"], ["6"], ["0"], ["0"], ["0"]]
    form["seat1-total_vp"], form["seat1-costumes_vp"] = ["16"], ["9"]
    corrected = preview_and_save(as_user("olive"), url, form)
    assert corrected.participants.get(seat=1).result == score_pad(16, 2, (7, 0, 9, 0, 0, 0))
    # Totals replace the cards: nothing is kept that no longer gives this result.
    assert corrected.scored_with == "" and corrected.participants.get(seat=1).cards == {}


def test_a_score_pad_with_zeros_is_logged_and_corrected_on_the_page(as_user, league, players):
    data = {
        "played_on": DAY,
        **pad_seat(1, players["mia"], total=20, fed=4, pad=(14, 0, 6, 0, 0, 0)),
        **pad_seat(2, players["ned"], total=10, fed=2, pad=(12, 0, 0, 0, 0, -2)),
    }
    logged = preview_and_save(as_user("mia"), TOTALS_2, data)
    assert results(logged)[1]["toys_vp"] == 0 and results(logged)[1]["food_penalty_vp"] == -2
    url, form = opened(as_user("olive"), f"/leagues/tuesday/games/{logged.pk}/edit/")
    assert "mode=totals" in url and form["seat2-costumes_vp"] == ["0"]
    # Ned's penalty was a mistake: 0 is a line like any other.
    form["seat2-food_penalty_vp"], form["seat2-total_vp"] = ["0"], ["12"]
    corrected = preview_and_save(as_user("olive"), url, form)
    assert results(corrected)[1] == score_pad(12, 2, (12, 0, 0, 0, 0, 0))


def test_a_score_pad_line_left_empty_is_named_as_the_page_names_it(as_user, league, players):
    data = {
        "played_on": DAY,
        **pad_seat(1, players["mia"], total=20, fed=4, pad=(14, 0, 6, 0, 0, 0)),
        **pad_seat(2, players["ned"], total=10, fed=2, pad=(12, 0, 0, 0, 0, -2)),
    }
    data["seat2-vp_tokens_vp"] = ""
    response = as_user("mia").post(TOTALS_2, {**data, "action": "preview"})
    assert response.status_code == 400
    [message] = field_errors(page(response), "id_seat2-vp_tokens_vp")
    assert "missing: VP tokens VP)" in message and "vp_tokens_vp" not in message


def test_a_totals_only_game_is_corrected_on_the_page(as_user, league, players):
    data = totals_form(DAY, (players["mia"], 0, 0), (players["ned"], 3, None))
    logged = preview_and_save(as_user("mia"), TOTALS_2, data)
    assert results(logged) == [{"total_vp": 0, "fed_cats": 0}, {"total_vp": 3}]
    url, form = opened(as_user("olive"), f"/leagues/tuesday/games/{logged.pk}/edit/")
    assert form["seat1-total_vp"] == ["0"] and form["seat1-fed_cats"] == ["0"]
    form["seat2-total_vp"] = ["0"]
    form["seat2-fed_cats"] = ["1"]
    corrected = preview_and_save(as_user("olive"), url, form)
    assert [(p.rank, p.score) for p in corrected.participants.order_by("seat")] == [(2, 0), (1, 0)]


def test_a_cantankerous_cats_game_with_no_mischief_points_is_logged_and_corrected(
    as_user, friday, players
):
    url = "/games/new/?league=friday&edition=standard&players=2&mode=totals"
    seats = ((players["mia"], 0), (players["ned"], 0))
    data = mischief_form(DAY, *seats, winner=2, win_type="feral_victory")
    logged = preview_and_save(as_user("mia"), url, data)
    assert results(logged) == [
        {"mischief_points": 0},
        {"winner": True, "win_type": "feral_victory", "mischief_points": 0},
    ]
    edit, form = opened(as_user("olive"), f"/leagues/friday/games/{logged.pk}/edit/")
    assert form["seat1-mischief_points"] == ["0"] and form["seat2-winner"] == ["on"]
    form["seat1-mischief_points"] = ["5"]
    corrected = preview_and_save(as_user("olive"), edit, form)
    assert [(p.rank, p.score) for p in corrected.participants.order_by("seat")] == [(2, 5), (1, 0)]


# --- through the API ---------------------------------------------------------------------------


def api_game(api, league, participants, **extra):
    response = api("mia").post(
        "/api/games/",
        {"league": league.pk, "played_on": DAY, "participants": participants, **extra},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def pad_result(total, fed, pad):
    return {"total_vp": total, "fed_cats": fed, **dict(zip(PAD, pad, strict=True))}


def test_every_kind_of_game_is_corrected_through_the_api(as_user, api, league, friday, players):
    mia, ned = players["mia"].pk, players["ned"].pk
    patch = api("olive")

    # The calculator's game: a correction of the notes keeps its cards; new results, given as
    # a score pad with zero lines, replace them.
    scored = preview_and_save(as_user("mia"), CARDS, cards_table(players))
    response = patch.patch(f"/api/games/{scored.pk}/", {"notes": "Table 2"}, format="json")
    assert response.status_code == 200, response.json()
    assert Game.objects.get(pk=scored.pk).scored_with == "base"
    assert Game.objects.get(pk=scored.pk).participants.get(seat=1).cards["cats"] == ["Bronte"]
    body = {
        "participants": [
            {"player": mia, "seat": 1, "result": pad_result(13, 2, (7, 0, 6, 0, 0, 0))},
            {"player": ned, "seat": 2, "result": pad_result(14, 2, (14, 0, 0, 0, 0, 0))},
        ]
    }
    response = patch.patch(f"/api/games/{scored.pk}/", body, format="json")
    assert response.status_code == 200, response.json()
    corrected = Game.objects.get(pk=scored.pk)
    assert corrected.scored_with == "" and corrected.participants.get(seat=2).rank == 1
    assert response.json()["participants"][0]["result"]["toys_vp"] == 0

    # A score pad with zeros, logged through the API.
    pad_id = api_game(
        api,
        league,
        [
            {"player": mia, "result": pad_result(0, 0, (0, 0, 0, 0, 0, 0))},
            {"player": ned, "result": pad_result(-2, 0, (0, 0, 0, 0, 0, -2))},
        ],
    )
    body["participants"][1]["result"] = pad_result(0, 1, (0, 0, 0, 0, 0, 0))
    body["participants"][0]["result"] = pad_result(0, 0, (0, 0, 0, 0, 0, 0))
    response = patch.patch(f"/api/games/{pad_id}/", body, format="json")
    assert response.status_code == 200, response.json()
    assert [p["rank"] for p in response.json()["participants"]] == [2, 1]

    # A line left out is named as the page names it, on the field it is missing from.
    del body["participants"][1]["result"]["vp_tokens_vp"]
    response = patch.patch(f"/api/games/{pad_id}/", body, format="json")
    assert response.status_code == 400
    [message] = response.json()["fields"]["participants.1.vp_tokens_vp"]
    assert "VP tokens VP" in message and "vp_tokens_vp" not in message

    # Totals only.
    totals_id = api_game(
        api,
        league,
        [{"player": mia, "result": {"total_vp": 0}}, {"player": ned, "result": {"total_vp": 4}}],
    )
    body = {
        "participants": [
            {"player": mia, "seat": 1, "result": {"total_vp": 5}},
            {"player": ned, "seat": 2, "result": {"total_vp": 0}},
        ]
    }
    response = patch.patch(f"/api/games/{totals_id}/", body, format="json")
    assert response.status_code == 200, response.json()
    assert [p["score"] for p in response.json()["participants"]] == [5, 0]

    # Cantankerous Cats with no Mischief points, logged on the page and through the API.
    cats = [
        {"player": mia, "result": {"mischief_points": 0}},
        {
            "player": ned,
            "result": {"mischief_points": 0, "winner": True, "win_type": "feral_victory"},
        },
    ]
    cats_id = api_game(api, friday, cats, edition="standard")
    cats[0]["result"] = {"mischief_points": 9, "winner": True, "win_type": "nine_mischief"}
    cats[1]["result"] = {"mischief_points": 0}
    response = patch.patch(f"/api/games/{cats_id}/", {"participants": cats}, format="json")
    assert response.status_code == 200, response.json()
    assert [(p["rank"], p["score"]) for p in response.json()["participants"]] == [(1, 9), (2, 0)]


def test_a_night_tables_calculator_game_keeps_its_cards_and_round(as_user, league, players, users):
    night = olive_opens_night(
        league, users, dt.date(2026, 3, 3), [players["mia"], players["ned"]], rounds=1
    )
    table = nights.round_draw(night=night, by=users["olive"]).tables.get()
    data = cards_table(players)
    data["seat1-player"], data["seat2-player"] = seating.table_setup(table)
    url = (
        f"/leagues/tuesday/nights/{night.pk}/tables/{table.pk}/result/"
        "?league=tuesday&edition=base&players=2&mode=cards:base"
    )
    client = as_user("olive")
    response = client.post(url, {**data, "action": "preview"})
    assert response.status_code == 200, re.findall(r"<p>(.*?)</p>", page(response))
    digest = re.search(r'name="previewed" value="(\w+)"', page(response)).group(1)
    assert client.post(url, {**data, "action": "save", "previewed": digest}).status_code == 302
    game = Game.objects.get(night_table=table)
    assert (game.scored_with, game.night_round) == ("base", 1)
    _, form = opened(client, f"/leagues/tuesday/games/{game.pk}/edit/")
    assert form["seat1-cats"] == ["Bronte"]


def test_a_game_whose_player_has_left_the_league_is_still_corrected(
    as_user, api, league, players, users, log_game
):
    game = log_game("olive", dt.date(2026, 3, 3), ("mia", 20, 3), ("ned", 10, 2))
    ned = players["ned"]
    clubs.member_remove(membership=league.memberships.get(player=ned), by=users["olive"])
    # A new game cannot seat Ned any more; the game he played keeps him, and is corrected.
    new = page(as_user("mia").get(TOTALS_2))
    assert f'<option value="{ned.pk}"' not in new
    url, form = opened(as_user("olive"), f"/leagues/tuesday/games/{game.pk}/edit/")
    assert form["seat2-player"] == [str(ned.pk)]
    form["seat1-total_vp"], form["seat1-fed_cats"] = ["0"], ["0"]
    corrected = preview_and_save(as_user("olive"), url, form)
    assert [(p.player_id, p.rank, p.score) for p in corrected.participants.order_by("seat")] == [
        (players["mia"].pk, 2, 0),
        (ned.pk, 1, 10),
    ]
    assert corrected.participants.get(player=ned).rating_delta > 0
    response = api("olive").patch(f"/api/games/{game.pk}/", {"notes": "Recounted"}, format="json")
    assert response.status_code == 200, response.json()
    # Whoever was not at the table, and is no member, still cannot be put in it.
    body = {
        "participants": [
            {"player": players["mia"].pk, "result": {"total_vp": 0}},
            {"player": players["quinn"].pk, "result": {"total_vp": 10}},
        ]
    }
    response = api("olive").patch(f"/api/games/{game.pk}/", body, format="json")
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "participants.1.player": ["Quinn is not a member of Tuesday Club."]
    }
    form["seat2-player"] = [str(players["quinn"].pk)]
    response = as_user("olive").post(url, {**form, "action": "preview"})
    assert response.status_code == 400
    assert "Select a valid choice" in field_errors(page(response), "id_seat2-player")[0]
