"""The result-entry pages: who may log games, the setup step, validation errors beside their
fields, the engine-scored preview and saving through `league.results.services.game_record`."""

import datetime as dt
import re

import pytest

from league.clubs import services
from league.models import Game
from league.results import entry as result_entry
from league.results.result_form import _place_errors, _Problems
from tests.league.test_result_entry import WINNER_RESULT

pytestmark = pytest.mark.django_db

CARDS = "/games/new/?league=tuesday&edition=base&players=2&mode=cards:base"
TOTALS = "/games/new/?league=tuesday&edition=base&players=3&mode=totals"
DAY = "2026-03-03"


def page(response) -> str:
    return response.content.decode()


def field_errors(html: str, field_id: str) -> list[str]:
    """The messages shown beside one field (the block with id <field_id>_error)."""
    match = re.search(rf'id="{field_id}_error">(.*?)</div>', html, re.S)
    return re.findall(r"<p>(.*?)</p>", match.group(1)) if match else []


def previewed(client, url, data):
    """Post for a preview and return the digest the Save button carries."""
    response = client.post(url, {**data, "action": "preview"})
    assert response.status_code == 200, page(response)[-3000:]
    return re.search(r'name="previewed" value="(\w+)"', page(response)).group(1)


@pytest.fixture
def mia(client, players, users):
    client.force_login(users["mia"])
    return client


def cards_table(players, **overrides):
    data = {
        "played_on": DAY,
        "seat1-player": players["mia"].pk,
        "seat1-seat": 1,
        "seat1-cats": ["Bronte"],
        "seat1-strays": ["Florence"],
        "seat1-food_tuna": 2,
        "seat1-food_chicken": 1,
        "seat1-food_milk": 1,
        "seat1-costumes": 1,
        "seat2-player": players["ned"].pk,
        "seat2-seat": 2,
        "seat2-cats": ["Sparkle"],
        "seat2-food_tuna": 2,
        "seat2-toy_cat_tower": 2,
    }
    data.update(overrides)
    return data


def costume_moved_to_ned_score() -> result_entry.GameScore:
    """What the calculator makes of cards_table once Mia's costume is moved to Ned."""
    mia = {"food_tuna": 2, "food_chicken": 1, "food_milk": 1}
    ned = {"food_tuna": 2, "toy_cat_tower": 2, "costumes": 1}
    seats = (
        result_entry.SeatHoldings(name="Mia", cats=["Bronte"], strays=["Florence"], counts=mia),
        result_entry.SeatHoldings(name="Ned", cats=["Sparkle"], strays=[], counts=ned),
    )
    return result_entry.score_table(seats, result_entry.deck("base").edition)


def totals_form(played_on, *seats):
    """The totals form's fields: seats as (player, total VP, fed cats or None for blank)."""
    data = {"played_on": played_on}
    for seat, (player, vp, fed) in enumerate(seats, start=1):
        data |= {f"seat{seat}-player": player.pk, f"seat{seat}-seat": seat}
        data[f"seat{seat}-total_vp"] = vp
        if fed is not None:
            data[f"seat{seat}-fed_cats"] = fed
    return data


def mischief_form(played_on, *seats, winner: int, win_type: str | None = None):
    """The Cantankerous Cats form's fields: seats as (player, mischief points), the winner's seat
    ticked and, when given, how they won."""
    data = {"played_on": played_on}
    for seat, (player, points) in enumerate(seats, start=1):
        data |= {f"seat{seat}-player": player.pk, f"seat{seat}-seat": seat}
        data[f"seat{seat}-mischief_points"] = points
    data[f"seat{winner}-winner"] = "on"
    if win_type is not None:
        data[f"seat{winner}-win_type"] = win_type
    return data


def totals_table(players, **overrides):
    mia, ned, pat = (players[name] for name in ("mia", "ned", "pat"))
    return totals_form(DAY, (mia, 30, 5), (ned, 25, None), (pat, 12, None)) | overrides


# --- who may log games -----------------------------------------------------------------------


def test_visitors_are_sent_to_log_in(client, league):
    response = client.get("/games/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")


def test_a_login_without_a_league_is_told_why_it_cannot_log(client, league, users):
    client.force_login(users["vic"])
    response = client.get("/games/new/")
    assert response.status_code == 403 and "not a member of any league" in page(response)


