"""The two journeys of a newcomer, in a real browser, from sign-up on:

* a club organiser starts a league, invites a friend by link (the friend, in a second browser
  on a phone, signs up through the link and joins), the friend logs tonight's game from the
  phone, the organiser corrects it, and the standings follow;
* a bot programmer makes an API token, uploads a bot from the web form, sees it validated,
  challenges the house bots and watches the replay.
"""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from playwright.sync_api import Page, expect

from accounts.models import ApiToken
from arena.models import Bot, Match
from league.models import Game, League
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.browser]

STEADY = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """django-allauth counts sign-ups and e-mails per address in the cache."""
    cache.clear()
    yield
    cache.clear()


def sign_up(
    page: Page, username: str, display_name: str, *, via: str = "/accounts/signup/"
) -> None:
    page.goto(via)
    page.get_by_label("Username").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Display name").fill(display_name)
    page.locator("#id_password1").fill("tabby-and-ginger-77")
    page.locator("#id_password2").fill("tabby-and-ginger-77")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_load_state()


def test_organiser_starts_a_league_invites_a_friend_who_logs_a_game_that_is_corrected(
    page, phone_page, transactional_db
):
    # The organiser, at a desktop.
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    screenshot(page, "journey-signup")
    sign_up(page, "olive", "Olive")
    expect(page.locator(".account-name")).to_contain_text("Olive")

    page.goto("/leagues/new/")
    page.locator("#id_name").fill("Thursday Cats")
    page.get_by_label("K factor").fill("0")
    page.get_by_role("button", name="Start the league").click()
    expect(page.locator("#id_k_factor_error")).to_contain_text("greater than or equal to 1")
    assert not League.objects.exists()
    page.get_by_label("K factor").fill("32")
    page.get_by_role("button", name="Start the league").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Thursday Cats: members")

    page.get_by_role("button", name="Make an invitation link").click()
    link = page.get_by_label("Link").input_value()
    assert re.search(r"/invitations/[\w-]+/$", link)
    screenshot(page, "journey-invite")

    # The friend, on a phone, in another browser: the link, then sign-up, then join.
    friend = phone_page
    friend.goto(link)
    expect(friend.get_by_role("heading", level=1)).to_have_text("Join Thursday Cats")
    friend.get_by_role("link", name="Create an account to join").click()
    sign_up(friend, "mia", "Mia", via=friend.url)
    expect(friend.get_by_role("heading", level=1)).to_have_text("Join Thursday Cats")
    friend.get_by_role("button", name="Accept and join").click()
    expect(friend.get_by_text("Welcome to Thursday Cats: you play as Mia.")).to_be_visible()

    # Tonight's game, logged from the phone: Mia 31, Olive 24.
    friend.get_by_role("link", name="Log a game").first.click()
    friend.get_by_role("radio", name="Base game (2–4 players)").check()
    friend.get_by_label("Number of players").fill("2")
    friend.get_by_label("Each player's totals from the score pad").check()
    friend.get_by_role("button", name="Next: the players").click()
    seat1, seat2 = friend.locator("#seat-1"), friend.locator("#seat-2")
    seat2.get_by_label("Player").select_option(label="Olive")
    seat1.get_by_label("Total VP").fill("31")
    seat2.get_by_label("Total VP").fill("24")
    friend.get_by_role("button", name="Check and preview").click()
    friend.get_by_role("button", name="Save this game").click()
    expect(friend.get_by_text("Game saved and ratings updated.")).to_be_visible()
    screenshot(friend, "journey-game-phone")
    game = Game.objects.get()
    assert game.logged_by.username == "mia"

    # The organiser corrects it: Olive had 34, not 24.
    page.goto(f"/leagues/thursday-cats/games/{game.pk}/")
    page.get_by_role("link", name="Correct this game").click()
    expect(page.locator("#seat-2").get_by_label("Total VP")).to_have_value("24")
    page.locator("#seat-2").get_by_label("Total VP").fill("34")
    page.get_by_role("button", name="Check and preview").click()
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Game corrected and ratings rebuilt.")).to_be_visible()

    page.get_by_role("link", name="Thursday Cats").first.click()
    standings = page.get_by_role("table", name="Standings")
    expect(standings.locator("tbody tr").first).to_contain_text("Olive")
    expect(standings.locator("tbody tr").nth(1)).to_contain_text("Mia")
    screenshot(page, "journey-standings")
    page.get_by_role("link", name="Change log").click()
    expect(page.get_by_role("table")).to_contain_text(re.compile(r"The game of .* corrected"))


def test_programmer_makes_a_token_uploads_a_bot_and_watches_a_challenge(
    page,
    browser,
    live_server,
    eager_celery,
    transactional_db,
):
    sign_up(page, "ada", "Ada")
    page.get_by_role("link", name="Ada").click()
    page.get_by_label("Token name").fill("my laptop")
    page.get_by_role("button", name="Create token").click()
    key = page.get_by_label("Key").input_value()
    expect(page.get_by_text("shown only this once")).to_be_visible()
    screenshot(page, "journey-token")
    assert ApiToken.objects.get().prefix == key[:8]
    # The key works from another program (a fresh browser context has no session).
    api = browser.new_context(base_url=live_server.url).request
    made = api.post(
        "/api/players/", data={"name": "Scripted"}, headers={"Authorization": f"Token {key}"}
    )
    assert made.status == 201, made.text()
    page.reload()
    expect(page.locator("body")).not_to_contain_text(key)

    page.goto("/arena/bots/new/")
    page.get_by_label("Name").fill("steady")
    page.get_by_label("Bot file").set_input_files(
        files=[{"name": "steady.py", "mimeType": "text/x-python", "buffer": STEADY.encode()}]
    )
    page.get_by_role("button", name="Create bot").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("steady")
    page.goto("/arena/my-bots/")
    expect(page.get_by_text("Playing v1 on the ladders.")).to_be_visible()
    expect(page.locator(".badge-status-active").first).to_have_text("Active")
    screenshot(page, "journey-my-bots")

    page.get_by_role("link", name="Challenge with it").click()
    expect(page.get_by_label("Seat 1")).to_have_value(
        f"version:{Bot.objects.get().active_version_id}"
    )
    page.get_by_label("Seat 2").select_option("house:cat-lady:greedy")
    page.get_by_label("Seat 3").select_option("house:cat-lady:random")
    page.get_by_label("Seed").fill("11")
    screenshot(page, "journey-challenge")
    page.get_by_role("button", name="Start the match").click()
    match = Match.objects.get(kind="challenge")
    expect(page).to_have_url(re.compile(rf"/arena/matches/{match.pk}/$"))
    status = page.locator("#replay-status")
    before = status.inner_text()
    page.get_by_role("button", name="Forward").click()
    expect(status).not_to_have_text(before)
    screenshot(page, "journey-replay")
