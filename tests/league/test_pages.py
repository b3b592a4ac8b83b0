import datetime as dt

import pytest

from tests.league.conftest import record

pytestmark = pytest.mark.django_db


def test_home_and_standings_pages(client, league, players, users):
    record(league, users["olive"], dt.date(2026, 3, 1), (players["mia"], 30, 5), (players["ned"], 2, 1))
    home = client.get("/").content.decode()
    assert "Tuesday Club" in home and "Mia (30)" in home
    page = client.get("/leagues/tuesday/").content.decode()
    assert page.index("Mia") < page.index("Ned") and "1516" in page and "provisional" in page


def test_private_league_page_is_hidden(client, league):
    league.is_public = False
    league.save()
    assert client.get("/leagues/tuesday/").status_code == 404
    assert "Tuesday Club" not in client.get("/").content.decode()
