"""The live table's controls in the browser, through a real live worker: an unrated game
against a house bot at a chosen strength, a move taken back (the worker plays the game again
to the position before it), a resignation asked once, a rematch one seat on, and the beep for
"your move" remembered by the browser. On a phone, by keyboard where a person would."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from arena.models import LiveSeat, Match, PlayRating
from tests.e2e import test_play
from tests.e2e.conftest import DESKTOP, PHONE, screenshot

# test_play's live worker and table pages, shared (the worker starts once per module).
live_queue = test_play.live_queue
live_worker = test_play.live_worker
live = test_play.live
person = test_play.person
table_page = test_play.table_page
play_moves = test_play.play_moves

pytestmark = [pytest.mark.browser, pytest.mark.integration]


def wait_for(check, *, seconds: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"waited {seconds} s for {what}")
        time.sleep(0.2)


def your_move(page: Page) -> None:
    expect(page.locator("#play-status")).to_have_text("Your move.", timeout=30_000)


def test_take_back_resign_and_rematch_an_unrated_game_on_a_phone(table_page, live, person):
    page = table_page(person, PHONE)
    page.goto("/arena/play/")
    form = page.locator("#play-form")
    form.locator("[name=game]").select_option("cat-lady")
    form.locator("[name=seat]").select_option("1")
    form.locator("[name=opponent_1]").select_option("house:cat-lady:mcts:medium")
    rated = form.get_by_label("Rated")
    expect(rated).to_be_checked()  # rated unless the person says otherwise
    rated.uncheck()
    page.get_by_role("button", name="Take your seat").click()
    page.wait_for_url("**/arena/play/*/")
    match_id = int(page.url.rstrip("/").rsplit("/", 1)[1])
    expect(page.locator("#play-rated")).to_contain_text("Unrated")
    expect(page.locator(".page-header")).to_contain_text("house:mcts · medium")

    # The beep is off until turned on, then remembered by this browser.
    sound = page.get_by_label("Beep when it is my move")
    expect(sound).not_to_be_checked()
    sound.check()
    page.reload()
    expect(page.get_by_label("Beep when it is my move")).to_be_checked()

    your_move(page)
    assert int(page.locator("#play-sound").get_attribute("data-beeps") or 0) >= 1
    takeback = page.get_by_role("button", name="Take back my last move")
    expect(takeback).to_be_hidden()  # nothing played yet
    expect(page.get_by_role("button", name="Resign")).to_be_visible()
    play_moves(page, moves=1, until_over=False)
    wait_for(lambda: LiveSeat.objects.get(match_id=match_id).step >= 1, what="the first move")
    your_move(page)
    first = LiveSeat.objects.get(match_id=match_id)
    assert len([k for k in first.moves if k.isdigit()]) == 1
    board_before = page.locator("#play-log").inner_text()
    screenshot(page, "play-controls-phone", full_page=False)
    expect(takeback).to_be_visible()
    takeback.click()

    # Played again from the seed to the position before the move: asked that move again.
    def asked_again() -> bool:
        seat = LiveSeat.objects.get(match_id=match_id)
        return seat.takebacks == 1 and seat.rewound_to is None and seat.asked_step is not None

    wait_for(asked_again, what="the game played again up to the move taken back")
    seat = LiveSeat.objects.get(match_id=match_id)
    assert [k for k in seat.moves if k.isdigit()] == []
    assert seat.asked_step == int(next(k for k in first.moves if k.isdigit()))
    your_move(page)
    log_after = page.locator("#play-log").inner_text()
    assert "You:" in board_before and "You:" not in log_after
    expect(takeback).to_be_hidden()
    # The same step is offered again on the page, and the game goes on from there.
    assert play_moves(page, moves=1, until_over=False) == 1
    wait_for(lambda: len(LiveSeat.objects.get(match_id=match_id).moves) == 1, what="the move again")

    # Resign, asked once, by keyboard.
    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Resign").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#play-status")).to_contain_text("Game over", timeout=60_000)
    expect(page.locator("#play-status")).to_contain_text("(you resigned)")
    assert asked == ["Resign this game? It counts as a loss (unrated: no rating changes)."]
    assert not PlayRating.objects.exists()  # unrated: nobody's rating moved
    rematch = page.get_by_role("button", name="Rematch")
    expect(rematch).to_be_visible()
    screenshot(page, "play-controls-phone-over", full_page=False)
    rematch.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(lambda url: not url.rstrip("/").endswith(f"/{match_id}"))
    again = Match.objects.exclude(pk=match_id).get()
    assert again.rated is False
    assert [s.label for s in again.seats.order_by("seat")] == ["house:mcts · medium", "pia"]
    expect(page.locator("#play-rated")).to_contain_text("Unrated")
    your_move(page)
    page.set_viewport_size(DESKTOP)
    screenshot(page, "play-controls-desktop", full_page=False)
    assert page.script_errors == []  # type: ignore[attr-defined]
