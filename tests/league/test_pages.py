import datetime as dt

import pytest

from tests.league.conftest import record

pytestmark = pytest.mark.django_db


def test_home_and_standings_pages(client, league, players, users):
    record(
        league, users["olive"], dt.date(2026, 3, 1), (players["mia"], 30, 5), (players["ned"], 2, 1)
    )
    home = client.get("/").content.decode()
    assert "Tuesday Club" in home and "Mia (30)" in home
    page = client.get("/leagues/tuesday/").content.decode()
    assert page.index("Mia") < page.index("Ned") and "1516" in page and "provisional" in page


def test_private_league_page_is_hidden(client, league):
    league.is_public = False
    league.save()
    assert client.get("/leagues/tuesday/").status_code == 404
    assert "Tuesday Club" not in client.get("/").content.decode()


def test_header_has_skip_link_navigation_and_log_in_link_for_visitors(client, league):
    page = client.get("/leagues/").content.decode()
    assert 'href="#content"' in page and 'id="content"' in page
    assert '<nav class="site-nav" aria-label="Main">' in page
    assert 'href="/leagues/" aria-current="page"' in page
    assert 'href="/accounts/login/?next=/leagues/"' in page and "Log out" not in page
    assert "Tuesday Club" in page and "<footer" in page


def test_header_names_the_signed_in_player_and_logs_out_by_post(client, players, users):
    client.force_login(users["mia"])
    page = client.get("/").content.decode()
    assert "Signed in as <strong>Mia</strong>" in page
    assert '<form method="post" action="/accounts/logout/"' in page
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and "_auth_user_id" not in client.session


def test_login_form_shows_its_error_and_labels(client, users):
    page = client.get("/accounts/login/").content.decode()
    assert (
        '<label for="id_username">Username' in page and '<label for="id_password">Password' in page
    )
    response = client.post("/accounts/login/", {"username": "mia", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    response = client.post("/accounts/login/", {"username": "mia", "password": "pw-123456789"})
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(users["mia"].pk)


def test_logged_out_page(client, users):
    client.force_login(users["mia"])
    page = client.post("/accounts/logout/", follow=True).content.decode()
    assert "Log in" in page
