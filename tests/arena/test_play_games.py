"""A person's list of their games against bots (/arena/play/games/ and the API's
``matches/?mine=true``): only their own, newest first, page by page, with their place, their
rating change and the way to the replay and the review, or back to a table still in play."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena.common import SeatInput
from arena.live.selectors import person_games, played_games
from arena.live.services import live_create
from arena.live.views import GAMES_PER_PAGE
from arena.models import LiveSeat, Match, MatchSeat, MoveReview
from tests.arena.live_games import finished_live_match

pytestmark = pytest.mark.django_db
URL = "/arena/play/games/"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def table_of(user, *, opponent: str = "greedy") -> Match:
    return live_create(
        user=user, game="cat-lady", seats=[None, SeatInput(builtin=opponent)], seed=3
    )


def listed(page: str) -> list[int]:
    """The match ids of the page's rows, top to bottom."""
    return [int(pk) for pk in re.findall(r'class="card played-game" data-match="(\d+)"', page)]


def test_the_list_is_for_people_logged_in():
    response = Client().get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_list_holds_only_your_own_games_newest_first(authors):
    first, second = table_of(authors["ada"]), table_of(authors["ada"], opponent="random")
    others = table_of(authors["bob"])

    assert listed(client_of(authors["ada"]).get(URL).content.decode()) == [second.pk, first.pk]
    page = client_of(authors["bob"]).get(URL).content.decode()
    assert listed(page) == [others.pk]
    assert f"/arena/play/{first.pk}/" not in page  # nothing of Pia's, not even a link
    # No parameter reaches another person's list.
    assert listed(
        client_of(authors["bob"]).get(URL, {"user": authors["ada"].pk}).content.decode()
    ) == [others.pk]


def test_a_game_in_play_links_back_to_its_table_without_a_result(authors):
    match = table_of(authors["ada"])
    page = client_of(authors["ada"]).get(URL).content.decode()
    assert f'href="/arena/play/{match.pk}/">Back to the table</a>' in page
    assert f"/arena/matches/{match.pk}/" not in page  # no replay before the end
    assert "house:greedy" in page and "Queued" in page
    assert "of 2" not in page and "rating" not in page.split('class="played-games"')[1]


def test_a_finished_game_shows_place_rating_change_replay_and_review(authors):
    match = finished_live_match(authors["ada"])  # in this transaction: its review is pending
    you = MatchSeat.objects.get(match=match, seat=0)
    bot = MatchSeat.objects.get(match=match, seat=1)
    assert you.rank is not None and you.rating_after is not None

    page = client_of(authors["ada"]).get(URL).content.decode()
    place = "Won (1st of 2)" if you.rank == 1 and not you.forfeited else "of 2"
    assert place in page
    assert f"rating {you.rating_after:.0f}" in page
    delta = you.rating_after - you.rating_before
    assert (f"{delta:+.0f}" if round(delta) else "±0") in page
    assert f'house:greedy · easy <span class="muted">(rated {bot.rating_before:.0f})</span>' in page
    assert f'href="/arena/matches/{match.pk}/#replay">Replay</a>' in page
    assert "Review being prepared" in page and "Back to the table" not in page

    MoveReview.objects.filter(match=match).update(
        status=MoveReview.Status.DONE,
        review={"moves": [{"step": 3, "flagged": True}, {"step": 5, "flagged": False}]},
    )
    page = client_of(authors["ada"]).get(URL).content.decode()
    assert f'href="/arena/matches/{match.pk}/#review">Review (1 flagged)</a>' in page


def test_a_resigned_or_forfeited_game_says_so(authors):
    match = finished_live_match(authors["ada"])
    MatchSeat.objects.filter(match=match, seat=0).update(rank=2, forfeited=True)
    [row] = played_games(person_games(authors["ada"]), authors["ada"])
    assert row.result == "Forfeited (2nd of 2)"
    LiveSeat.objects.filter(match=match).update(moves={"resign": True})
    [row] = played_games(person_games(authors["ada"]), authors["ada"])
    assert row.result == "Resigned (2nd of 2)" and not row.open


def test_the_list_goes_page_by_page(authors):
    tables = [table_of(authors["ada"]) for _ in range(GAMES_PER_PAGE + 1)]
    client = client_of(authors["ada"])

    first = client.get(URL).content.decode()
    assert listed(first) == [t.pk for t in reversed(tables[1:])]
    assert "Page 1 of 2" in first and 'href="?page=2"' in first
    second = client.get(URL, {"page": 2}).content.decode()
    assert listed(second) == [tables[0].pk] and 'href="?page=1"' in second
    # A page past the end, or not a number, is the nearest real page rather than an error.
    assert listed(client.get(URL, {"page": 99}).content.decode()) == [tables[0].pk]
    assert listed(client.get(URL, {"page": "x"}).content.decode()) == listed(first)


def test_the_play_page_the_account_page_and_the_table_link_to_the_list(authors):
    match = table_of(authors["ada"])
    client = client_of(authors["ada"])
    for url in ("/arena/play/", "/accounts/me/", f"/arena/play/{match.pk}/"):
        assert f'href="{URL}"' in client.get(url).content.decode(), url


# --- the API ----------------------------------------------------------------------------------


def test_the_api_lists_your_own_games_with_mine_true(authors, client_for):
    first, second = table_of(authors["ada"]), table_of(authors["ada"])
    others = table_of(authors["bob"])
    ladder_match = Match.objects.create(game="cat-lady", seed=1)

    mine = client_for("ada").get("/api/arena/matches/", {"mine": "true"}).json()
    assert [m["id"] for m in mine["results"]] == [second.pk, first.pk] and mine["count"] == 2
    theirs = client_for("bob").get("/api/arena/matches/", {"mine": "true", "kind": "live"})
    assert [m["id"] for m in theirs.json()["results"]] == [others.pk]
    every = client_for("ada").get("/api/arena/matches/", {"mine": "false"}).json()
    assert {m["id"] for m in every["results"]} == {first.pk, second.pk, others.pk, ladder_match.pk}


def test_the_api_refuses_mine_without_a_login_or_with_a_bad_value(client_for):
    anonymous = client_for(None).get("/api/arena/matches/", {"mine": "true"})
    assert anonymous.status_code == 401
    assert anonymous.json()["error"] == "not_authenticated"
    assert "mine=true" in anonymous.json()["detail"]
    bad = client_for("ada").get("/api/arena/matches/", {"mine": "yes"})
    assert bad.status_code == 400 and "mine" in bad.json()["fields"]
