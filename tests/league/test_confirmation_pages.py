"""Confirmation on the pages: the count of games waiting for you in every page's menu, an
organiser confirming a whole night from its page or the ticked games of their list, and a
refusal said on the game's page."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from league.clubs import services
from league.models import Game, League
from league.results.confirmation import dispute_resolve, game_dispute
from tests.league.conftest import another_confirms
from tests.league.test_confirmation_api import night_of_two_rounds  # noqa: F401 (a fixture)
from tests.league.test_pages_entry import page

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 11, 20)


@pytest.fixture
def two_waiting(users, league, players, log_game):
    another_confirms(league)
    return [log_game("mia", DAY, ("mia", vp, 5), ("ned", 20, 3)) for vp in (30, 31)]


def menu_count(html: str) -> str | None:
    found = re.search(r'id="nav-waiting"[^>]*>To confirm <span[^>]*>(\d+)</span>', html)
    return found.group(1) if found else None


@pytest.mark.parametrize(
    "path", ["/", "/leagues/", "/leagues/tuesday/", "/arena/", "/accounts/me/"]
)
def test_every_page_shows_how_many_games_wait_for_you(as_user, two_waiting, path):
    assert menu_count(page(as_user("ned").get(path))) == "2"
    assert menu_count(page(as_user("mia").get(path))) is None  # she logged them
    assert menu_count(page(as_user(None).get(path))) is None


def test_the_count_falls_as_you_confirm(as_user, two_waiting):
    client = as_user("ned")
    client.post(f"/leagues/tuesday/games/{two_waiting[0].pk}/confirm/")
    html = page(client.get("/leagues/"))
    assert menu_count(html) == "1"
    assert 'aria-label="1 game waiting for you to confirm"' in html


def test_an_organiser_confirms_the_whole_night_from_its_page(as_user, night_of_two_rounds):  # noqa: F811
    night, games = night_of_two_rounds
    client = as_user("olive")
    html = page(client.get(f"/leagues/tuesday/nights/{night.pk}/"))
    assert "Confirm tonight's 2 waiting games" in html
    response = client.post(f"/leagues/tuesday/nights/{night.pk}/confirm/", follow=True)
    assert "2 games confirmed and rated." in page(response)
    assert set(Game.objects.values_list("status", flat=True)) == {"confirmed"}
    assert "waiting game" not in page(client.get(f"/leagues/tuesday/nights/{night.pk}/"))


def test_members_see_no_night_confirmation_and_may_not_post_it(as_user, night_of_two_rounds):  # noqa: F811
    night, games = night_of_two_rounds
    client = as_user("ned")
    assert "waiting game" not in page(client.get(f"/leagues/tuesday/nights/{night.pk}/"))
    assert client.post(f"/leagues/tuesday/nights/{night.pk}/confirm/").status_code == 403
    assert not Game.objects.filter(status=Game.Status.CONFIRMED).exists()


def test_an_organiser_ticks_games_in_their_list_and_confirms_them(
    as_user, users, league, players, log_game
):
    League.objects.filter(pk=league.pk).update(confirmation=League.Confirmation.ORGANISER)
    games = [log_game("mia", DAY, ("mia", vp, 5), ("ned", 20, 3)) for vp in (30, 31, 32)]
    client = as_user("olive")
    html = page(client.get("/accounts/me/"))
    assert html.count('name="games"') == 3 and "Confirm the ticked games" in html
    response = client.post("/games/confirm/", {"games": [games[0].pk, games[2].pk]}, follow=True)
    assert "2 games confirmed and rated." in page(response)
    statuses = [Game.objects.get(pk=g.pk).status for g in games]
    assert statuses == ["confirmed", "pending", "confirmed"]
    assert menu_count(page(response)) == "1"
    nothing = client.post("/games/confirm/", {"games": ["x"]}, follow=True)
    assert "Tick the games to confirm first." in page(nothing)


def test_a_player_sees_no_boxes_and_cannot_confirm_a_list(as_user, two_waiting):
    client = as_user("ned")
    html = page(client.get("/accounts/me/"))
    assert 'name="games"' not in html and "Confirm the ticked games" not in html
    response = client.post("/games/confirm/", {"games": [two_waiting[0].pk]}, follow=True)
    assert "Only a league&#x27;s organisers confirm its games together." in page(response)
    assert Game.objects.get(pk=two_waiting[0].pk).status == Game.Status.PENDING


def test_a_removed_member_is_told_on_the_games_page(as_user, users, league, players, two_waiting):
    services.member_remove(
        membership=league.memberships.get(player=players["ned"]), by=users["olive"]
    )
    client = as_user("ned")
    html = page(client.get(f"/leagues/tuesday/games/{two_waiting[0].pk}/"))
    assert "/confirm/" not in html
    response = client.post(f"/leagues/tuesday/games/{two_waiting[0].pk}/confirm/", follow=True)
    assert "who are members (or an organiser) confirm it." in page(response)
    assert Game.objects.get(pk=two_waiting[0].pk).status == Game.Status.PENDING


def test_a_dispute_waits_for_the_organisers_in_their_menu_until_settled(
    as_user, users, two_waiting
):
    disputed = two_waiting[0]
    game_dispute(game=disputed, by=users["ned"], reason="I had 25, not 20.")
    # Ned's count falls (the game is no longer his to confirm); Olive, the organiser, settles it.
    assert menu_count(page(as_user("ned").get("/"))) == "1"
    assert menu_count(page(as_user("olive").get("/"))) == "1"
    account = page(as_user("olive").get("/accounts/me/"))
    assert "Disputed: yours to settle as an organiser" in account
    assert f'href="/leagues/tuesday/games/{disputed.pk}/#confirmation"' in account
    assert menu_count(page(as_user("mia").get("/"))) is None  # a member does not settle
    dispute = disputed.disputes.get()
    dispute_resolve(dispute=dispute, by=users["olive"])
    assert menu_count(page(as_user("olive").get("/"))) is None
    assert "yours to settle" not in page(as_user("olive").get("/accounts/me/"))
