"""Choosing bots for a match: house bots say what they play and the mcts its budget, the
challenge form offers only the chosen game's bots (refusing another game's beside its seat),
and house bots enter tournaments beside the uploaded bots."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from arena.models import BotVersion, Match, MatchSeat, Tournament
from arena.submissions.services import bot_create
from arena.tournaments.services import (
    HouseEntrant,
    tournament_placings,
    tournament_standings,
    tournament_start,
)
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


# --- house bots in tournaments --------------------------------------------------------------


def test_house_bots_play_a_tournament_beside_a_bot(
    authors, bots, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_start(
            name="Cup",
            organiser=authors["ada"],
            entrants=[bots["lady"]],
            house_entrants=["random", "greedy"],
            table_size=2,
            format=Tournament.Format.ROUND_ROBIN,
            seed=3,
        )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    seats = MatchSeat.objects.filter(match__tournament=tournament)
    assert seats.count() == 3 * 2 * 2  # three pairs, both seatings, two seats
    assert {s.builtin for s in seats if s.version_id is None} == {"random", "greedy"}
    standings = tournament_standings(tournament)
    assert {str(e) for e, _ in standings} == {"house random", "house greedy", str(bots["lady"])}
    assert sum(points for _, points in standings) == pytest.approx(6.0)  # one per match
    places = tournament_placings(tournament)
    assert [p.place for p in places] == [1, 2, 3]
    assert any(isinstance(p.version, HouseEntrant) for p in places)


@pytest.mark.parametrize(
    ("house", "game", "message"),
    [
        (["cat-player"], None, "Cat Lady has no house bot 'cat-player'"),
        (["mcts"], "cantankerous-cats", "no house bot 'mcts'"),
        (["greedy", "greedy"], None, "Each house bot enters once."),
    ],
)
def test_house_entrants_that_cannot_enter_are_refused(authors, house, game, message) -> None:
    with pytest.raises(ValidationError) as refused:
        tournament_start(
            name="Cup",
            organiser=authors["ada"],
            entrants=[],
            house_entrants=house,
            game=game,
            table_size=2,
            format=Tournament.Format.SWISS,
        )
    assert any(message in m for m in refused.value.message_dict["house_entrants"])
    assert not Tournament.objects.exists()


def test_the_api_enters_house_bots_and_names_them_in_the_standings(
    client_for, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("ada").post(
            "/api/arena/tournaments/",
            {
                "name": "House cup",
                "format": "round_robin",
                "table_size": 2,
                "entrants": [],
                "house_entrants": ["random", "greedy"],
                "game": "cantankerous-cats",
            },
            format="json",
        )
    assert response.status_code == 201, response.content
    assert response.json()["house_entrants"] == ["random", "greedy"]
    assert response.json()["game"] == "cantankerous-cats"
    standings = client_for(None).get(f"/api/arena/tournaments/{response.json()['id']}/standings/")
    rows = standings.json()["placings"]
    assert {(r["version"], r["house"], r["bot"]) for r in rows} == {
        (None, "random", "house random"),
        (None, "greedy", "house greedy"),
    }


def new_tournament(client: Client, version: BotVersion, house: str):
    """The new-tournament form for a one-round Cat Lady Swiss of ``version`` and ``house``."""
    return client.post(
        "/arena/tournaments/new/",
        {
            "name": "Mixed",
            "game": "cat-lady",
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "final_size": 0,
            "entrants": [str(version.pk)],
            "house_entrants": [house],
        },
    )


def test_the_new_tournament_page_enters_the_house_mcts_with_its_budget(ada, bots) -> None:
    html = ada.get("/arena/tournaments/new/").content.decode()
    assert f"mcts (Monte Carlo search, {HOUSE_MCTS_PLAYOUTS} playouts a move), Cat Lady" in html
    assert 'value="cat-lady:mcts"' in html and 'data-game="cat-lady"' in html
    assert "js/seat-filter.js" in html
    response = new_tournament(ada, bots["lady"], "cat-lady:mcts")
    assert response.status_code == 302, response.content.decode()[-3000:]
    tournament = Tournament.objects.get()
    assert tournament.house_entrants == ["mcts"]
    assert list(tournament.entrants.all()) == [bots["lady"]]
    page = ada.get(f"/arena/tournaments/{tournament.pk}/").content.decode()
    assert re.search(r'mcts\s*<span class="badge">house bot</span>', page)


def test_the_new_tournament_page_refuses_another_games_entrants(ada, bots) -> None:
    response = new_tournament(ada, bots["tom"], "cantankerous-cats:greedy")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Not Cat Lady bots: tom." in html
    assert "Choose Cat Lady&#x27;s house bots (not cantankerous-cats greedy)." in html
    assert not Tournament.objects.exists()
