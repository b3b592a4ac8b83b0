"""The league pages in headless Chromium: standings on desktop and phone, logging a Cat Lady game
through the form (a validation error first, then a preview, then saving), the player page chart,
and keyboard focus. Each test saves a screenshot for the README."""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from league.clubs import services
from league.models import Game
from tests.e2e.conftest import log_in, screenshot
from tests.league.conftest import record

pytestmark = pytest.mark.browser

TODAY = dt.date.today()


@pytest.fixture
def season_of_games(league, players, users):
    """A few weeks of Tuesday games among Mia, Ned, Pat and Olive, with a season."""
    olive, mia, ned, pat = (players[n] for n in ("olive", "mia", "ned", "pat"))
    start = TODAY - dt.timedelta(days=70)
    services.season_create(
        league=league, name="Spring", starts_on=start, ends_on=TODAY, by=users["olive"]
    )
    tables = [
        ((mia, 34, 5), (ned, 28, 4), (pat, 19, 3)),
        ((ned, 31, 5), (mia, 30, 4), (olive, 22, 3), (pat, 18, 2)),
        ((mia, 27, 4), (pat, 25, 4)),
        ((olive, 33, 5), (mia, 29, 4), (ned, 20, 2)),
        ((mia, 36, 6), (olive, 24, 3), (pat, 24, 2), (ned, 15, 2)),
        ((pat, 30, 5), (ned, 26, 4)),
        ((mia, 31, 5), (ned, 29, 4), (olive, 21, 3)),
    ]
    for week, table in enumerate(tables):
        record(league, users["olive"], start + dt.timedelta(days=7 * week + 1), *table)
    return players


def test_read_standings_on_a_desktop(page, league, season_of_games):
    page.goto("/")
    page.get_by_role("link", name="Tuesday Club").first.click()
    expect(page.get_by_role("heading", level=1, name="Tuesday Club")).to_be_visible()
    table = page.get_by_role("table", name="Standings")
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Mia")
    expect(rows.first.locator("td").first).to_have_text("1")
    # Olive has played 4 rated games, fewer than the league's 5: marked provisional.
    expect(table.get_by_text("provisional")).to_have_count(1)
    expect(table.get_by_role("row", name="Olive")).to_contain_text("provisional")
    expect(page.get_by_role("table", name="Games, newest first").locator("tbody tr")).to_have_count(
        7
    )
    screenshot(page, "league-standings")

    page.get_by_role("navigation", name="Seasons").get_by_role("link", name="Spring").click()
    expect(page.get_by_role("table", name="Standings for Spring")).to_be_visible()
    expect(page).to_have_url(f"{page.url.split('?')[0]}?season={league.seasons.get().pk}")


def test_read_standings_on_a_phone(phone_page, league, season_of_games):
    page = phone_page
    # A member checking the standings after game night: logged in, so the menu is at its longest.
    log_in(page, "mia", "pw-123456789")
    page.goto("/leagues/tuesday/")
    for link in ("Home", "Leagues", "Log a game"):
        box = (
            page.get_by_role("navigation", name="Main")
            .get_by_role("link", name=link)
            .bounding_box()
        )
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, link
    table = page.get_by_role("table", name="Standings")
    expect(table.locator("tbody tr").first).to_contain_text("Mia")
    # Nothing spills sideways off the page: wide tables scroll inside their own box.
    page_width = page.evaluate("document.documentElement.scrollWidth")
    assert page_width <= 390, f"page is {page_width}px wide on a 390px phone"
    # The player and rating columns are on screen without scrolling.
    box = table.locator("tbody tr").first.locator("td.rating").bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    # Games lists stack into cards: each cell carries its own label.
    first_game = page.get_by_role("table", name="Games, newest first").locator("tbody tr").first
    assert (
        first_game.locator("td").first.evaluate("el => getComputedStyle(el, '::before').content")
        != "none"
    )
    screenshot(page, "league-standings-phone")


def pick(seat, cat: str) -> None:
    """Find a cat by typing a few letters of its name, then tick it."""
    seat.get_by_role("searchbox", name="Find a cat").fill(cat[:4].lower())
    seat.get_by_role("checkbox", name=cat).check()


