"""The account page: display name, named API tokens (shown once, hashed, revocable), leagues
and bots."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import key_digest, token_create
from arena.models import Bot
from league.clubs import services
from league.models import Player

User = get_user_model()


@pytest.fixture
def fern(db):
    return User.objects.create_user("fern", "fern@example.org", "whiskers-on-kittens-42")


@pytest.fixture
def fern_client(client, fern):
    client.force_login(fern)
    return client


def _key_on(page: str) -> str:
    return re.search(r'id="new-token-key" type="text" readonly value="([^"]+)"', page).group(1)


def test_anonymous_visitors_are_sent_to_log_in(client, db):
    for method, url in [
        ("get", "/accounts/me/"),
        ("post", "/accounts/me/tokens/"),
        ("post", "/accounts/me/name/"),
        ("post", "/accounts/me/tokens/1/revoke/"),
    ]:
        response = getattr(client, method)(url)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert not ApiToken.objects.exists()


def test_a_new_token_is_shown_once_and_only_its_digest_is_stored(fern_client, fern):
    response = fern_client.post("/accounts/me/tokens/", {"name": "my bot"})
    page = response.content.decode()
    key = _key_on(page)
    assert "shown only this once" in page and len(key) == 40
    token = ApiToken.objects.get(user=fern)
    assert token.digest == key_digest(key) and key not in (token.prefix, token.digest)
    assert token.prefix == key[:8]
    again = fern_client.get("/accounts/me/").content.decode()
    assert key not in again and "my bot" in again and f"{key[:8]}…" in again


def test_a_named_token_authenticates_api_calls_until_revoked(fern_client, fern):
    key = _key_on(fern_client.post("/accounts/me/tokens/", {"name": "script"}).content.decode())
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    created = api.post("/api/players/", {"name": "Made by script"}, format="json")
    assert created.status_code == 201
    assert ApiToken.objects.get(user=fern).last_used_at is not None
    token = ApiToken.objects.get(user=fern)
    fern_client.post(f"/accounts/me/tokens/{token.pk}/revoke/")
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    refused = api.post("/api/players/", {"name": "After revoke"}, format="json")
    assert refused.status_code == 401
    assert not Player.objects.filter(name="After revoke").exists()


def test_a_wrong_key_is_refused(db):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token not-a-real-key")
    assert api.post("/api/players/", {"name": "X"}, format="json").status_code == 401


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("", "This field is required"),
        ("x" * 61, "at most 60 characters"),
        ("dupe", "already have a token called"),
    ],
)
def test_a_bad_token_name_is_shown_beside_the_field_and_makes_no_token(
    fern_client, fern, name, text
):
    if text.startswith("already"):
        fern_client.post("/accounts/me/tokens/", {"name": "dupe"})
    before = ApiToken.objects.count()
    response = fern_client.post("/accounts/me/tokens/", {"name": name})
    assert response.status_code == 400
    assert text in response.content.decode()
    assert 'id="id_token_name_error"' in response.content.decode()
    assert ApiToken.objects.count() == before


def test_another_users_token_cannot_be_revoked(fern_client, fern):
    other = User.objects.create_user("gus", "gus@example.org", "whiskers-on-kittens-42")
    token, _ = token_create(user=other, name="gus")
    assert fern_client.post(f"/accounts/me/tokens/{token.pk}/revoke/").status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_the_display_name_is_the_league_players_name(fern_client, fern):
    response = fern_client.post("/accounts/me/name/", {"name": "Fern the Bold"})
    assert response.status_code == 302
    assert Player.objects.get(user=fern).name == "Fern the Bold"
    fern_client.post("/accounts/me/name/", {"name": "Fern"})
    assert Player.objects.get(user=fern).name == "Fern"


def test_a_name_used_only_outside_your_leagues_is_yours_too(fern_client, fern):
    # Names are unique per league: refusing it would tell Fern that some league has an Olive.
    services.player_create(name="Olive")
    response = fern_client.post("/accounts/me/name/", {"name": "olive"})
    assert response.status_code == 302
    assert Player.objects.get(user=fern).name == "olive"


def test_a_name_taken_in_one_of_your_leagues_is_refused_beside_the_field(fern_client, fern):
    league = services.league_create(name="Fern's Club", slug="ferns", by=fern)
    services.guest_add(league=league, name="Olive", by=fern)
    response = fern_client.post("/accounts/me/name/", {"name": "olive"})
    assert response.status_code == 400
    assert "Fern&#x27;s Club already has a player called &#x27;olive&#x27;." in (
        response.content.decode()
    )
    assert Player.objects.get(user=fern).name == "fern"


def test_the_page_lists_leagues_and_bots(fern_client, fern):
    league = services.league_create(name="Fern's Club", slug="ferns", by=fern)
    Bot.objects.create(owner=fern, name="purrbot")
    page = fern_client.get("/accounts/me/").content.decode()
    assert "Fern&#x27;s Club" in page and "organiser" in page and "purrbot" in page
    assert f'href="/leagues/{league.slug}/"' in page
