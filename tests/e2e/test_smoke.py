"""The browser harness itself: the live server answers, static files load, nothing external."""

import datetime as dt

import pytest

from tests.e2e.conftest import screenshot
from tests.league.conftest import record

pytestmark = pytest.mark.browser


def test_standings_page_renders_with_its_stylesheet(page, league, players, users):
    record(
        league, users["olive"], dt.date(2026, 3, 1), (players["mia"], 30, 5), (players["ned"], 2, 1)
    )
    page.goto("/leagues/tuesday/")
    assert (
        "Tuesday Club" in page.title()
        or page.get_by_role("heading", name="Tuesday Club").is_visible()
    )
    rows = page.locator("table tbody tr")
    assert rows.first.inner_text().find("Mia") >= 0
    # The stylesheet came from the server: the page has non-default styling applied.
    body_font = page.evaluate("getComputedStyle(document.body).fontFamily")
    assert body_font and body_font != "Times New Roman"
    screenshot(page, "smoke-standings")
