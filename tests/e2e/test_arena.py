"""The arena in a real browser: upload a bot through the form, read a ladder, and step through
a replay with the buttons and the keyboard, in the full view and in one seat's own view."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from arena.ladders.services import ladder_schedule, ladders_ensure
from arena.models import Bot, Ladder, Match
from arena.submissions.services import bot_create
from tests.e2e.conftest import house_match, log_in, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("eager_celery")]

PASSWORD = "pw-correct-horse-42"
STEADY = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"
FIRST = "def choose(observation, legal_actions):\n    return 0\n"
MIDDLE = "def choose(observation, legal_actions):\n    return len(legal_actions) // 2\n"


@pytest.fixture
def author(transactional_db):
    return get_user_model().objects.create_user("ada", password=PASSWORD)


@pytest.fixture
def ladder_with_bots(author):
    """Three active bots and a few duplicate sets on the 3-player ladder."""
    ladders_ensure()  # a transactional test starts with empty tables
    other = get_user_model().objects.create_user("bob", password=PASSWORD)
    for name, owner, code in (
        ("steady", author, STEADY),
        ("firsty", other, FIRST),
        ("middling", other, MIDDLE),
    ):
        bot_create(owner=owner, name=name, source=code, description=f"{name} bot")
    ladder = Ladder.objects.get(game="cat-lady", players=3)
    rng = random.Random(4)
    for _ in range(2):
        ladder_schedule(ladder=ladder, rng=rng)
    ladder_schedule(ladder=Ladder.objects.get(game="cat-lady", players=2), rng=rng)
    assert not Match.objects.exclude(status=Match.Status.FINISHED).exists()
    return ladder


@pytest.fixture
def four_player_match(transactional_db):
    return house_match("greedy", "random", "greedy", "random", seed=77)


def choose_bot_file(page, name: str, source: bytes) -> None:
    """Pick a Python file for the form's "Bot file" field, as a person choosing it would."""
    file = {"name": name, "mimeType": "text/x-python", "buffer": source}
    page.get_by_label("Bot file").set_input_files(files=[file])


def test_upload_a_bot_then_a_broken_version(page, author):
    log_in(page, "ada", PASSWORD)
    page.goto("/arena/bots/new/")
    page.get_by_label("Name").fill("steady")
    page.get_by_label("Description").fill("Always the last legal move.")
    choose_bot_file(page, "steady.py", STEADY.encode())
    page.get_by_role("button", name="Create bot").click()
    expect(page).to_have_url(re.compile(r"/arena/bots/steady/$"))
    expect(page.get_by_role("heading", name="steady", exact=True)).to_be_visible()
    expect(page.locator("#latest-status")).to_contain_text("passed validation")

    # A version with a syntax error is refused beside the file field; nothing is stored.
    choose_bot_file(page, "v2.py", b"def choose(observation, legal_actions):\n    return [\n")
    page.get_by_role("button", name="Upload version").click()
    error = page.locator("#id_file_error")
    expect(error).to_contain_text("Syntax error on line 2")
    expect(page.get_by_label("Bot file")).to_have_attribute("aria-invalid", "true")
    assert Bot.objects.get(name="steady").versions.count() == 1

    # One that crashes in its validation match is stored, rejected, and says why.
    crashes = b"def choose(observation, legal_actions):\n    raise KeyError('oops')\n"
    choose_bot_file(page, "v2.py", crashes)
    page.get_by_role("button", name="Upload version").click()
    expect(page.locator("#latest-status")).to_contain_text("v2")
    expect(page.locator("#latest-status")).to_contain_text("rejected")
    expect(page.locator(".rejection-text").first).to_contain_text("oops")
    expect(page.get_by_role("link", name="View source of v1")).to_be_visible()


