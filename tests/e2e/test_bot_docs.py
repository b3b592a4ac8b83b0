"""The bot docs in a browser, on a phone and a desktop: the pages and their contents list
work, code blocks are styled and scroll inside their own box, the starter kit downloads as a
zip holding play.py, and the challenge form offers only the chosen game's bots."""

from __future__ import annotations

import io
import zipfile

import pytest
from playwright.sync_api import Page, expect

from arena.botdocs.kit import KIT_FOLDER
from tests.e2e.conftest import log_in, screenshot

pytestmark = pytest.mark.browser

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def read_the_docs(page: Page, size: str) -> None:
    page.goto("/arena/docs/")
    expect(page.get_by_role("heading", level=2, name="Writing a bot")).to_be_visible()
    expect(page.get_by_role("link", name="Bot docs", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    code = page.locator(".docs-body pre").first
    expect(code).to_contain_text("def choose(observation, legal_actions)")
    background = code.evaluate("node => getComputedStyle(node).backgroundColor")
    assert background == "rgb(31, 35, 48)", background  # styled by botdocs.css
    assert page.evaluate(OVERFLOW) <= 0, "the page scrolls sideways"
    screenshot(page, f"bot-docs-{size}")

    pages = page.get_by_role("navigation", name="Bot docs")
    pages.get_by_role("link", name="Observations, actions and the protocol").click()
    page.wait_for_url("**/arena/docs/reference/")
    expect(page.get_by_role("heading", level=2, name="Observations, actions and the protocol"))
    expect(page.locator("#cantankerous-cats")).to_contain_text("Cantankerous Cats")
    assert page.evaluate(OVERFLOW) <= 0, "the reference page scrolls sideways"
    screenshot(page, f"bot-docs-reference-{size}")

    # The reference sends readers to the engines' own docs for every detail: pages here too.
    page.get_by_role("link", name="the Cat Lady engine's docs").click()
    page.wait_for_url("**/arena/docs/cat-lady-engine/#observation")
    expect(page.locator("#observation")).to_be_in_viewport()
    assert page.evaluate(OVERFLOW) <= 0, "the engine's page scrolls sideways"
    screenshot(page, f"bot-docs-engine-{size}", full_page=False)
    page.go_back()
    page.wait_for_url("**/arena/docs/reference/")


def test_the_docs_read_on_a_desktop_with_their_contents_list(page: Page) -> None:
    read_the_docs(page, "1280")
    contents = page.get_by_role("navigation", name="On this page")
    contents.get_by_role("link", name="The protocol (if you want to speak it yourself)").click()
    assert page.url.endswith("/arena/docs/reference/#the-protocol-if-you-want-to-speak-it-yourself")
    expect(page.locator("#the-protocol-if-you-want-to-speak-it-yourself")).to_be_in_viewport()


def test_the_docs_read_on_a_phone(phone_page: Page) -> None:
    read_the_docs(phone_page, "390")


def test_the_starter_kit_downloads_from_the_docs(page: Page) -> None:
    page.goto("/arena/docs/limits/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the starter kit (.zip)").click()
    assert download.value.suggested_filename == f"{KIT_FOLDER}.zip"
    path = download.value.path()
    names = zipfile.ZipFile(io.BytesIO(path.read_bytes())).namelist()
    assert f"{KIT_FOLDER}/play.py" in names and f"{KIT_FOLDER}/README.md" in names


@pytest.fixture
def ada(page: Page, django_user_model) -> None:
    """ada, logged in on ``page``."""
    django_user_model.objects.create_user("ada", password="pw-123456789")
    log_in(page, "ada", "pw-123456789")


def test_the_challenge_form_offers_only_the_chosen_games_house_bots(page: Page, ada: None) -> None:
    page.goto("/arena/challenge/")
    seat = page.get_by_label("Seat 1")
    offered = (
        "select => [...select.options].filter(o => !o.hidden && !o.disabled).map(o => o.value)"
    )
    assert "house:cat-lady:mcts" in seat.evaluate(offered)
    # The page for Cat Lady holds only Cat Lady's bots: choosing the other game opens its page.
    with page.expect_navigation():
        page.get_by_label("Game").select_option("cantankerous-cats")
    assert page.url.endswith("/arena/challenge/?game=cantankerous-cats")
    expect(page.get_by_label("Game")).to_have_value("cantankerous-cats")
    values = page.get_by_label("Seat 1").evaluate(offered)
    assert "house:cantankerous-cats:greedy" in values
    assert all(not v.startswith("house:cat-lady:") for v in values), values


def test_the_tournament_form_hides_the_other_games_house_bots(page: Page, ada: None) -> None:
    page.goto("/arena/tournaments/new/")
    mcts = page.get_by_label("House bot: mcts (Monte Carlo search, 200 playouts a move), Cat Lady")
    other = page.get_by_label(
        "House bot: greedy (the best-looking move now, no look-ahead), Cantankerous Cats"
    )
    expect(mcts).to_be_visible()
    expect(other).to_be_hidden()
    page.get_by_label("Game").select_option("cantankerous-cats")
    expect(other).to_be_visible()
    expect(mcts).to_be_hidden()
    screenshot(page, "tournament-new-house-bots-1280")
