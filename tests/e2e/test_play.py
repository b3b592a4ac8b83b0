"""A person plays whole games against bots in the browser, through a real live worker (its own
Celery queue, threads, on Redis) and the real sandbox for an uploaded bot; on a phone and on
a desktop; a move left to time out, and a page closed and opened again mid-game."""

from __future__ import annotations

import contextlib
import random
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from arena.models import LiveSeat, Match, PlayRating
from arena.submissions.services import bot_create
from config.celery import app as celery_app
from tests.arena.bots import bot_source
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.workers import Worker, require_real_services

pytestmark = [pytest.mark.browser, pytest.mark.integration]
ROOT = Path(__file__).resolve().parents[2]
GAME_TIMEOUT_S = 240
CHOOSER = random.Random(27)


@pytest.fixture(scope="module")
def live_queue() -> str:
    return f"live-test-{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="module")
def live_worker(django_db_setup, django_db_blocker, live_queue) -> Iterator[Worker]:
    """A live worker as in production (threads, its own queue) on the test database."""
    require_real_services()
    env = {"ARENA_LIVE_QUEUE": live_queue, "ARENA_LIVE_PACE_MS": "0"}
    worker = Worker(live_queue, threads=True, concurrency=4, env=env).start()
    try:
        yield worker
    finally:
        # Killed, not stopped warmly: a test may end mid-game (a move left to time out, a
        # guest's turn), and a warm shutdown would wait for that seat's answer until its 20 s
        # grace ran out. Nothing the worker still plays is looked at again.
        worker.kill()
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(live_queue)


@pytest.fixture
def live(live_worker, live_queue, settings, transactional_db):
    settings.ARENA_LIVE_QUEUE = live_queue
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def person(transactional_db):
    return get_user_model().objects.create_user("pia", password="pia-password-123")


@pytest.fixture
def table_page(browser: Browser, live_server) -> Iterator:
    """Opens browser pages in ``user``'s own session (as a person who just logged in); their
    contexts close when the test ends, so no page polls a server that is gone."""
    contexts = []

    def open_page(user, viewport) -> Page:
        page = _session_page(browser, live_server, user, viewport)
        contexts.append(page.context)
        return page

    yield open_page
    for context in contexts:
        context.close()


def _session_page(browser: Browser, live_server, user, viewport) -> Page:
    client = Client()
    client.force_login(user)
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.script_errors = errors  # type: ignore[attr-defined]
    return page


