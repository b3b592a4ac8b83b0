"""The site on a 390×844 phone: a 4-player Cat Lady game logged with its cards fits in three
screen heights per player (cats found by typing), every action in every table of the main
pages can be reached (the table restacks or scrolls inside its own box), and Home offers
"Start a league" and "Play the bots". The measured heights are printed (`-s` shows them)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.services import token_create
from arena.demo import seed_demo_matches
from arena.ladders import services as ladders
from league.clubs import services
from league.nights import services as nights
from league.results import checks, seating
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.league.conftest import olive_opens_night, record

pytestmark = pytest.mark.browser

SCREEN = PHONE["height"]

# Every link, button and field inside a table that a person cannot reach: cut off by a box
# that hides what overflows, or past the screen's edge with no box to scroll it in.
UNREACHABLE = """() => {
  const out = [];
  const width = document.documentElement.clientWidth;
  for (const el of document.querySelectorAll(
      'table a[href], table button, table input:not([type=hidden]), table select, table summary')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown at this size (display: none)
    const name = (el.getAttribute('aria-label') || el.textContent || el.name || '').trim();
    let scroller = null;
    for (let node = el.parentElement; node && node !== document.body; node = node.parentElement) {
      const overflow = getComputedStyle(node).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') { scroller = node; break; }
      if (overflow === 'hidden' || overflow === 'clip') {
        const box = node.getBoundingClientRect();
        if (r.right > box.right + 1 || r.left < box.left - 1) out.push(name + ' (cut off)');
      }
    }
    if (scroller === null) {
      if (r.right > width + 1 || r.left < -1) out.push(name + ' (off the screen)');
    } else if (scroller.getBoundingClientRect().right > width + 1) {
      out.push(name + ' (its scrolling box is wider than the screen)');
    }
  }
  return out;
}"""


def measure(page: Page) -> dict[str, Any]:
    return page.evaluate(
        "() => ({height: document.documentElement.scrollHeight,"
        " width: document.documentElement.scrollWidth})"
    )


def misfits(page: Page, label: str) -> list[str]:
    """What spills sideways off the page, and each action in a table that cannot be reached."""
    size = measure(page)
    print(f"{label}: {size['height']} px tall, {size['width']} px wide")
    problems = [f"{label}: {name}" for name in page.evaluate(UNREACHABLE)]
    if size["width"] > PHONE["width"]:
        problems.append(f"{label}: the page is {size['width']} px wide")
    return problems


@pytest.fixture
def busy_league(league, players, users):
    """The Tuesday Club with games, a season, guests with long names, and a night of two
    rounds (the first entered) — so that every table of the league's pages has rows."""
    olive, mia, ned, pat = (players[n] for n in ("olive", "mia", "ned", "pat"))
    today = timezone.localdate()
    services.season_create(
        league=league,
        name="Autumn",
        starts_on=today - dt.timedelta(days=30),
        ends_on=today,
        by=users["olive"],
    )
    for week in range(4):
        record(
            league,
            users["olive"],
            today - dt.timedelta(days=7 * week + 1),
            (mia, 30 + week, 5),
            (ned, 28, 4),
            (olive, 20, 3),
            (pat, 18, 2),
        )
    guests = [
        services.guest_add(league=league, name=name, by=users["olive"]).player
        for name in ("Rosalind Featherstonehaugh", "Sam", "Tom")
    ]
    night = olive_opens_night(league, users, today, [olive, mia, ned, pat, *guests], rounds=2)
    first = nights.round_draw(night=night, by=users["olive"])
    for table in first.tables.all():
        order = seating.table_setup(table)
        nights.table_game_record(
            table=table,
            logged_by=users["olive"],
            participants=[
                checks.ParticipantInput(
                    player_id=pid, seat=i + 1, result={"total_vp": 30 - 2 * i, "fed_cats": 3}
                )
                for i, pid in enumerate(order)
            ],
            edition="base",
            played_on=today,
        )
    nights.round_draw(night=night, by=users["olive"])
    return night


