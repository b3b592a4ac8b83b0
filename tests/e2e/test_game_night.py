"""An organiser runs a game night from a phone: opens it for seven people (four members and
three guests), draws round 1 (a table of 4 and one of 3), enters both tables' results in the
league's result form pre-filled with each table, draws round 2 Swiss-style, and enters a table."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from league.clubs import services
from league.models import GameNight, NightTable, Player
from league.nights import services as nights
from league.results import seating as night_seating
from tests.e2e.conftest import log_in, screenshot
from tests.league.conftest import olive_opens_night

pytestmark = [pytest.mark.browser]


def enter_table(page: Page, round_number: int, table_number: int) -> None:
    """Enter a table's result: seat 1 scores most, then each seat two VP less."""
    card = page.get_by_label(f"Round {round_number}, table {table_number}")
    card.get_by_role("link", name="Enter result").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        f"Round {round_number}, table {table_number}: the result"
    )
    page.get_by_label("Each player's totals from the score pad").check()
    page.get_by_role("button", name="Next: the players").click()
    seats = page.locator("[id^=seat-]")
    for index in range(seats.count()):
        page.locator(f"#seat-{index + 1}").get_by_label("Total VP").fill(str(30 - 2 * index))
    page.get_by_role("button", name="Check and preview").click()
    page.get_by_role("button", name="Save this game").click()
    expect(page.get_by_text("Game saved and ratings updated.")).to_be_visible()


def test_organiser_runs_a_two_round_night_of_seven_from_a_phone(
    phone_page, users, league, players, transactional_db
):
    for name in ("Rosa", "Sam", "Tom"):
        services.guest_add(league=league, name=name, by=users["olive"])
    page = phone_page
    log_in(page, "olive", "pw-123456789")

    page.goto("/leagues/tuesday/")
    page.get_by_role("link", name="Game nights").click()
    page.get_by_role("link", name="Open a night").click()
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("At random").check()
    page.get_by_label("Where").fill("Club room")
    for name in ("Olive", "Mia", "Ned", "Pat", "Rosa", "Sam", "Tom"):
        page.get_by_label(name, exact=True).check()
    screenshot(page, "night-open-phone")
    page.get_by_role("button", name="Open the night").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Game night")
    night = GameNight.objects.get()
    assert night.attendees.filter(present=True).count() == 7

    page.get_by_role("button", name="Draw round 1").click()
    expect(page.get_by_text("Round 1 drawn.")).to_be_visible()
    sizes = sorted(t.seats.count() for t in NightTable.objects.filter(round__number=1))
    assert sizes == [3, 4]
    page.get_by_text("How round 1 was drawn").click()
    expect(page.get_by_text("First round: seats drawn at random.")).to_be_visible()
    screenshot(page, "night-round-1-phone")

    enter_table(page, 1, 1)
    expect(page.get_by_role("button", name="Draw round 2")).to_have_count(0)
    enter_table(page, 1, 2)
    standings = page.get_by_role("table", name="Tonight's standings")
    expect(standings.locator("tbody tr")).to_have_count(7)
    expect(standings.locator("tbody tr").first).to_contain_text("1")

    page.get_by_role("button", name="Draw round 2").click()
    expect(page.get_by_text("Round 2 drawn.")).to_be_visible()
    first_round = [
        set(night_seating.table_setup(t)) for t in NightTable.objects.filter(round__number=1)
    ]
    for table in NightTable.objects.filter(round__number=2):
        assert not any(set(night_seating.table_setup(table)) <= before for before in first_round)
    expect(page.get_by_role("button", name="Undo round 2 (no results yet)")).to_be_visible()
    enter_table(page, 2, 1)
    expect(page.get_by_role("button", name="Undo round 2 (no results yet)")).to_have_count(0)
    expect(
        page.get_by_label("Round 2, table 1").get_by_role("link", name="The game")
    ).to_be_visible()
    screenshot(page, "night-standings-phone")
    assert league.games.count() == 3
    assert all(p.rating_after is not None for g in league.games.all() for p in g.participants.all())


def test_a_player_from_another_table_is_refused_beside_their_row(
    phone_page, users, league, players, transactional_db
):
    cast = [players[n] for n in ("olive", "mia", "ned", "pat")]
    for name in ("Rosa", "Sam", "Tom"):
        cast.append(services.guest_add(league=league, name=name, by=users["olive"]).player)
    night = olive_opens_night(league, users, timezone.localdate(), cast, rounds=1)
    drawn = nights.round_draw(night=night, by=users["olive"])
    first, second = drawn.tables.get(number=1), drawn.tables.get(number=2)
    stranger = Player.objects.get(pk=night_seating.table_setup(second)[0])
    left_out = Player.objects.get(pk=night_seating.table_setup(first)[3])
    page = phone_page
    log_in(page, "mia", "pw-123456789")
    page.goto(f"/leagues/tuesday/nights/{night.pk}/")
    page.get_by_label("Round 1, table 1").get_by_role("link", name="Enter result").click()
    page.get_by_label("Each player's totals from the score pad").check()
    page.get_by_role("button", name="Next: the players").click()
    page.locator("#seat-4").get_by_label("Player").select_option(str(stranger.pk))
    for index in range(4):
        page.locator(f"#seat-{index + 1}").get_by_label("Total VP").fill(str(30 - 2 * index))
    # The preview refuses the table already, as Save would.
    page.get_by_role("button", name="Check and preview").click()
    expect(page.get_by_role("button", name="Save this game")).to_have_count(0)
    row = page.locator("#seat-4")
    expect(row.locator(".field-errors")).to_have_text(
        f"{stranger} sat at table 2, not at table 1 of round 1."
    )
    expect(page.locator("#error-summary")).to_contain_text(
        f"Everyone drawn to table 1 of round 1 is in its result: {left_out} is missing."
    )
    screenshot(page, "night-table-wrong-player-summary-phone", full_page=False)
    row.get_by_label("Player").scroll_into_view_if_needed()
    screenshot(page, "night-table-wrong-player-phone", full_page=False)
    first.refresh_from_db()
    assert first.game is None and not league.games.exists()

    row.get_by_label("Player").select_option(str(left_out.pk))
    page.get_by_role("button", name="Check and preview").click()
    page.get_by_role("button", name="Save this game").click()
    expect(page.get_by_text("Game saved and ratings updated.")).to_be_visible()
    first.refresh_from_db()
    assert first.game is not None