def test_log_a_cat_lady_game_error_first_then_preview_and_save(page, league, players, users):
    log_in(page, "mia", "pw-123456789")
    expect(page.get_by_text("Signed in as")).to_contain_text("Mia")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Log a game").click()
    # One league: straight to the setup step.
    page.get_by_role("radio", name="Base game (2–4 players)").check()
    page.get_by_label("Number of players").fill("2")
    page.get_by_label("Cards and food, scored by the calculator — Cat Lady (base game)").check()
    page.get_by_role("button", name="Next: the players").click()

    seat1, seat2 = page.locator("#seat-1"), page.locator("#seat-2")
    expect(seat1.get_by_label("Player")).to_have_value(str(players["mia"].pk))
    seat2.get_by_label("Player").select_option(label="Ned")
    pick(seat1, "Bronte")
    pick(seat1, "Florence")
    seat1.get_by_label("Tuna tokens").fill("2")
    seat1.get_by_label("Chicken tokens").fill("1")
    seat1.get_by_label("Milk tokens").fill("1")
    seat1.get_by_label("Costumes").fill("1")
    # Ned's Bronte is a mistake: there is one Bronte in the deck.
    pick(seat2, "Bronte")
    seat2.get_by_label("Tuna tokens").fill("2")
    page.get_by_role("button", name="Check and preview").click()

    expect(page.get_by_role("alert").first).to_contain_text("1 problem")
    error = seat2.locator("#id_seat2-cats_error")
    expect(error).to_contain_text("more copies of Bronte than exist")
    expect(seat2.locator("#id_seat2-cats")).to_have_attribute(
        "aria-describedby", "id_seat2-cats_error"
    )
    expect(seat1.locator(".field-errors")).to_have_count(0)
    expect(page.get_by_role("button", name="Save this game")).to_have_count(0)
    error.scroll_into_view_if_needed()
    page.mouse.wheel(0, -250)
    screenshot(page, "result-entry-error", full_page=False)

    seat2.get_by_label("Bronte").uncheck()
    pick(seat2, "Sparkle")
    seat2.get_by_label("Cat Tower").fill("2")
    page.get_by_role("button", name="Check and preview").click()

    preview = page.get_by_role("region", name="Preview: check the result before saving")
    pad = preview.get_by_role("table", name="Score pad worked out by the calculator")
    expect(pad.get_by_role("row", name="Fed cats", exact=False).first).to_contain_text("7")
    expect(pad.get_by_role("row", name="Costumes")).to_contain_text("6")
    expect(pad.get_by_role("row", name="Total VP")).to_contain_text("13")
    expect(preview.get_by_text("Florence: chicken, milk -> 4 VP")).to_be_visible()
    expect(preview.get_by_text("Sparkle: tuna, tuna -> 3 VP")).to_be_visible()
    assert Game.objects.count() == 0  # nothing saved by the preview
    screenshot(page, "result-entry-preview", full_page=False)

    page.get_by_role("button", name="Save this game").click()
    expect(page.get_by_text("Game saved and ratings updated.")).to_be_visible()
    game = Game.objects.get()
    assert [(p.player.name, p.score, p.rank) for p in game.participants.order_by("seat")] == [
        ("Mia", 13, 1),
        ("Ned", 3, 2),
    ]
    results = page.get_by_role(
        "table", name="Each player's result and rating change, in finishing order"
    )
    expect(results.get_by_role("row").nth(1)).to_contain_text("+16.0")
    expect(page.get_by_role("heading", name="Why the ratings moved")).to_be_visible()
    expect(page.get_by_role("table", name="Victory points by category")).to_be_visible()
    screenshot(page, "game")


def test_player_page_draws_the_rating_chart(page, league, season_of_games):
    mia = season_of_games["mia"]
    page.goto("/leagues/tuesday/")
    page.get_by_role("table", name="Standings").get_by_role("link", name="Mia").click()
    expect(page.get_by_role("heading", level=1, name="Mia")).to_be_visible()
    chart = page.get_by_role("img", name="Mia's rating over time")
    expect(chart).to_be_visible()
    points = chart.locator("path")
    expect(points).to_have_count(6)
    assert "6 rated games" in chart.locator("desc").text_content()
    expect(chart.locator("polyline")).to_have_count(1)
    box = chart.bounding_box()
    assert box is not None and box["width"] > 500 and box["height"] > 150
    expect(
        page.get_by_role("table", name="How Mia finished against each opponent in shared games")
    ).to_contain_text("Ned")
    expect(
        page.get_by_role("table", name="Mia's games, newest first (6 in all)").locator("tbody tr")
    ).to_have_count(6)
    assert page.url.endswith(f"/players/{mia.pk}/?league=tuesday")
    screenshot(page, "player")


def test_keyboard_focus_is_visible(page, league, season_of_games):
    page.goto("/leagues/tuesday/")
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to main content")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0  # moved on screen when focused
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    focused = page.evaluate_handle("document.activeElement")
    style = page.evaluate(
        "el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth, s.boxShadow]; }",
        focused,
    )
    assert style[0] != "none" and style[1] != "0px" and style[2] != "none", style
    # Every form control of the result form has a label (checked on the login form here).
    page.goto("/accounts/login/")
    unlabelled = page.evaluate(
        """() => [...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
              .filter(el => !el.labels || el.labels.length === 0).map(el => el.name)"""
    )
    assert unlabelled == []
