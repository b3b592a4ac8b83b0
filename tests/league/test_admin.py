"""The admin logs a game through the same services and validation as the API."""

import pytest

from league.models import Game

pytestmark = pytest.mark.django_db


def _post(client, league, rows, played_on="2026-03-01"):
    data = {
        "league": league.pk,
        "edition": "base",
        "played_on": played_on,
        "played_time": "",
        "season": "",
        "place": "Club",
        "notes": "",
        "details": "{}",
        "participants-TOTAL_FORMS": str(len(rows)),
        "participants-INITIAL_FORMS": "0",
        "participants-MIN_NUM_FORMS": "0",
        "participants-MAX_NUM_FORMS": "1000",
    }
    for i, (player, seat, result) in enumerate(rows):
        data[f"participants-{i}-player"] = str(player.pk)
        data[f"participants-{i}-seat"] = str(seat)
        data[f"participants-{i}-result"] = result
    return client.post("/admin/league/game/add/", data)


@pytest.fixture
def admin_client_(client, users):
    users["olive"].is_staff = True
    users["olive"].is_superuser = True
    users["olive"].save()
    client.force_login(users["olive"])
    return client


def test_admin_logs_and_rates_a_game(admin_client_, league, players):
    mia, ned = players["mia"], players["ned"]
    rows = [
        (mia, 1, '{"total_vp": 30, "fed_cats": 5}'),
        (ned, 2, '{"total_vp": 20, "fed_cats": 3}'),
    ]
    response = _post(admin_client_, league, rows)
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get()
    assert [p.rating_after for p in game.participants.order_by("seat")] == [1516, 1484]
    assert game.logged_by.username == "olive"


def test_admin_shows_the_service_error_beside_the_field(admin_client_, league, players):
    mia, quinn = players["mia"], players["quinn"]
    rows = [(mia, 1, '{"total_vp": 30}'), (quinn, 2, '{"total_vp": 30, "fed_cats": 3}')]
    response = _post(admin_client_, league, rows)
    assert response.status_code == 200
    page = response.content.decode()
    assert "is not a member of Tuesday Club" in page
    assert "Fed cats is needed to break the tie" in page
    assert not Game.objects.exists()


def test_admin_search_and_filters_render(admin_client_, league, players):
    assert admin_client_.get("/admin/league/game/?q=Mia&rated__exact=1").status_code == 200
    assert admin_client_.get("/admin/league/game/add/").status_code == 200
