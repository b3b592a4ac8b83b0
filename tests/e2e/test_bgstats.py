"""Importing a BG Stats export in headless Chromium, on a phone: the organiser uploads the
file from the settings page, checks the preview, fixes a player mapping the page refuses
beside its field, and imports; a real-world export (other games' quirks, clashing names)
after a damaged file refused beside the field. Saves a screenshot of the real-world preview
for docs/journeys.md."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import log_in, screenshot
from tests.league.test_bgstats import FIXTURE, REALISTIC

pytestmark = pytest.mark.browser


def test_organiser_imports_a_bgstats_file_from_a_phone(phone_page, league, players):
    page = phone_page
    log_in(page, "olive", "pw-123456789")
    page.goto("/leagues/tuesday/settings/")
    page.get_by_role("link", name="Import plays from BG Stats").click()
    page.get_by_label("BG Stats export file").set_input_files(str(FIXTURE))
    page.get_by_role("button", name="Preview the import").click()

    expect(page.get_by_text("2 plays to import")).to_be_visible()
    expect(page.get_by_role("table", name="Plays to import")).to_contain_text(
        "ned 28 (2nd); Mia 31 (1st); Roberta 19 (3rd)"
    )
    expect(page.get_by_text("Fed cats is needed to break the tie").first).to_be_visible()
    olivia = page.get_by_label("Olivia (in 1 play)")
    expect(olivia).to_have_value(str(players["olive"].pk))  # suggested: Olive

    olivia.select_option(str(players["mia"].pk))  # Mia is taken by BG Stats' Mia
    page.get_by_role("button", name="Import 2 plays").click()
    expect(page.locator("#id_player_4_error")).to_contain_text("already mapped")
    assert league.games.count() == 0

    page.get_by_label("Olivia (in 1 play)").select_option(str(players["olive"].pk))
    page.get_by_role("button", name="Import 2 plays").click()
    expect(page.get_by_text("Imported 2 games from BG Stats")).to_be_visible()
    expect(page.get_by_role("table", name="Games, newest first").locator("tbody tr")).to_have_count(
        2
    )


def test_organiser_imports_a_real_world_export_from_a_phone(phone_page, league, players):
    """The realistic export (other games, calculated scores, the anonymous player twice, two
    Alexes, a name taken on the site): what can be imported is, the rest is listed with its
    reason, and the page fits the phone."""
    page = phone_page
    log_in(page, "olive", "pw-123456789")
    page.goto("/leagues/tuesday/import/bgstats/")
    expect(page.get_by_role("heading", name="Getting the file out of BG Stats")).to_be_visible()

    page.get_by_label("BG Stats export file").set_input_files(
        files=[{"name": "BGStatsExport.json", "mimeType": "text/plain", "buffer": b"{not json"}]
    )
    page.get_by_role("button", name="Preview the import").click()
    expect(page.locator("#id_file_error")).to_contain_text("This is not a JSON file")
    assert league.games.count() == 0

    page.get_by_label("BG Stats export file").set_input_files(str(REALISTIC))
    page.get_by_role("button", name="Preview the import").click()
    expect(page.get_by_text("3 plays to import, 5 left out")).to_be_visible()
    left_out = page.locator("ul.left-out")
    expect(left_out).to_contain_text("Sam's score is a calculation ('10+10+15')")
    expect(left_out).to_contain_text("Catleague cannot tell them apart")
    expect(left_out).to_contain_text("appears twice, letter case aside")
    expect(page.get_by_text("Decrypto: 1 play")).to_be_visible()
    second_alex = page.get_by_label("Alex, BG Stats player 2 of that name (in 1 play)")
    expect(second_alex).to_have_value("new")
    expect(page.get_by_text("A new guest would be “Alex (BG Stats 2)”.")).to_be_visible()
    # Quinn plays in another league only: the preview neither numbers nor mentions that name.
    expect(page.get_by_text("Quinn (BG Stats 2)")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "bgstats-import-real-export")

    page.get_by_role("button", name="Import 3 plays").click()
    expect(page.get_by_text("Imported 3 games from BG Stats")).to_be_visible()
    expect(page.get_by_text("Alex (BG Stats 2)").first).to_be_visible()
    assert league.games.count() == 3
