"""Friends at a live table in the browser, through a real live worker: two accounts in two
browser contexts play a Cat Lady game with one bot to the end (the friend comes through the
invitation link, logged out first); and a guest on the host's phone, the table passed between
them with the board hidden."""

from __future__ import annotations

import time

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Browser, Page

from arena.models import LiveSeat, Match, PlayRating
from tests.e2e import test_play as solo
from tests.e2e.conftest import DESKTOP, PHONE, screenshot
from tests.e2e.test_play import GAME_TIMEOUT_S, play_moves, start_game

pytestmark = [pytest.mark.browser, pytest.mark.integration]

# test_play's live worker (threads, its own queue) and pages in a person's own session.
live_queue, live_worker, live, table_page = (
    solo.live_queue,
    solo.live_worker,
    solo.live,
    solo.table_page,
)


@pytest.fixture
def friends(transactional_db):
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password=f"{name}-password-123")
        for name in ("pia", "ole")
    }


def _play_both(pages: dict[int, Page], match_id: int) -> None:
    """Each person moves when the worker asks their seat, until the game is over."""
    answered = dict.fromkeys(pages, -1)
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        if Match.objects.get(pk=match_id).status in ("finished", "failed"):
            return
        for asked in LiveSeat.objects.filter(match_id=match_id, asked_step__isnull=False):
            if asked.seat in pages and asked.asked_step > answered[asked.seat]:
                answered[asked.seat] = asked.asked_step
                play_moves(pages[asked.seat], moves=1, until_over=False)
        time.sleep(0.1)
    pytest.fail(f"the game did not end in {GAME_TIMEOUT_S} s")


def _moves_until_handover(page: Page, match_id: int, *, seat: int) -> None:
    """Play ``seat``'s moves on the shared page until it asks to be passed on."""
    answered, deadline = -1, time.monotonic() + 90
    handover = page.locator("#play-handover")
    while not handover.is_visible():
        assert time.monotonic() < deadline, "the page never asked to be passed on"
        asked = LiveSeat.objects.get(match_id=match_id, seat=seat).asked_step
        if asked is not None and asked > answered:
            answered = asked
            play_moves(page, moves=1, until_over=False)
        page.wait_for_timeout(200)


def test_two_accounts_play_cat_lady_with_a_bot_to_the_end(
    table_page, browser: Browser, live_server, live, friends
):
    host = table_page(friends["pia"], PHONE)
    match_id = start_game(host, "cat-lady", ["friend", "house:cat-lady:greedy"])
    link = host.locator("#invite-1")
    link.wait_for()
    assert "Waiting for your friends" in host.locator("#play-company").inner_text()
    host.locator("#company-left").filter(has_text="minutes").wait_for()
    screenshot(host, "play-friend-waiting-phone")
    host.set_viewport_size(DESKTOP)
    screenshot(host, "play-friend-waiting-desktop")
    host.set_viewport_size(PHONE)
    url = link.input_value()
    assert url.startswith(live_server.url + "/arena/play/join/")

    # Ole opens the link logged out: the log-in brings him back to the invitation.
    context = browser.new_context(base_url=live_server.url, viewport=DESKTOP)
    context.set_default_timeout(15_000)
    try:
        friend = context.new_page()
        friend.goto(url)
        assert "/accounts/login/" in friend.url
        friend.get_by_label("Username").fill("ole")
        friend.get_by_label("Password").fill("ole-password-123")
        friend.get_by_role("button", name="Log in").click()
        friend.get_by_role("button", name="Take the seat").wait_for()
        assert "pia invites you to Cat Lady" in friend.content()
        screenshot(friend, "play-friend-invitation-desktop")
        friend.get_by_role("button", name="Take the seat").click()
        friend.wait_for_url(f"**/arena/play/{match_id}/")
        # The host's table sees him come and the game start.
        host.locator("#play-company").filter(has_text="Waiting for your friends").wait_for(
            state="detached"
        )
        host.locator("#play-board .pb-target").first.wait_for(timeout=30_000)
        assert "ole" in host.locator(".page-header").inner_text()
        friend.locator("#play-board .cl-grid, #play-board table").first.wait_for()
        screenshot(friend, "play-friend-table-desktop")
        _play_both({0: host, 1: friend}, match_id)
        for page in (host, friend):
            page.locator("#play-status").filter(has_text="Game over: you placed").wait_for()
        screenshot(friend, "play-friend-over-desktop")
        screenshot(host, "play-friend-over-phone")
        assert host.script_errors == []  # type: ignore[attr-defined]
    finally:
        context.close()
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"
    assert [s.label for s in match.seats.order_by("seat")] == ["pia", "ole", "house:greedy · easy"]
    for user in friends.values():
        assert PlayRating.objects.get(user=user, game="cat-lady", players=3).games == 1


def test_a_guest_on_the_hosts_phone_gets_it_passed_with_the_board_hidden(table_page, live, friends):
    host = table_page(friends["pia"], PHONE)
    match_id = start_game(host, "cat-lady", ["friend", "house:cat-lady:greedy"])
    form = host.locator("form.play-guest")
    form.get_by_role("button", name="Seat the guest").click()
    error = form.locator(".field-errors")
    error.wait_for()
    assert "Give the guest's name" in error.inner_text()
    form.get_by_label("Or seat a guest on this device").fill("Jo")
    form.get_by_role("button", name="Seat the guest").click()
    host.locator("#play-board .pb-target").first.wait_for(timeout=30_000)
    assert "not rated" in host.locator(".play-guests-note").inner_text()
    # Pia moves; then it is Jo's turn: the phone asks to be passed, the board hidden.
    handover = host.locator("#play-handover")
    _moves_until_handover(host, match_id, seat=0)
    assert "Pass the phone to Jo" in handover.inner_text()
    assert not host.locator("#play-board").is_visible()
    screenshot(host, "play-guest-handover-phone")
    host.get_by_role("link", name="I am Jo: show my seat").click()
    host.wait_for_url(f"**/arena/play/{match_id}/?seat=1")
    host.locator("#play-board .pb-target").first.wait_for()
    assert "Jo (guest) (you)" in host.locator(".page-header").inner_text()
    _moves_until_handover(host, match_id, seat=1)
    # Jo's turn played, the phone goes back to Pia before her next move.
    assert "Pass the phone to pia" in handover.inner_text()
    assert not host.locator("#play-board").is_visible()
    screenshot(host, "play-guest-handover-back-phone")
    assert LiveSeat.objects.get(match_id=match_id, seat=1).moves
    assert host.script_errors == []  # type: ignore[attr-defined]
