"""A new version's gauntlet in a real browser, on a phone: the win rate against each opponent
with its 95% interval as the games come in, and the owner's promotion click that puts the new
version on the ladders."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from arena.models import BotVersion, GauntletMatch, LadderEntry
from tests.arena.gauntlet_cast import finish, matches_against, on_trial
from tests.e2e.conftest import PHONE, log_in, screenshot

pytestmark = [pytest.mark.browser]

Opponent = GauntletMatch.Opponent


@pytest.fixture
def halfway(transactional_db, monkeypatch):
    """tabby v2 on trial against v1 (2 deals: 12 matches, queued but never sent to a worker);
    6 of them recorded: 3 wins and a tie in 4 against v1, 2 wins in 2 against greedy."""
    monkeypatch.setattr("arena.common.enqueue", lambda match: None)
    gauntlet = on_trial(deals=2)
    for match, score in zip(
        matches_against(gauntlet, Opponent.REPLACED), [1, 1, 0.5, 1], strict=True
    ):
        finish(match, score)
    for match in matches_against(gauntlet, Opponent.GREEDY)[:2]:
        finish(match, 1)
    return gauntlet


def test_the_gauntlet_page_shows_intervals_and_the_owner_promotes(phone_page, halfway):
    page = phone_page
    log_in(page, "ada", "pw-123456789")
    page.goto("/arena/bots/tabby/")
    page.get_by_role("link", name="Gauntlet of v2").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Gauntlet of tabby v2")
    expect(page.locator("#gauntlet-progress")).to_contain_text("6 of 12")
    against_old = page.locator("#against-replaced")
    expect(against_old).to_contain_text("4 of 4")
    expect(against_old).to_contain_text("3.5")  # the tie counts half
    expect(against_old.locator(".gauntlet-interval")).to_have_text("40% – 99%")
    expect(against_old).to_contain_text("Not worse than v1: the interval’s upper end (99%)")
    expect(page.locator("#against-greedy")).to_contain_text("2 of 4")
    expect(page.locator("#against-mcts")).to_contain_text("No games counted yet.")
    expect(page.locator(".interval-bar")).to_have_count(2)
    expect(page.get_by_text("house mcts (medium: mcts, 50 playouts a move)")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "gauntlet-phone")

    page.get_by_role("button", name="Promote v2").click()
    expect(page.get_by_text("v2 is promoted: it plays on the ladders now.")).to_be_visible()
    expect(page.locator("#gauntlet-decision")).to_contain_text("Promoted")
    expect(page.get_by_role("button", name="Promote v2")).to_have_count(0)
    screenshot(page, "gauntlet-promoted-phone")
    page.get_by_role("link", name="tabby").first.click()
    expect(page.locator(".page-header")).to_contain_text("playing v2")
    assert BotVersion.objects.get(pk=halfway.version_id).status == BotVersion.Status.ACTIVE
    assert LadderEntry.objects.filter(version_id=halfway.version_id).exists()
