"""Confirmation and the members table on a phone: the count of games waiting for you in the
menu, an organiser confirming a whole night from its page, and every member's Remove button
within reach at 390 pixels."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from league.clubs import services
from league.models import Game
from tests.e2e.conftest import PHONE, log_in, screenshot
from tests.league.conftest import (
    another_confirms,
    mia_logs_a_night_of_two_rounds,
)

pytestmark = [pytest.mark.browser]


def test_an_organiser_confirms_tonights_games_from_a_phone(
    phone_page, users, league, players, transactional_db
):
    another_confirms(league)
    night, _ = mia_logs_a_night_of_two_rounds(league, users, players, timezone.localdate())
    page = phone_page
    log_in(page, "ned", "pw-123456789")
    page.goto("/leagues/")
    waiting = page.locator("#nav-waiting")
    expect(waiting).to_have_text("To confirm 2")
    screenshot(page, "confirm-menu-count-phone", full_page=False)

    page.context.clear_cookies()  # Ned leaves; Olive logs in on the same phone
    log_in(page, "olive", "pw-123456789")
    page.goto(f"/leagues/tuesday/nights/{night.pk}/")
    page.get_by_role("button", name="Confirm tonight's 2 waiting games").click()
    expect(page.get_by_text("2 games confirmed and rated.")).to_be_visible()
    screenshot(page, "confirm-night-phone", full_page=False)
    assert set(Game.objects.values_list("status", flat=True)) == {"confirmed"}


def test_every_remove_button_of_the_members_table_is_reachable_on_a_phone(
    phone_page, users, league, players, transactional_db
):
    for name in ("Rosalind Featherstone", "Sam"):
        services.guest_add(league=league, name=name, by=users["olive"])
    page = phone_page
    log_in(page, "olive", "pw-123456789")
    page.goto("/leagues/tuesday/members/")
    table = page.get_by_role("table", name="Members, organisers first")
    buttons = table.get_by_role("button", name="Remove")
    expect(buttons).to_have_count(league.memberships.count())
    screenshot(page, "members-phone")
    # The whole table fits the phone: every name and every button in view, no scrolling.
    for cell in [*table.locator("tbody th").all(), *table.get_by_role("button").all()]:
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
