"""A Cantankerous Cats replay in a real browser: every hand in the full view, only the chosen
seat's hand in a seat's view, and the Pounce windows with their (hidden, then revealed)
choices."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import house_match, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def cantankerous_match(transactional_db):
    return house_match("greedy", "random", "random", "greedy", seed=3, game="cantankerous-cats")


def test_cantankerous_replay_hides_hands_per_seat_and_shows_pounce_windows(
    page, cantankerous_match
):
    page.goto(f"/arena/matches/{cantankerous_match.pk}/")
    data = json.loads(page.locator("#replay-data").text_content())
    assert data["renderer"] == "cantankerous-cats"
    stage = page.locator("#replay-stage")
    expect(stage).to_contain_text("demo — not the published cards")
    expect(page.locator(".cc-player")).to_have_count(4)
    expect(stage).to_contain_text("First Bite, round 1")

    # The first Pounce window: the full view shows who chose what before the reveal.
    pounce = next(
        i
        for i, f in enumerate(data["frames"])
        if f["hidden"]["window"]
        and f["hidden"]["window"]["kind"] == "pounce"
        and f["hidden"]["window"]["choices"]
    )
    page.locator(f"#move-{pounce}").click()
    window = page.locator(".cc-window")
    expect(window).to_contain_text("Pounce window after")
    expect(window).to_contain_text("Choices so far (hidden from the other seats")
    chooser = int(next(iter(data["frames"][pounce]["hidden"]["window"]["choices"])))
    hands = data["frames"][pounce]["hidden"]["hands"]
    expect(page.locator(".cc-player").nth(0)).to_contain_text(f"Hand ({len(hands[0])})")
    screenshot(page, "replay-cantankerous")

    # A seat that has not chosen sees neither the choices nor the other hands.
    other = next(seat for seat in range(4) if seat != chooser and seat != 0)
    page.get_by_label("View").select_option(str(other))
    expect(window).not_to_contain_text("Choices so far")
    expect(window).to_contain_text("hidden until everyone has decided")
    players = page.locator(".cc-player")
    expect(players.nth(other)).to_contain_text(f"Hand ({len(hands[other])})")
    for seat in range(4):
        if seat != other:
            expect(players.nth(seat)).to_contain_text(f"Hand: {len(hands[seat])} cards (hidden)")
    # The chooser's own view shows its own choice.
    page.get_by_label("View").select_option(str(chooser))
    expect(window).to_contain_text("Your choice:")

    page.get_by_label("View").blur()  # keys typed into the select are the select's own
    page.keyboard.press("End")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    scores = [int(s) for s in page.locator(".cc-player .cl-score strong").all_inner_texts()]
    assert scores == cantankerous_match.log["result"]["scores"]