LEAGUE_PAGES = [
    ("home", "/"),
    ("leagues", "/leagues/"),
    ("league", "/leagues/tuesday/"),
    ("members", "/leagues/tuesday/members/"),
    ("settings", "/leagues/tuesday/settings/"),
    ("change log", "/leagues/tuesday/changes/"),
    ("nights", "/leagues/tuesday/nights/"),
    ("account", "/accounts/me/"),
    ("BG Stats import", "/leagues/tuesday/import/bgstats/"),
]


def test_every_table_on_the_main_pages_can_be_used_on_a_phone(
    phone_page, busy_league, players, users
):
    token_create(user=users["olive"], name="Spreadsheet of the club's long evenings")
    page = phone_page
    log_in(page, "olive", "pw-123456789")
    night, game = busy_league, busy_league.league.games.order_by("pk").first()
    pages = [
        *LEAGUE_PAGES,
        ("night", f"/leagues/tuesday/nights/{night.pk}/"),
        ("game", f"/leagues/tuesday/games/{game.pk}/"),
        ("player", f"/players/{players['mia'].pk}/"),
        ("arena", "/arena/"),
        ("play the bots", "/arena/play/"),
        ("arena matches", "/arena/matches/"),
        ("my bots", "/arena/my-bots/"),
    ]
    ladder = ladders.ladders_ensure()[0]
    pages.append(("ladder", f"/arena/ladders/{ladder.pk}/"))
    # Finished arena matches (house bots, played here) fill the match lists and pages.
    pages += [
        (f"match {m.pk}", f"/arena/matches/{m.pk}/") for m in seed_demo_matches(by=users["olive"])
    ]
    problems = []
    for label, path in pages:
        page.goto(path)
        expect(page.locator("main")).to_be_visible()
        problems += misfits(page, label)
    assert not problems, "\n".join(problems)
    page.goto("/leagues/tuesday/members/")
    # The organiser's actions on the last member are on screen, not cut off.
    remove = page.get_by_role("button", name="Remove Tom")
    remove.scroll_into_view_if_needed()
    box = remove.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "members-phone")
    page.goto("/leagues/tuesday/changes/")
    screenshot(page, "change-log-phone")


def test_home_and_leagues_offer_start_a_league_and_play_the_bots(phone_page, users):
    page = phone_page
    log_in(page, "vic", "pw-123456789")
    page.goto("/")
    start = page.get_by_role("link", name="Start a league")
    play = page.get_by_role("link", name="Play the bots")
    for link in (start, play):
        expect(link.first).to_be_in_viewport()
    screenshot(page, "home-phone", full_page=False)
    play.first.click()
    expect(page).to_have_url(f"{page.url.split('/arena/')[0]}/arena/play/")
    page.goto("/leagues/")
    page.get_by_role("link", name="Start a league").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Start a league")


# Each seat's cats, found by typing part of the name: (typed, the cat's name).
HANDS = [
    [("bron", "Bronte"), ("flor", "Florence")],
    [("spar", "Sparkle")],
    [("jaz", "Jazz")],
    [("zeu", "Zeus")],
]