def test_a_member_of_another_league_cannot_log_in_this_one(client, league, players, users):
    other = services.league_create(name="Friday", slug="friday", game="cat-lady", by=users["quinn"])
    assert other.memberships.filter(player=players["quinn"]).exists()
    client.force_login(users["quinn"])
    response = client.get("/games/new/?league=tuesday")
    assert response.status_code == 403 and "Only members of Tuesday Club" in page(response)
    assert client.get("/games/new/?league=nowhere").status_code == 404


def test_several_leagues_are_offered_first(mia, league, players, users):
    friday = services.league_create(
        name="Friday", slug="friday", game="cantankerous-cats", by=users["olive"]
    )
    services.member_add(league=friday, player=players["mia"], by=users["mia"])
    html = page(mia.get("/games/new/"))
    assert (
        'value="friday"' in html and 'value="tuesday"' in html and "Number of players" not in html
    )
    html = page(mia.get("/games/new/?league=friday"))
    assert "Basic game (2–6 players)" in html and "calculator" not in html


# --- the setup step ----------------------------------------------------------------------------


def test_setup_offers_the_engine_card_data_and_the_catalogue_editions(mia, league):
    html = page(mia.get("/games/new/"))
    assert (
        "Base game (2–4 players)" in html
        and "Solitaire (against the cat player) (1 players, not rated)" in html
    )
    for deck in result_entry.available_decks():
        option = re.search(rf'value="cards:{deck.name}".*?</label>', html, re.S).group(0)
        assert deck.label in option
        if deck.is_placeholder:
            assert f'<span class="badge badge-placeholder">{deck.status_note}</span>' in option
        else:
            assert "badge-placeholder" not in option


def test_placeholder_and_incomplete_card_data_are_labelled_and_incomplete_data_refused(
    mia, league, monkeypatch
):
    base = result_entry.deck("base")
    demo = result_entry.Deck(
        name="demo", label="Demo deck", status="placeholder", edition=base.edition
    )
    partial = result_entry.Deck(
        name="partial", label="Partial deck", status="incomplete", edition=base.edition
    )
    monkeypatch.setattr(result_entry, "available_decks", lambda: [base, demo, partial])
    html = page(mia.get("/games/new/"))
    assert (
        '<span class="badge badge-placeholder">placeholder — not the published card list, not rated</span>'
        in html
    )
    assert '<span class="badge badge-placeholder">incomplete card data</span>' in html
    response = mia.get("/games/new/?league=tuesday&edition=base&players=2&mode=cards:partial")
    assert field_errors(page(response), "id_mode") == [
        "Partial deck is incomplete card data: it cannot score a game yet. Enter the totals instead."
    ]
    html = page(mia.get("/games/new/?league=tuesday&edition=base&players=2&mode=cards:demo"))
    assert "Player 2" in html and "badge-placeholder" in html


def test_setup_errors_sit_beside_their_fields(mia, league):
    html = page(mia.get("/games/new/?league=tuesday&edition=base&players=5&mode=totals"))
    assert field_errors(html, "id_players") == ["Base game is played by 2–4 players, not 5."]
    html = page(mia.get("/games/new/?league=tuesday&edition=solitaire&players=1&mode=cards:base"))
    assert field_errors(html, "id_mode") == [
        "The calculator&#x27;s Cat Lady (base game) data scores games of 2, 3, 4 players; "
        "enter the totals for this game instead."
    ]
    html = page(mia.get("/games/new/?league=tuesday&edition=nope&players=2&mode=totals"))
    assert "Select a valid choice" in field_errors(html, "id_edition")[0]


