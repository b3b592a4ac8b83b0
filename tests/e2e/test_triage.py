"""A bot version's triage page in a real browser, on a phone and a desktop: faults first (the
owner sees the bot's stderr), the biggest losses, whose replay link opens the match's replay
at the decisive move, and the head-to-head against another version."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from arena.models import Bot
from arena.triage.decisive import decisive_move_of
from tests.arena.triage_matches import house_log, played, version
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.browser]


@pytest.fixture
def triaged(transactional_db):
    """Ada's "tabby": v1 lost a real two-player match (and faulted in it), played v2 twice."""
    ada = get_user_model().objects.create_user("ada", password="pw-123456789")
    tabby = Bot.objects.create(owner=ada, name="tabby")
    v1, v2 = version(tabby, 1), version(tabby, 2)
    log = house_log(4, 2)
    loser = log["result"]["ranks"].index(2)
    seats = [v1 if seat == loser else None for seat in range(2)]
    lost = played(
        seats,
        seed=4,
        faults_at={loser: [(loser + 2, "timeout", "no answer within 1000 ms")]},
        stderr={loser: "thinking hard...\nTraceback: TimeoutError in search()"},
    )
    played([v1, v2], seed=5, ranks=[1, 2], scores=[40, 31])
    played([v2, v1], seed=6, ranks=[1, 2], scores=[35, 28])
    move = decisive_move_of(lost.log, seat=loser)
    assert move is not None and 1 <= move <= len(lost.log["steps"])
    return {"lost": lost, "loser": loser, "move": move}


def test_the_triage_page_on_a_phone_opens_a_loss_at_its_decisive_move(phone_page, triaged):
    page = phone_page
    lost, move = triaged["lost"], triaged["move"]
    page.goto("/arena/bots/tabby/")
    page.get_by_role("link", name="Why it lost (v1)").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Why tabby v1 lost")
    faults = page.locator("#fault-list > li")
    expect(faults).to_have_count(1)
    expect(faults.first).to_contain_text("took too long")
    expect(faults.first).not_to_contain_text("TimeoutError")  # a visitor: no stderr
    expect(page.locator("#losses tbody tr")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "triage-phone")

    page.get_by_role("link", name=f"Decisive move of match #{lost.pk}").click()
    page.wait_for_url(f"**/arena/matches/{lost.pk}/#move={move}")
    expect(page.locator("#replay-slider")).to_have_value(str(move))
    expect(page.locator(f"#move-{move}")).to_have_attribute("aria-current", "step")
    expect(page.locator("#replay-status")).to_contain_text(f"Move {move} of ")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "triage-phone-decisive", full_page=False)


def test_the_owner_reads_the_stderr_and_compares_two_versions_on_a_desktop(page, triaged):
    log_in(page, "ada", "pw-123456789")
    page.goto("/arena/bots/tabby/v1/triage/")
    fault = page.locator("#fault-list > li").first
    expect(fault).to_contain_text("Reason: no answer within 1000 ms")
    fault.get_by_text("Your bot's stderr").click()
    expect(fault.locator("pre.stderr")).to_contain_text("TimeoutError in search()")

    page.get_by_label("Head-to-head against").select_option("v2")
    page.get_by_role("button", name="Compare").click()
    expect(page.locator("#h2h-total")).to_contain_text("1 won, 1 lost, 0 level in 2 matches")
    expect(page.locator("#h2h-players tbody tr")).to_have_count(1)
    expect(page.locator("#h2h-seats tbody th")).to_have_text(["Seat 1", "Seat 2"])
    screenshot(page, "triage-desktop")

    faulted = triaged["loser"] + 3  # the fault's step, counted from 1
    fault.get_by_role("link", name=f"move {faulted}", exact=True).click()
    expect(page.locator("#replay-slider")).to_have_value(str(faulted))
    expect(page.locator("#replay-status")).to_contain_text("timeout: fallback move played")
