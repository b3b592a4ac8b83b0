"""Choosing bots for a match: house bots say what they play and the mcts its budget, and the
challenge form offers only the chosen game's bots (refusing another game's beside its seat)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from arena.models import Match
from arena.submissions.services import bot_create
from arena.web import HOUSE_MCTS_PLAYOUTS, house_bot_label
from engine.strategies import get as get_strategy

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

STEADY = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"


def test_the_house_mcts_label_states_the_budget_the_runner_plays_it_with() -> None:
    house_mcts = get_strategy("mcts", game="cat-lady")  # as arena.runner builds it
    assert house_mcts.iterations == HOUSE_MCTS_PLAYOUTS  # type: ignore[attr-defined]
    assert house_bot_label("cat-lady", "mcts") == (
        f"House bot: mcts (Monte Carlo search, {HOUSE_MCTS_PLAYOUTS} playouts a move), Cat Lady"
    )
    assert house_bot_label("cantankerous-cats", "greedy").endswith(", Cantankerous Cats")


@pytest.fixture
def bots(authors, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        lady = bot_create(owner=authors["ada"], name="lady", source=STEADY)
        tom = bot_create(owner=authors["ada"], name="tom", source=STEADY, game="cantankerous-cats")
    lady.refresh_from_db()
    tom.refresh_from_db()
    assert lady.active_version and tom.active_version
    return {"lady": lady.active_version, "tom": tom.active_version}


@pytest.fixture
def ada(authors) -> Client:
    client = Client()
    client.force_login(authors["ada"])
    return client


def seat_options(html: str) -> dict[str, str]:
    """The first seat's choices: value -> its data-game."""
    select = re.search(r'<select name="seat1".*?</select>', html, re.S)
    assert select
    return {
        value: game
        for value, game in re.findall(
            r'<option value="([^"]+)"[^>]*? data-game="([^"]+)"', select[0]
        )
    }


def test_the_page_for_one_game_offers_only_its_bots(ada, bots) -> None:
    lady_pk, tom_pk = bots["lady"].pk, bots["tom"].pk
    cat_lady = seat_options(ada.get("/arena/challenge/").content.decode())
    assert f"version:{lady_pk}" in cat_lady and f"version:{tom_pk}" not in cat_lady
    assert set(cat_lady.values()) == {"cat-lady"}
    assert "house:cat-lady:mcts" in cat_lady

    html = ada.get("/arena/challenge/?game=cantankerous-cats").content.decode()
    cantankerous = seat_options(html)
    assert f"version:{tom_pk}" in cantankerous and f"version:{lady_pk}" not in cantankerous
    assert set(cantankerous.values()) == {"cantankerous-cats"}
    assert re.search(r'<option value="cantankerous-cats" selected>', html)
    assert "js/seat-filter.js" in html and "data-seat-filter" in html


def test_a_bot_in_the_link_chooses_its_game(ada, bots) -> None:
    html = ada.get(f"/arena/challenge/?seat1=version:{bots['tom'].pk}").content.decode()
    assert re.search(r'<option value="cantankerous-cats" selected>', html)
    assert re.search(
        rf'<option value="version:{bots["tom"].pk}" selected data-game="cantankerous-cats">', html
    )


def test_a_bot_of_another_game_is_refused_beside_its_seat(ada, bots) -> None:
    response = ada.post(
        "/arena/challenge/",
        {
            "game": "cat-lady",
            "seat1": f"version:{bots['lady'].pk}",
            "seat2": f"version:{bots['tom'].pk}",
        },
    )
    assert response.status_code == 400
    errors = re.search(r'id="id_seat2_error">(.*?)</div>', response.content.decode(), re.S)
    assert errors and "tom plays Cantankerous Cats; this match plays Cat Lady." in errors[1]
    assert not Match.objects.filter(kind=Match.Kind.CHALLENGE).exists()


def test_house_bots_of_the_chosen_game_play_a_challenge(
    ada, bots, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = ada.post(
            "/arena/challenge/",
            {
                "game": "cantankerous-cats",
                "seat1": f"version:{bots['tom'].pk}",
                "seat2": "house:cantankerous-cats:greedy",
                "seat3": "house:cantankerous-cats:random",
            },
        )
    assert response.status_code == 302
    match = Match.objects.get(kind=Match.Kind.CHALLENGE)
    assert match.game == "cantankerous-cats" and match.status == Match.Status.FINISHED
    assert [s.builtin for s in match.seats.all()] == ["", "greedy", "random"]