def test_box_of_treats_placeholder_cards_are_scored_with_boxes_and_treats(mia, league, players):
    from engine.catlady.cards import DATA_DIR

    if not (DATA_DIR / "catlady-box-of-treats-placeholder.json").exists():
        pytest.fail("the Box of Treats placeholder deck is missing from engine/catlady/data")
    url = "/games/new/?league=tuesday&edition=box-of-treats&players=2&mode=cards:box-of-treats-placeholder"
    html = page(mia.get(url))
    assert 'name="seat1-food_treat"' in html and 'name="seat1-cat_brushes"' in html
    assert 'name="seat1-boxes" value="Placeholder Gray Cat Box"' in html
    assert "placeholder — not the published card list" in html
    assert "placeholder — not the published card list, not rated" in html
    data = {
        "played_on": DAY,
        "seat1-player": players["mia"].pk,
        "seat1-seat": 1,
        "seat1-cats": ["Shadow", "Placeholder Gray Cat 1"],
        "seat1-boxes": ["Placeholder Gray Cat Box"],
        "seat1-food_treat": 1,
        "seat1-food_tuna": 3,
        "seat2-player": players["ned"].pk,
        "seat2-seat": 2,
        "seat2-cats": ["Keaton"],
        "seat2-food_milk": 2,
    }
    html = page(mia.post(url, {**data, "action": "preview"}))
    pad = re.sub(
        r"\s+",
        " ",
        re.sub(r"<[^>]+>", " ", html[html.index("preview-caption") : html.index("</table>")]),
    )
    assert "Boxes 1 0" in pad and "Placeholder Gray Cat 1: treat -&gt; 1 VP" in html
    digest = re.search(r'name="previewed" value="(\w+)"', html).group(1)
    mia.post(url, {**data, "action": "save", "previewed": digest})
    # The pad has a line the league does not record: total VP and fed cats are kept.
    game = Game.objects.get()
    assert game.edition == "box-of-treats"
    # Its scores come from made-up cards: recorded, not rated, and the game page says why.
    assert not game.rated
    assert all(p.rating_after is None for p in game.participants.all())
    html = page(mia.get(f"/leagues/tuesday/games/{game.pk}/"))
    assert "This game is not rated: it was scored with placeholder card data" in html
    assert [p.result for p in game.participants.order_by("seat")] == [
        {"total_vp": -1, "fed_cats": 2},
        {"total_vp": 2, "fed_cats": 1},
    ]


def test_entry_form_has_a_labelled_control_for_every_input(mia, league):
    html = page(mia.get(CARDS))
    ids = set(re.findall(r'<(?:input|select|textarea)[^>]*\bid="([^"]+)"', html))
    ids -= set(re.findall(r'<input type="hidden"[^>]*\bid="([^"]+)"', html))
    labelled = set(re.findall(r'<label for="([^"]+)"', html))
    assert ids and ids <= labelled, sorted(ids - labelled)
    assert 'name="seat1-food_wild"' in html and 'name="seat2-toy_yarn_ball"' in html
    assert 'name="seat1-strays" value="LeVar Purrton"' in html


def test_the_logged_in_member_sits_in_the_first_seat(mia, league, players):
    html = page(mia.get(CARDS))
    assert f'<option value="{players["mia"].pk}" selected>Mia</option>' in html


# --- cards scored by the engine ----------------------------------------------------------------


def test_preview_shows_the_engine_score_pad_and_feeding_and_saves_nothing(mia, league, players):
    html = page(mia.post(CARDS, {**cards_table(players), "action": "preview"}))
    assert "Score pad worked out by the calculator" in html
    pad = re.sub(r"<[^>]+>|\s+", " ", html[html.index("preview-caption") : html.index("</table>")])
    pad = re.sub(r" +", " ", pad)
    assert "Fed cats 7 3" in pad and "Toys 0 2" in pad and "Costumes 6 -2" in pad
    assert "Total VP 13 3" in pad and "Place 1st win 2nd" in pad
    assert "Florence: chicken, milk -&gt; 4 VP" in html and "Sparkle: tuna, tuna -&gt; 3 VP" in html
    assert Game.objects.count() == 0


def test_save_records_the_previewed_game_through_the_services(mia, league, players):
    data = cards_table(players)
    digest = previewed(mia, CARDS, data)
    response = mia.post(CARDS, {**data, "action": "save", "previewed": digest})
    game = Game.objects.get()
    assert (
        response.status_code == 302 and response["Location"] == f"/leagues/tuesday/games/{game.pk}/"
    )
    mia_row, ned_row = game.participants.order_by("seat")
    assert mia_row.result == WINNER_RESULT
    assert (mia_row.rank, ned_row.rank, ned_row.score) == (1, 2, 3)
    assert mia_row.rating_after == pytest.approx(1516)
    assert game.logged_by.username == "mia" and game.played_on == dt.date(2026, 3, 3)
    assert "Game saved and ratings updated." in page(mia.get(response["Location"]))


