"""A correction of a game the card calculator scored, on a phone: the form opens with the cards
as they were entered, and the preview scores them again."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import expect

from league.models import Game
from league.results import checks
from league.results import services as result_services
from tests.e2e.conftest import log_in, screenshot
from tests.league.test_pages_entry import costume_moved_to_ned_score


def test_an_organiser_corrects_a_calculator_game_on_a_phone(phone_page, league, players, users):
    page = phone_page
    game = result_services.game_record(
        league=league,
        logged_by=users["mia"],
        played_on=dt.date(2026, 3, 3),
        scored_with="base",
        participants=[
            checks.ParticipantInput(
                player_id=players["mia"].pk,
                seat=1,
                result={"total_vp": 13, "fed_cats": 2},
                cards={
                    "cats": ["Bronte"],
                    "strays": ["Florence"],
                    "counts": {"food_tuna": 2, "food_chicken": 1, "food_milk": 1, "costumes": 1},
                },
            ),
            checks.ParticipantInput(
                player_id=players["ned"].pk,
                seat=2,
                result={"total_vp": 3, "fed_cats": 1},
                cards={"cats": ["Sparkle"], "counts": {"food_tuna": 2, "toy_cat_tower": 2}},
            ),
        ],
    )
    log_in(page, "olive", "pw-123456789")
    page.goto(f"/leagues/tuesday/games/{game.pk}/")
    page.get_by_role("link", name="Correct this game").click()

    seat1, seat2 = page.locator("#seat-1"), page.locator("#seat-2")
    expect(seat1.get_by_label("Bronte")).to_be_checked()
    expect(seat1.get_by_label("Florence")).to_be_checked()
    expect(seat1.get_by_label("Costumes")).to_have_value("1")
    expect(seat2.get_by_label("Sparkle")).to_be_checked()
    expect(seat2.get_by_label("Cat Tower")).to_have_value("2")

    # The costume was Ned's, not Mia's: the calculator scores the new cards.
    rescored = costume_moved_to_ned_score()
    totals = [p.total for p in rescored.players]
    assert totals != [13, 3]
    seat1.get_by_label("Costumes").fill("0")
    seat2.get_by_label("Costumes").fill("1")
    page.get_by_role("button", name="Check and preview").click()
    pad = page.get_by_role("table", name="Score pad worked out by the calculator")
    total_row = pad.get_by_role("row", name="Total VP")
    for total in totals:
        expect(total_row).to_contain_text(str(total))
    screenshot(page, "correction-calculator-preview", full_page=False)
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Game corrected and ratings rebuilt.")).to_be_visible()
    screenshot(page, "correction-calculator-saved")

    corrected = Game.objects.get(pk=game.pk)
    assert corrected.scored_with == "base"
    mia, ned = corrected.participants.order_by("seat")
    assert mia.cards["counts"]["costumes"] == 0 and ned.cards["counts"]["costumes"] == 1
    assert [mia.score, ned.score] == totals
