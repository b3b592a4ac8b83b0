"""The review after a live game in a real browser, on a phone: the finished game's page opens
the review in the replay of the person's own view, a panel per move of theirs (their move, the
house MCTS's choice, each candidate's win chance, in the table's words), and steps from one
reviewed move to the next; while the task has not run, the page says the review is being
prepared. The person's game list leads to it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from arena.models import MoveReview
from tests.arena.live_games import finished_live_match
from tests.e2e.conftest import DESKTOP, PHONE, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def reviewed_match(transactional_db, settings):
    settings.ARENA_REVIEW_ITERATIONS = 40
    pia = get_user_model().objects.create_user("pia", password="pw-123456789")
    match = finished_live_match(pia, seed=3)  # the review task runs as the recording commits
    review = MoveReview.objects.get(match=match)
    assert review.status == MoveReview.Status.DONE
    return match, review.review


def test_open_the_review_of_a_finished_game_on_a_phone(phone_page, reviewed_match):
    match, review = reviewed_match
    page = phone_page
    page.goto(f"/arena/matches/{match.pk}/")
    summary = page.locator("#review")
    expect(summary).to_contain_text(f"{len(review['moves'])} moves reviewed")
    summary.get_by_role("button", name="Show the review in the replay").click()

    panel = page.locator("#review-panel")
    expect(panel).to_be_visible()
    first = review["moves"][0]
    expect(panel.get_by_role("heading")).to_have_text(
        f"Review of move {first['step'] + 1} (Seat 1)"
    )
    # In the table's words: the cards of the line by name, not "take row 2".
    assert first["played_label"].startswith(("Take ", "Place ")) and ":" in first["played_label"]
    expect(panel).to_contain_text(f"You played: {first['played_label']}")
    expect(panel).to_contain_text(f"The house MCTS would play: {first['best_label']}")
    candidates = panel.get_by_role("list", name="Win chance of each candidate move").locator("li")
    expect(candidates).to_have_count(len(first["candidates"]))
    expect(candidates.first).to_contain_text(f"{round(100 * first['candidates'][0]['win'])}%")
    expect(candidates.first).to_contain_text("MCTS choice")
    expect(candidates.first).to_contain_text(first["candidates"][0]["label"])
    expect(page.locator("#replay-view")).to_have_value("0")  # the person's own view
    # The panel stands at the position the person chose from, before their move.
    expect(page.locator("#replay-slider")).to_have_value(str(first["step"]))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "review-phone", full_page=False)

    panel.get_by_role("button", name="Next reviewed move").click()
    second = review["moves"][1]
    expect(panel.get_by_role("heading")).to_have_text(
        f"Review of move {second['step'] + 1} (Seat 1)"
    )
    expect(panel).to_contain_text(f"You played: {second['played_label']}")

    flagged = [move for move in review["moves"][1:] if move["flagged"]]
    if flagged:  # a random player's game: there is nearly always one after the first move
        page.get_by_role("button", name="Show the review in the replay").click()
        panel.get_by_role("button", name="Next flagged move").click()
        percent = round(100 * flagged[0]["loss"])
        expect(panel.get_by_role("heading")).to_have_text(
            f"Review of move {flagged[0]['step'] + 1} (Seat 1)"
        )
        expect(panel).to_contain_text(f"Flagged: this move gave away {percent}% win chance")
        expect(page.locator(f"#move-{flagged[0]['step'] + 1}")).to_contain_text(
            f"lost {percent}% win chance"
        )
        screenshot(page, "review-phone-flagged", full_page=False)

    # Moves of the other seats have no panel; the full view has none either.
    page.locator("#replay-view").select_option("full")
    expect(panel).to_be_hidden()


def test_a_review_not_yet_done_says_it_is_being_prepared(phone_page, reviewed_match):
    match, _ = reviewed_match
    MoveReview.objects.filter(match=match).update(status=MoveReview.Status.PENDING, review=None)
    phone_page.goto(f"/arena/matches/{match.pk}/")
    expect(phone_page.locator("#review")).to_contain_text("review being prepared")
    expect(phone_page.get_by_role("button", name="Show the review in the replay")).to_have_count(0)
    expect(phone_page.locator("#review-panel")).to_be_hidden()


def test_the_game_list_leads_to_the_review_on_a_phone(phone_page, reviewed_match):
    match, review = reviewed_match
    page = phone_page
    log_in(page, "pia", "pw-123456789")
    page.goto("/arena/play/")
    page.get_by_role("link", name="All your games, with their replays and reviews").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Your games against bots")

    row = page.locator(f'[data-match="{match.pk}"]')
    expect(row).to_contain_text("house:greedy")
    expect(row).to_contain_text(" of 2")
    links = [row.get_by_role("link", name="Replay"), row.get_by_role("link", name="Review")]
    for link in links:  # every action in full on the phone's screen, none cut off
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    screenshot(page, "play-games-phone")

    links[1].click()
    panel = page.locator("#review-panel")
    expect(panel).to_be_visible()  # the list's link opens the review at the first move
    first = review["moves"][0]
    expect(panel).to_contain_text(f"You played: {first['played_label']}")
    screenshot(page, "review-from-list-phone", full_page=False)

    page.set_viewport_size(DESKTOP)
    page.goto("/arena/play/games/")
    expect(page.locator(f'[data-match="{match.pk}"]')).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    screenshot(page, "play-games-desktop")
    page.get_by_role("link", name="Review").first.click()
    expect(panel).to_contain_text(f"The house MCTS would play: {first['best_label']}")
    panel.scroll_into_view_if_needed()
    screenshot(page, "review-desktop", full_page=False)