def start_game(page: Page, game: str, opponents: list[str], seat: int = 1) -> int:
    page.goto("/arena/play/")
    form = page.locator("#play-form")
    form.locator("[name=game]").select_option(game)
    form.locator("[name=players]").fill(str(len(opponents) + 1))
    form.locator("[name=players]").dispatch_event("input")
    form.locator("[name=seat]").select_option(str(seat))
    for index, value in enumerate(opponents, start=1):
        form.locator(f"[name=opponent_{index}]").select_option(value)
    page.get_by_role("button", name="Take your seat").click()
    page.wait_for_url("**/arena/play/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


# What the table offers a person now, decided in the page in one look (each Playwright query
# is a round trip through the driver, and the loop waits on bots far more than it taps):
# "over", or the first of "confirm", "listed", "target", "plain" that can be tapped; false
# while there is nothing to do. The selectors and their order are play_moves' taps.
NEXT_TAP = """() => {
    const text = (document.querySelector("#play-status") || {}).innerText || "";
    if (text.startsWith("Game over") || text.includes("could not")) return "over";
    const panel = document.querySelector("#play-legal");
    if (!panel) return false;
    const shown = (node) =>
        node.getClientRects().length > 0 && getComputedStyle(node).visibility !== "hidden";
    const all = (root, selector) => Array.from(root.querySelectorAll(selector));
    if (all(panel, ".pb-play:not([disabled])").some(shown)) return "confirm";
    if (panel.querySelector(".pb-moves:not(.pb-plain) button:not([disabled])")) return "listed";
    if (document.querySelector("#play-board .pb-target") && shown(panel)) return "target";
    if (panel.querySelector(".pb-plain button:not([disabled])")) return "plain";
    return false;
}"""


def play_moves(page: Page, *, until_over: bool = True, moves: int | None = None) -> int:
    """Play as a person on the board: tap a highlighted part of it (a line, a stray, a card),
    choose among its moves when it has several, and confirm; a move that takes nothing on the
    board (end the turn, pass) is a button in the panel. Returns the moves made; every
    confirmation names its move, and none holds a bare card number."""
    made = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    status = page.locator("#play-status")
    panel = page.locator("#play-legal")
    page.taps = getattr(page, "taps", 0)  # type: ignore[attr-defined]
    while (left_s := deadline - time.monotonic()) > 0:
        if moves is not None and made >= moves:
            return made
        try:
            offered_tap = page.wait_for_function(
                NEXT_TAP, polling=50, timeout=left_s * 1000
            ).json_value()
        except PlaywrightTimeout:
            break
        if offered_tap == "over":
            return made
        # The table may redraw under the pointer between the look and the tap: look again.
        with contextlib.suppress(PlaywrightTimeout):
            if offered_tap == "confirm":
                question = panel.locator(".pb-question").inner_text()
                assert_no_bare_card_number(question)
                panel.locator(".pb-play:visible:not([disabled])").click(timeout=2000)
                made += 1
            elif offered_tap == "listed":
                listed = panel.locator(".pb-moves:not(.pb-plain) button:not([disabled])")
                if not getattr(page, "listed_shown", False) and listed.count() > 1:
                    page.listed_shown = True  # type: ignore[attr-defined]
                    screenshot(page, f"play-choices-{page.viewport_size['width']}", full_page=False)
                listed.first.click(timeout=2000)
            elif offered_tap == "target":
                # Any of the things the board offers, as a person would pick (seeded).
                target = page.locator("#play-board .pb-target")
                if offered := target.count():
                    target.nth(CHOOSER.randrange(offered)).click(timeout=2000)
                    page.taps += 1  # type: ignore[attr-defined]
            else:
                panel.locator(".pb-plain button:not([disabled])").first.click(timeout=2000)
    if until_over:
        pytest.fail(
            f"the game did not end in {GAME_TIMEOUT_S} s; last status: {status.inner_text()}"
        )
    return made


def assert_no_bare_card_number(text: str) -> None:
    """A card is named by its name (Cantankerous Cats' also by its printed number, "#12
    Name"): never a number alone where the card belongs, as in "buy-token 23 31 40"."""
    assert not re.search(r"#\d+\b(?! [A-Z])", text), f"a card number without its name: {text!r}"
    assert not re.search(
        r"\b(bet|keep|bank|score|discard|play|with|buy-token|instant) \d", text, re.IGNORECASE
    ), f"a bare card number: {text!r}"


def assert_finished_and_rated(match_id: int, user, players: int) -> Match:
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished" and match.kind == "live"
    assert match.log["players"][[s.seat for s in match.seats.all() if s.player_id][0]]["kind"] == (
        "human"
    )
    assert PlayRating.objects.get(user=user, game=match.game, players=players).games >= 1
    # Bots are rated in the same pool, flagged as bots.
    assert PlayRating.objects.filter(game=match.game, players=players, user=None).exists()
    return match


def test_cat_lady_two_players_on_a_phone_against_a_house_bot(table_page, live, person):
    page = table_page(person, PHONE)
    match_id = start_game(page, "cat-lady", ["house:cat-lady:greedy"])
    page.locator("#play-board .pb-target").first.wait_for()
    # A table in a background tab still says when it is your move.
    assert page.title().startswith("Your move · ")
    screenshot(page, "play-cat-lady-phone")
    # By keyboard: a highlighted line is focusable; Enter selects it and shows what it takes,
    # and Enter again on the focused confirmation plays it.
    page.locator("#play-board .pb-target").first.focus()
    page.keyboard.press("Enter")
    assert page.locator("#play-board .pb-selected").count() >= 1
    page.locator("#play-legal .pb-play").wait_for()
    screenshot(page, "play-cat-lady-phone-selected", full_page=False)
    assert "cannot be taken back" in page.locator("#play-legal .pb-question").inner_text()
    page.keyboard.press("Enter")
    page.locator("#play-log li").filter(has_text="You:").first.wait_for()
    assert play_moves(page) > 5
    assert page.taps > 5  # type: ignore[attr-defined]
    assert page.locator("#play-status").inner_text().startswith("Game over: you placed")
    assert not page.locator("#play-legal").is_visible()  # nothing left to tap
    assert page.title().startswith("Game over · ")
    screenshot(page, "play-cat-lady-phone-over")
    assert_finished_and_rated(match_id, person, 2)
    assert page.script_errors == []


def test_cat_lady_four_players_on_a_desktop_with_an_uploaded_bot(
    table_page, live, person, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.conf.task_always_eager = True  # validate the upload here, in the sandbox
    bot = bot_create(owner=person, name="table-mate", source=bot_source("first_legal"))
    celery_app.conf.task_always_eager = False
    version = bot.versions.get()
    assert version.status == "active", version.waiting_reason or version.rejection
    page = table_page(person, DESKTOP)
    match_id = start_game(
        page,
        "cat-lady",
        [f"v:{version.pk}", "house:cat-lady:greedy", "house:cat-lady:random"],
        seat=2,
    )
    page.locator("#play-board .pb-target").first.wait_for(timeout=30_000)
    screenshot(page, "play-cat-lady-desktop")
    play_moves(page)
    assert page.taps > 3  # type: ignore[attr-defined]
    match = assert_finished_and_rated(match_id, person, 4)
    assert match.sandbox_mode in ("bwrap", "bwrap-rootless", "rlimits-seccomp")
    assert PlayRating.objects.get(version=version, players=4).games == 1
    # The bot's page shows its record against people.
    page.goto(f"/arena/bots/{bot.name}/")
    assert "Against people" in page.content()
    assert page.script_errors == []


def test_cantankerous_cats_three_players(table_page, live, person):
    page = table_page(person, PHONE)
    match_id = start_game(
        page,
        "cantankerous-cats",
        ["house:cantankerous-cats:greedy", "house:cantankerous-cats:random"],
    )
    page.locator("#play-board .pb-target").first.wait_for(timeout=30_000)
    screenshot(page, "play-cantankerous-phone")
    # The seat's own hand is drawn; the others' hands are only counted.
    assert page.locator(".cl-viewer").count() == 1
    # Its cards are the tap targets; a tap names the move with the card's name and its rule.
    page.locator(".cl-viewer .pb-target").first.click()
    screenshot(page, "play-cantankerous-phone-selected", full_page=False)
    assert "Rule" in page.locator("#play-legal").inner_text()
    play_moves(page)
    assert page.taps > 3  # type: ignore[attr-defined]
    # Every seat's last move is marked on the board and in the log, in card names.
    assert page.locator("#play-board .pb-last").count() >= 2
    for line in page.locator("#play-log li").all_inner_texts():
        assert_no_bare_card_number(line)
    assert_finished_and_rated(match_id, person, 3)
    assert page.script_errors == []


def test_a_move_left_to_time_out_is_played_for_the_person_and_the_page_resumes(
    table_page, live, person, settings
):
    settings.ARENA_HUMAN_MOVE_S = 5
    page = table_page(person, DESKTOP)
    match_id = start_game(page, "cat-lady", ["house:cat-lady:random"])
    page.locator("#play-board .pb-target").first.wait_for()
    assert "Time left for this move: 0:0" in page.locator("#play-clock").inner_text()
    # Nobody answers: the arena plays the fallback move and records a fault.
    page.locator("#play-log .badge-fault").first.wait_for(timeout=20_000)
    assert "timeout" in page.locator("#play-log").inner_text()
    page.locator("#play-status").filter(has_text="Missed moves so far: 1").wait_for(timeout=20_000)

    # Close the page mid-game and open the table again: the game is where it was.
    seen = LiveSeat.objects.get(match_id=match_id).step
    context = page.context
    page.close()
    again = context.new_page()
    again.goto(f"/arena/play/{match_id}/")
    again.locator("#play-board .pb-target").first.wait_for()
    assert LiveSeat.objects.get(match_id=match_id).step >= seen
    assert "timeout" in again.locator("#play-log").inner_text()
    play_moves(again, moves=2, until_over=False)
    deadline = time.monotonic() + 20
    while len(LiveSeat.objects.get(match_id=match_id).moves) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)  # the worker takes the answer from the database
    seat = LiveSeat.objects.get(match_id=match_id)
    assert seat.faults >= 1 and len(seat.moves) >= 2
