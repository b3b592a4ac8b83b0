"""The replay viewer says every move in the table's words (issue 27): stepping a replay of
each game in a real browser, the status line names the cards by printed name, the move's rule
is a tap away, and each seat's block of the board notes that seat's last move."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from arena.common import SeatInput
from arena.matches.services import challenge_create
from arena.models import Match
from tests.arena.card_words import bare_numbers, card_names
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_celery")]

STATUS = re.compile(r"^Move (\d+) of \d+, turn \d+: Seat (\d+) \([^)]*\): (.*?)(?: \[.*\])?\.")
STEPS = 60  # enough to cross a few turns of either game without a minute per test


def finished_challenge(game: str, bots: tuple[str, ...], seed: int) -> Match:
    match = challenge_create(
        seats=[SeatInput(builtin=name) for name in bots], by=None, seed=seed, game=game
    )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def step_and_read(page: Page, match: Match) -> dict:
    """Step the replay move by move, checking each status line against the move's label."""
    page.goto(f"/arena/matches/{match.pk}/")
    data = json.loads(page.locator("#replay-data").text_content())
    names = card_names(data)
    status = page.locator("#replay-status")
    expect(status).to_contain_text("Deal: before the first move")
    forward = page.get_by_role("button", name="Forward")
    forward.click()  # the first move as a person taps it
    expect(status).to_contain_text("Move 1 of")
    # The rest by the page itself, each status line read as the tap leaves it (the viewer
    # writes it in the click's handler): one call to the browser, not three a move.
    lines = [status.text_content()] + forward.evaluate(
        """(button, steps) => Array.from({length: steps}, () => {
            button.click();
            return document.getElementById("replay-status").textContent;
        })""",
        min(STEPS, len(data["moves"])) - 1,
    )
    for index, line in enumerate(lines, start=1):
        assert line.startswith(f"Move {index} of"), line
        found = STATUS.match(line)
        assert found, line
        move = data["moves"][index - 1]
        label = found.group(3)
        assert (label, int(found.group(2))) == (move["label"], move["seat"] + 1)
        assert bare_numbers(label, names) == [], label
        assert label != move["text"]
    return data


def assert_rule_and_last_moves(page: Page, data: dict) -> None:
    at = int(STATUS.match(page.locator("#replay-status").text_content()).group(1))
    rule = page.locator("#replay-rule")
    rule.locator("summary").click()
    expect(rule.locator("p")).to_have_text(data["moves"][at - 1]["rule"])
    last = {move["seat"]: move["label"] for move in data["moves"][:at]}
    notes = page.locator(".pb-last")
    expect(notes).to_have_count(len(last))
    for seat, label in last.items():
        expect(page.locator(f'#replay-stage [data-seat="{seat}"] .pb-last')).to_contain_text(label)


def assert_seat_view_lines(page: Page, data: dict) -> None:
    """The seat to move's view lists its legal moves in the table's words, and the events
    beside the board name their cards."""
    at = int(STATUS.match(page.locator("#replay-status").text_content()).group(1))
    at = max(index for index in range(at + 1) if data["frames"][index]["legal_moves"])
    frame = data["frames"][at]
    page.locator(f"#move-{at}").click()
    page.get_by_label("View").select_option(str(frame["to_move"]))
    line = page.locator("#replay-stage p.cl-label", has_text="Legal moves now:")
    expect(line).to_have_text("Legal moves now: " + " · ".join(frame["legal_moves"]))
    names = card_names(data)
    for text in page.locator("#replay-stage .cc-events li").all_inner_texts():
        assert bare_numbers(text, names) == [], text


def test_a_cat_lady_replay_names_every_card_it_steps_through(page):
    match = finished_challenge("cat-lady", ("greedy", "random"), seed=7)
    data = step_and_read(page, match)
    assert_rule_and_last_moves(page, data)
    assert_seat_view_lines(page, data)
    screenshot(page, "replay-words-cat-lady-1280")


def test_a_cantankerous_replay_names_every_card_it_steps_through(page):
    match = finished_challenge("cantankerous-cats", ("greedy", "random", "random"), seed=5)
    data = step_and_read(page, match)
    assert_rule_and_last_moves(page, data)
    screenshot(page, "replay-words-cantankerous-1280")
    assert_seat_view_lines(page, data)


def test_the_replay_words_fit_a_phone(phone_page):
    match = finished_challenge("cantankerous-cats", ("greedy", "random", "random"), seed=5)
    phone_page.goto(f"/arena/matches/{match.pk}/")
    for _ in range(8):
        phone_page.get_by_role("button", name="Forward").click()
    expect(phone_page.locator("#replay-status")).to_contain_text("Move 8 of")
    phone_page.locator("#replay-rule summary").click()
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    phone_page.locator("#replay-rule").scroll_into_view_if_needed()
    screenshot(phone_page, "replay-words-cantankerous-390", full_page=False)
