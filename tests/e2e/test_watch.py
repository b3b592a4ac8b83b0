"""Watching a bot match in a real browser as the worker plays it: the board changes move by
move, no move controls show, and the end brings the result and the replay link; on a phone
and on a desktop at once."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from arena import tasks
from arena.common import SeatInput, match_create
from arena.models import Match
from arena.watch import services as watch_services
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.browser]

MOVE_PAUSE_S = 0.15  # slow enough to watch: a house-bot match otherwise ends in a blink


@pytest.fixture
def slow_match(monkeypatch, transactional_db):
    """A house-bot challenge the worker's own code plays in a thread, every move published and
    followed by a pause, so a page can watch it run."""
    monkeypatch.setenv("ARENA_SANDBOX_MODE", "unsafe")  # house bots only: no bot process
    monkeypatch.setattr(watch_services, "PUBLISH_EVERY_S", 0.0)
    write = watch_services.WatchWriter.__call__

    def paced(self: Any, step: int, entry: dict[str, Any], state: Any) -> None:
        write(self, step, entry, state)
        time.sleep(MOVE_PAUSE_S)

    monkeypatch.setattr(watch_services.WatchWriter, "__call__", paced)
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        seed=2026,
        seats=[SeatInput(builtin="greedy"), SeatInput(builtin="random")],
        game="cat-lady",
    )
    started = threading.Event()

    def play() -> None:
        try:
            started.wait(30)
            tasks._play(match.pk, match.dispatch)
        finally:
            connection.close()

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    yield match, started
    started.set()
    thread.join(timeout=120)


def test_a_bot_match_is_watched_move_by_move_to_its_result(page, phone_page, slow_match):
    match, started = slow_match
    page.goto(f"/arena/matches/{match.pk}/")
    page.get_by_role("link", name="Watch it as it plays").click()
    expect(page).to_have_url(re.compile(rf"/arena/matches/{match.pk}/watch/$"))
    expect(page.locator("#play-status")).to_contain_text("Waiting for a table in the arena")
    phone_page.goto(f"/arena/matches/{match.pk}/watch/")
    started.set()

    board = page.locator("#play-board")
    expect(board.locator(".cl-board")).to_be_visible(timeout=30_000)
    expect(page.locator("#play-status")).to_contain_text(re.compile(r"Seat \d \(.+\) to move"))
    expect(page.locator("#play-log li").first).to_contain_text(re.compile(r"Seat \d"))
    first = page.locator("#play-log li").first.inner_text()
    expect(page.locator("#play-log li").first).not_to_have_text(first, timeout=10_000)
    assert page.locator("#play-legal button").count() == 0  # watching: nothing to play
    assert page.locator(".cl-board.cl-seat-view").count() == 1
    screenshot(page, "watch-running-desktop")
    expect(phone_page.locator("#play-board .cl-board")).to_be_visible()
    screenshot(phone_page, "watch-running-phone")

    for watcher in (page, phone_page):
        status = watcher.locator("#play-status")
        expect(status).to_contain_text("Game over: Seat", timeout=120_000)
        expect(status).to_contain_text(re.compile(r"1st with -?\d+ points"))
        link = status.get_by_role("link", name="Watch the replay")
        expect(link).to_have_attribute("href", f"/arena/matches/{match.pk}/")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    winner = match.log["result"]["winners"][0]
    expect(page.locator("#play-status")).to_contain_text(f"Game over: Seat {winner + 1} (")
    screenshot(page, "watch-over-desktop")
    screenshot(phone_page, "watch-over-phone")
    page.locator("#play-status").get_by_role("link", name="Watch the replay").click()
    expect(page.locator("h1")).to_have_text(f"Match #{match.pk}")


def test_a_match_deleted_while_watched_says_so_and_stops_asking(page, settings):
    """The table's endpoints answer in JSON whatever goes wrong: the page says what happened
    in words instead of "the table answered 404" every 3 seconds."""
    settings.ARENA_LIVE_LONG_POLL_S = 1
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        seed=7,
        seats=[SeatInput(builtin="greedy"), SeatInput(builtin="random")],
        game="cat-lady",
    )
    page.goto(f"/arena/matches/{match.pk}/watch/")
    expect(page.locator("#play-status")).to_contain_text("Waiting for a table in the arena")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    match.delete()  # an admin's clean-up
    error = page.locator("#play-error")
    expect(error).to_have_text("This match is gone. Reload the page to go on.", timeout=15_000)
    screenshot(page, "watch-deleted")
    count = len(asked)
    page.wait_for_timeout(3_500)  # longer than the retry pause after a passing fault
    assert len(asked) == count


def test_a_seating_whose_deal_is_played_at_another_table_says_why_it_shows_nothing(page):
    here, there = (
        match_create(
            kind=Match.Kind.LADDER,
            seed=11,
            seats=[SeatInput(builtin="greedy"), SeatInput(builtin="random")],
            game="cat-lady",
            duplicate_set="deal-11",
        )
        for _ in range(2)
    )
    Match.objects.filter(pk__in=[here.pk, there.pk]).update(status=Match.Status.RUNNING)
    page.goto(f"/arena/matches/{here.pk}/watch/")
    status = page.locator("#play-status")
    expect(status).to_contain_text("This deal is being played at another table too")
    expect(page.locator("#play-board .cl-board")).to_have_count(0)
    screenshot(page, "watch-shared-deal")