def test_save_without_a_matching_preview_shows_the_new_preview_instead(mia, league, players):
    data = cards_table(players)
    digest = previewed(mia, CARDS, data)
    changed = {**data, "seat2-toy_cat_tower": 1, "action": "save", "previewed": digest}
    html = page(mia.post(CARDS, changed))
    assert "The form changed after the last preview" in html and Game.objects.count() == 0
    html = page(mia.post(CARDS, {**data, "action": "save"}))
    assert "Preview: check the result" in html and Game.objects.count() == 0


def test_engine_errors_are_shown_beside_the_seat_and_field_they_name(mia, league, players):
    response = mia.post(
        CARDS, {**cards_table(players, **{"seat2-cats": ["Bronte"]}), "action": "preview"}
    )
    html = page(response)
    assert response.status_code == 400
    assert field_errors(html, "id_seat2-cats") == ["more copies of Bronte than exist (1)"]
    assert field_errors(html, "id_seat1-cats") == []
    assert "1 problem to fix" in html and 'href="#id_seat2-cats">Player 2, Cats</a>' in html


def test_a_table_wide_limit_is_shown_on_every_seat_that_holds_the_item(mia, league, players):
    data = cards_table(players, **{"seat1-food_tuna": 9, "seat2-food_tuna": 9})
    html = page(mia.post(CARDS, {**data, "action": "preview"}))
    message = ["18 tokens in all, but only 11 can be gained with 2 players"]
    assert field_errors(html, "id_seat1-food_tuna") == message
    assert field_errors(html, "id_seat2-food_tuna") == message
    strays = {"seat1-strays": ["Florence", "Eliot", "Antoinette"], "seat2-strays": ["Cow"]}
    html = page(mia.post(CARDS, {**cards_table(players, **strays), "action": "preview"}))
    message = ["4 stray cats taken, but only 3 are dealt face up"]
    assert field_errors(html, "id_seat1-strays") == message
    assert field_errors(html, "id_seat2-strays") == message


def test_form_errors_come_before_scoring(mia, league, players):
    data = cards_table(
        players, **{"seat2-player": "", "seat1-food_tuna": -1, "played_on": "2999-01-01"}
    )
    response = mia.post(CARDS, {**data, "action": "preview"})
    html = page(response)
    assert response.status_code == 400
    assert field_errors(html, "id_seat2-player") == ["This field is required."]
    assert field_errors(html, "id_seat1-food_tuna") == [
        "Ensure this value is greater than or equal to 0."
    ]
    assert field_errors(html, "id_played_on") == ["A game cannot be played in the future."]
    assert 'aria-invalid="true"' in html and 'aria-describedby="id_seat2-player_error"' in html


def test_the_same_player_or_seat_twice_is_refused_on_the_second(mia, league, players):
    data = cards_table(players, **{"seat2-player": players["mia"].pk, "seat2-seat": 1})
    html = page(mia.post(CARDS, {**data, "action": "preview"}))
    assert field_errors(html, "id_seat2-player") == [
        "Already playing in seat row 1: choose someone else."
    ]
    assert field_errors(html, "id_seat2-seat") == ["Seat 1 is already taken by row 1."]
    assert field_errors(html, "id_seat1-player") == []


def test_only_members_can_be_chosen(mia, league, players):
    data = cards_table(players, **{"seat2-player": players["quinn"].pk})
    html = page(mia.post(CARDS, {**data, "action": "preview"}))
    assert "Select a valid choice" in field_errors(html, "id_seat2-player")[0]


# --- totals from the catalogue's result fields ---------------------------------------------------


def test_totals_preview_ranks_and_saves(mia, league, players):
    data = totals_table(players)
    html = page(mia.post(TOTALS, {**data, "action": "preview"}))
    assert "Results as entered" in html and "Total VP 30; Fed cats: 5" in html
    digest = previewed(mia, TOTALS, data)
    mia.post(TOTALS, {**data, "action": "save", "previewed": digest})
    game = Game.objects.get()
    assert [(p.player.name, p.rank) for p in game.participants.order_by("rank")] == [
        ("Mia", 1),
        ("Ned", 2),
        ("Pat", 3),
    ]