def test_a_four_player_game_with_cards_fits_three_screens_per_player(
    phone_page, league, players, users
):
    page = phone_page
    log_in(page, "mia", "pw-123456789")
    page.goto("/games/new/")
    page.get_by_role("radio", name="Base game (2–4 players)").check()
    page.get_by_label("Number of players").fill("4")
    page.get_by_label("Cards and food, scored by the calculator — Cat Lady (base game)").check()
    page.get_by_role("button", name="Next: the players").click()
    expect(page.get_by_role("searchbox", name="Find a cat")).to_have_count(4)
    expect(page.get_by_role("searchbox", name="Find a cat").first).to_be_visible()
    empty = measure(page)["height"]
    print(f"log a game, 4 players with cards, empty: {empty} px ({empty / 4:.0f} px per player)")
    for index, name in enumerate(("Ned", "Pat", "Olive"), start=2):
        page.locator(f"#seat-{index}").get_by_label("Player").select_option(label=name)
    for index, hand in enumerate(HANDS, start=1):
        seat = page.locator(f"#seat-{index}")
        search = seat.get_by_role("searchbox", name="Find a cat")
        for typed, cat in hand:
            search.fill(typed)
            seat.get_by_role("checkbox", name=cat).check()
            if (index, cat) == (1, "Florence"):
                search.fill("c")  # a wide search: several cats match
                expect(seat.get_by_role("checkbox", name="Chester")).to_be_visible()
                # Names are searched, not foods: Zeus eats chicken but has no "c".
                expect(seat.get_by_role("checkbox", name="Zeus")).to_be_hidden()
                search.scroll_into_view_if_needed()
                screenshot(page, "result-entry-find-a-cat-phone", full_page=False)
        search.fill("")
        seat.get_by_label("Tuna tokens").fill("2")
    filled = measure(page)["height"]
    print(f"log a game, 4 players with cards, filled: {filled} px ({filled / 4:.0f} px per player)")
    assert filled / 4 <= 3 * SCREEN, f"{filled} px for 4 players"
    assert not misfits(page, "log a game")
    screenshot(page, "result-entry-cards-phone")
    page.locator("#seat-2").scroll_into_view_if_needed()
    screenshot(page, "result-entry-cards-seat-phone", full_page=False)
    page.get_by_role("button", name="Check and preview").click()
    preview = page.get_by_role("region", name="Preview: check the result before saving")
    expect(preview).to_be_visible()
    with_preview = measure(page)["height"]
    print(f"log a game, with the preview: {with_preview} px ({with_preview / 4:.0f} per player)")
    assert with_preview / 4 <= 3 * SCREEN
    assert not misfits(page, "log a game, preview")
    page.get_by_role("button", name="Save this game").click()
    expect(page.get_by_text("Game saved and ratings updated.")).to_be_visible()
    game = league.games.get()
    assert [p.player.name for p in game.participants.order_by("seat")] == [
        "Mia",
        "Ned",
        "Pat",
        "Olive",
    ]


def test_without_javascript_the_cats_are_short_lists_that_scroll(
    browser, live_server, transactional_db, league, players, users
):
    """Progressive enhancement: with no script the search boxes stay hidden, each list of cats
    is a box that scrolls, the page still fits and a game is still logged."""
    context = browser.new_context(
        base_url=live_server.url, viewport=PHONE, java_script_enabled=False
    )
    page = context.new_page()
    try:
        log_in(page, "mia", "pw-123456789")
        page.goto("/games/new/?league=tuesday&edition=base&players=4&mode=cards:base")
        height = measure(page)["height"]
        print(f"log a game without JavaScript, 4 players with cards: {height} px")
        assert height / 4 <= 3 * SCREEN
        expect(page.get_by_role("searchbox", name="Find a cat")).to_have_count(0)
        for index, name in enumerate(("Ned", "Pat", "Olive"), start=2):
            page.locator(f"#seat-{index}").get_by_label("Player").select_option(label=name)
        seat = page.locator("#seat-1")
        zeus = seat.get_by_role("checkbox", name="Zeus")
        zeus.scroll_into_view_if_needed()
        zeus.check()
        box = seat.locator(".choice-list-picker").first
        assert box.evaluate("el => el.scrollHeight > el.clientHeight")  # the list scrolls
        screenshot(page, "result-entry-no-script-phone", full_page=False)
        page.get_by_role("button", name="Check and preview").click()
        preview = page.get_by_role("region", name="Preview: check the result before saving")
        expect(preview.get_by_text("Zeus", exact=False).first).to_be_visible()
    finally:
        context.close()


def test_a_night_tables_form_asks_only_how_results_are_entered(phone_page, busy_league):
    page = phone_page
    log_in(page, "olive", "pw-123456789")
    page.goto(f"/leagues/tuesday/nights/{busy_league.pk}/")
    page.get_by_label("Round 2, table 1").get_by_role("link", name="Enter result").click()
    expect(page.get_by_text("as drawn for this table")).to_be_visible()
    expect(page.get_by_role("radio", name="Base game (2–4 players)")).to_have_count(0)
    expect(page.get_by_label("Number of players")).to_have_count(0)
    screenshot(page, "night-table-setup-phone", full_page=False)
    page.get_by_label("Cards and food, scored by the calculator — Cat Lady (base game)").check()
    page.get_by_role("button", name="Next: the players").click()
    expect(page.get_by_role("searchbox", name="Find a cat").first).to_be_visible()
