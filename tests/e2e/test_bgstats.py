"""Importing a BG Stats export in headless Chromium, on a phone: the organiser uploads the
file from the settings page, checks the preview, fixes a player mapping the page refuses
beside its field, and imports. Saves a screenshot of the preview for the README."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import log_in, screenshot
from tests.league.test_bgstats import FIXTURE

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
    screenshot(page, "bgstats-import-preview")

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