def test_ladder_and_bot_pages(page, ladder_with_bots, author):
    page.goto("/arena/")
    expect(page.get_by_role("heading", name="Bot arena")).to_be_visible()
    page.get_by_role("link", name="Cat Lady, 3 players").click()
    rows = page.locator("table.standings tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_contain_text("provisional")
    screenshot(page, "ladder")

    log_in(page, "ada", PASSWORD)
    page.goto("/arena/bots/steady/")
    expect(page.locator("#bot-rating svg")).to_be_visible()
    expect(page.get_by_role("heading", name="Faults and stderr of recent matches")).to_be_visible()
    screenshot(page, "bot")


def current_status(page):
    return page.locator("#replay-status").inner_text()


def test_step_through_a_replay_with_buttons_and_keys(page, four_player_match):
    match = four_player_match
    moves = len(match.log["steps"])
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/arena/matches/{match.pk}/")
    status = page.locator("#replay-status")
    expect(status).to_contain_text("Deal: before the first move")
    expect(page.locator(".cl-grid .cl-card")).to_have_count(9)
    expect(page.locator(".cl-player")).to_have_count(4)

    page.get_by_role("button", name="Forward").click()
    expect(status).to_contain_text(f"Move 1 of {moves}")
    expect(status).to_contain_text("Place the cat token on ")  # the table's words
    expect(page.locator(".cl-token")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect(status).to_contain_text(f"Move 2 of {moves}")
    expect(page.locator("#move-2")).to_have_attribute("aria-current", "step")
    page.get_by_role("button", name="Back").click()
    expect(status).to_contain_text(f"Move 1 of {moves}")
    page.keyboard.press("End")
    expect(status).to_contain_text("Game over")
    expect(page.get_by_role("button", name="Forward")).to_be_disabled()
    final_scores = [int(s) for s in page.locator(".cl-score strong").all_inner_texts()]
    assert final_scores == match.log["result"]["scores"]
    page.keyboard.press("Home")
    expect(status).to_contain_text("Deal")

    # Space plays from the page (focus on the body), and pauses again.
    page.locator("h1").click()
    page.keyboard.press("Space")
    play = page.locator('[data-action="play"]')
    expect(play).to_have_text("Pause")
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(status).not_to_contain_text("Deal", timeout=5000)
    page.keyboard.press("Space")
    expect(play).to_have_text("Play")
    expect(status).to_have_attribute("aria-live", "polite")

    # Jump to a turn.
    page.get_by_label("Jump to turn").fill("12")
    page.get_by_label("Jump to turn").press("Enter")
    expect(status).to_contain_text("turn 12:")

    # A click on the move list jumps there too.
    page.locator("#move-30").click()
    expect(status).to_contain_text(f"Move 30 of {moves}")
    screenshot(page, "replay")
    assert not errors, errors


def test_seat_view_hides_what_that_seat_cannot_know(page, four_player_match):
    match = four_player_match
    page.goto(f"/arena/matches/{match.pk}/")
    data = json.loads(page.locator("#replay-data").text_content())
    page.keyboard.press("ArrowRight")
    hidden = page.locator(".cl-hidden")
    expect(hidden).to_contain_text("Next cards in the deck, in order")
    upcoming = data["frames"][1]["hidden"]["next_cards"]
    names = [data["meta"]["cards"][key]["name"] for key in upcoming]
    shown = hidden.locator(".cl-next .cl-card-name").all_inner_texts()
    assert len(shown) == len(names)
    assert all(text.strip().endswith(name) for text, name in zip(shown, names, strict=True))
    expect(hidden).to_contain_text("Strays never dealt")

    page.get_by_label("View").select_option("1")
    expect(page.locator(".cl-viewer")).to_contain_text("Seat 2")
    expect(hidden).to_contain_text("Deck order: hidden")
    expect(hidden).not_to_contain_text("Next cards in the deck")
    expect(hidden.locator(".cl-next")).to_have_count(0)
    for stray in data["frames"][1]["hidden"]["strays_face_down"]:
        expect(page.locator("#replay-stage")).not_to_contain_text(stray)
    # Moving on keeps the chosen view.
    page.keyboard.press("ArrowRight")
    expect(hidden).to_contain_text("Deck order: hidden")
    page.get_by_label("View").select_option("full")
    expect(hidden).to_contain_text("Next cards in the deck, in order")


def test_replay_on_a_phone(phone_page, four_player_match):
    phone_page.goto(f"/arena/matches/{four_player_match.pk}/")
    for _ in range(8):
        phone_page.get_by_role("button", name="Forward").click()
    expect(phone_page.locator("#replay-status")).to_contain_text("Move 8")
    width = phone_page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
    phone_page.locator("#replay").scroll_into_view_if_needed()
    screenshot(phone_page, "replay-phone", full_page=False)


def test_without_javascript_the_result_and_moves_are_there(browser, live_server, four_player_match):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/arena/matches/{four_player_match.pk}/")
    expect(page.locator(".replay-app")).to_be_hidden()
    expect(page.locator("#move-list li")).to_have_count(len(four_player_match.log["steps"]))
    expect(page.locator("table.score-pad")).to_contain_text("Fed cats")
    context.close()


@pytest.mark.parametrize(
    ("options", "house_bots", "expected"),
    [
        (
            {"edition": "box-of-treats-placeholder", "shared_goals": True},
            ["greedy", "random", "random", "random", "greedy"],
            "Shared goals",
        ),
        (
            {"edition": "box-of-treats-placeholder", "solitaire": True},
            ["greedy", "cat-player"],
            "Cat player (Seat 2)",
        ),
    ],
    ids=["shared-goals", "solitaire"],
)
def test_expansion_replays_draw_their_extra_state(
    page, transactional_db, options, house_bots, expected
):
    match = house_match(*house_bots, seed=6, options=options)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/arena/matches/{match.pk}/")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-stage")).to_contain_text(expected)
    expect(page.locator("#replay-stage .badge-placeholder").first).to_be_visible()
    expect(page.locator(".cl-player")).to_have_count(len(house_bots))
    page.keyboard.press("End")
    expect(page.locator("#replay-status")).to_contain_text("Game over")
    page.get_by_label("View").select_option("0")
    expect(page.locator(".cl-hidden")).to_contain_text("Deck order: hidden")
    assert not errors, errors