def test_catalogue_errors_land_on_the_seat_field_they_name(mia, league, players):
    data = totals_table(players, **{"seat3-total_vp": 25, "seat1-total_vp": ""})
    html = page(mia.post(TOTALS, {**data, "action": "preview"}))
    assert field_errors(html, "id_seat1-total_vp") == ["This field is required."]
    data = totals_table(players, **{"seat3-total_vp": 25})
    html = page(mia.post(TOTALS, {**data, "action": "preview"}))
    # Ned and Pat tie on 25 VP: the tie-break (fed cats) is needed from both.
    assert field_errors(html, "id_seat2-fed_cats") == [
        "Fed cats is needed to break the tie on total VP."
    ]
    assert field_errors(html, "id_seat3-fed_cats") == [
        "Fed cats is needed to break the tie on total VP."
    ]
    data = totals_table(players, **{"seat1-fed_cats_vp": 20})
    html = page(mia.post(TOTALS, {**data, "action": "preview"}))
    assert field_errors(html, "id_seat1-toys_vp")[0].startswith(
        "Give all six score-pad categories or none"
    )


def test_solitaire_asks_for_the_cat_players_vp(mia, league, players):
    url = "/games/new/?league=tuesday&edition=solitaire&players=1&mode=totals"
    data = totals_form(DAY, (players["mia"], 30, None))
    html = page(mia.post(url, {**data, "action": "preview"}))
    assert field_errors(html, "id_cat_player_vp") == [
        "The cat player&#x27;s VP is required in a solitaire game."
    ]
    html = page(mia.post(url, {**data, "cat_player_vp": 20, "action": "preview"}))
    assert "This game will be recorded but not rated (solitaire)" in html
    assert 'name="cat_player_vp"' not in page(mia.get(TOTALS))


def test_service_errors_are_placed_beside_their_fields():
    """The services' field paths map to the forms; anything else is a table-wide problem."""
    from django import forms

    class Fake(forms.Form):
        player = forms.CharField(required=False)
        total_vp = forms.IntegerField(required=False)

    class FakeGame(forms.Form):
        played_on = forms.DateField(required=False)
        cat_player_vp = forms.IntegerField(required=False)

    game, seats, problems = FakeGame({}), [Fake({}), Fake({})], _Problems([])
    for form in [game, *seats]:
        form.is_valid()
    _place_errors(
        {
            "participants.1.player": ["Ned is not a member."],
            "participants.0.seat": ["Seat 3 is taken twice."],
            "details.cat_player_vp": ["Required."],
            "played_on": ["In the future."],
            "season": ["Spring runs from 1 Mar to 31 May."],
            "participants": ["Too many players."],
        },
        game,
        seats,
        problems,
    )
    assert seats[1].errors["player"] == ["Ned is not a member."]
    assert seats[0].non_field_errors() == ["Seat 3 is taken twice."]
    assert game.errors["cat_player_vp"] == ["Required."] and game.errors["played_on"] == [
        "In the future."
    ]
    assert problems.messages == ["Spring runs from 1 Mar to 31 May.", "Too many players."]


def test_a_cantankerous_cats_game_is_logged_from_its_catalogue_fields(
    client, players, users, friday
):
    client.force_login(users["mia"])
    url = "/games/new/?league=friday&edition=standard&players=2&mode=totals"
    html = page(client.get(url))
    assert 'name="seat1-winner"' in html and 'name="seat1-win_type"' in html
    assert "calculator" not in html
    data = mischief_form(DAY, (players["mia"], 4), (players["ned"], 9), winner=2)
    html = page(client.post(url, {**data, "action": "preview"}))
    assert field_errors(html, "id_seat2-win_type") == ["Say how the winner won."]
    data["seat2-win_type"] = "nine_mischief"
    digest = previewed(client, url, data)
    response = client.post(url, {**data, "action": "save", "previewed": digest})
    game = Game.objects.get(league=friday)
    assert response.status_code == 302
    assert [(p.player.name, p.rank, p.score) for p in game.participants.order_by("rank")] == [
        ("Ned", 1, 9),
        ("Mia", 2, 4),
    ]
    game_page = page(client.get(response["Location"]))
    assert "Mischief points" in game_page and "How they won: nine mischief" in game_page


def test_editions_whose_card_data_is_incomplete_say_so_and_ask_for_totals(mia, league):
    html = page(mia.get("/games/new/"))
    for key, incomplete in (("base", False), ("premium", True), ("box-of-treats", True)):
        option = re.search(rf'value="{key}".*?</label>', html, re.S).group(0)
        assert ("incomplete card data: enter totals" in option) == incomplete, option
