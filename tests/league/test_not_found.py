"""What is private answers exactly as what does not exist, on the pages and in the API, in the
site's own not-found page (never Django's debug page)."""

from __future__ import annotations

import difflib
import re

import pytest
from django.test import Client

from league.models import League, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_league(league, players):
    League.objects.filter(pk=league.pk).update(is_public=False)
    return League.objects.get(pk=league.pk)


def _page(client: Client, url: str) -> tuple[int, str]:
    response = client.get(url)
    # The log-in link carries the path back, and each answer masks the CSRF token anew: the
    # only parts that may differ.
    body = re.sub(r"next=[^\"&]*", "next=", response.content.decode())
    return response.status_code, re.sub(r'name="csrfmiddlewaretoken" value="\w+"', "", body)


@pytest.mark.parametrize("who", [None, "vic"])
def test_a_private_league_and_a_missing_one_get_the_same_page(private_league, users, who):
    client = Client()
    if who:
        client.force_login(users[who])
    private = _page(client, f"/leagues/{private_league.slug}/")
    missing = _page(client, "/leagues/no-such-league/")
    assert private[0] == missing[0] == 404
    diff = list(difflib.unified_diff(private[1].splitlines(), missing[1].splitlines(), n=0))
    assert not diff, "\n".join(diff)
    assert "Not found" in private[1] and "site-header" in private[1]  # the site's own page
    assert "No such league" not in private[1] and "urlpatterns" not in private[1].lower()


def test_a_player_seen_only_in_a_private_league_answers_as_a_missing_one(private_league, players):
    hidden = Player.objects.get(name="Mia")
    missing = max(Player.objects.values_list("pk", flat=True)) + 1000
    assert _page(Client(), f"/players/{hidden.pk}/") == _page(Client(), f"/players/{missing}/")


def test_the_api_answers_a_private_league_as_a_missing_one(private_league, api):
    missing = League.objects.order_by("-pk").first().pk + 1000
    for suffix in ("", "standings/", "members/"):
        private = api("vic").get(f"/api/leagues/{private_league.pk}/{suffix}")
        absent = api("vic").get(f"/api/leagues/{missing}/{suffix}")
        assert (private.status_code, private.json()) == (absent.status_code, absent.json())
        assert private.status_code == 404
        assert private.json() == {"error": "not_found", "detail": "Not found."}


def test_an_unknown_address_gets_the_sites_page_not_a_list_of_urls():
    response = Client().get("/no/such/page/")
    assert response.status_code == 404
    body = response.content.decode()
    assert "Not found" in body and "Using the URLconf" not in body
