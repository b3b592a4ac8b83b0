"""House bots' strength at a live table: chosen in the play form, stored on the seat, played
with its budget, shown at the table and rated as an entry of its own; unrated games rate
nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from arena.common import SeatInput
from arena.live.services import live_create, live_rematch
from arena.live.strength import HARD_PLAYOUTS, MEDIUM_PLAYOUTS, with_strengths
from arena.matches.services import match_record
from arena.models import Match, MatchSeat, PlayRating
from arena.runner import run_match
from arena.tasks import _specs
from tests.arena.live_games import client_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def pia():
    return get_user_model().objects.create_user("pia", password="pw-123456789")


def finished(user, strength: str, *, rated: bool = True, seed: int = 3) -> Match:
    """A live match of ``user`` against house mcts at ``strength``, recorded as finished (the
    result comes from a quick game: the rating reads only ranks)."""
    with transaction.atomic():
        match = live_create(
            user=user,
            game="cat-lady",
            seats=[None, SeatInput(builtin="mcts")],
            strengths=["", strength],
            seed=seed,
            rated=rated,
        )
        match_record(match_id=match.pk, log=run_match(seed=seed, bots=["random", "greedy"]))
    match.refresh_from_db()
    return match


def test_the_form_offers_each_house_bot_at_its_strengths():
    offered = with_strengths(
        {
            "cat-lady": [("house:cat-lady:greedy", "House bot: greedy"), ("v:4", "ada v1")],
            "cantankerous-cats": [("house:cantankerous-cats:greedy", "House bot: greedy")],
        }
    )
    assert [value for value, _ in offered["cat-lady"]] == ["house:cat-lady:greedy", "v:4"]
    # A game whose house bots have no mcts offers only easy.
    assert offered["cantankerous-cats"][0][1].startswith("House bot: greedy · easy")
    mcts = with_strengths({"cat-lady": [("house:cat-lady:mcts", "House bot: mcts")]})
    assert mcts["cat-lady"] == [
        (
            "house:cat-lady:mcts:medium",
            f"House bot: mcts · medium (mcts, {MEDIUM_PLAYOUTS} playouts a move)",
        ),
        (
            "house:cat-lady:mcts:hard",
            f"House bot: mcts · hard (mcts, {HARD_PLAYOUTS} playouts a move)",
        ),
    ]


def test_a_strength_chosen_in_the_form_is_stored_shown_and_played_with_its_budget(pia):
    pia_client = client_of(pia)
    page = pia_client.get("/arena/play/").content.decode()
    assert "house:cat-lady:mcts:hard" in page and "mcts · hard" in page
    assert 'name="rated"' in page and "checked" in page.split('name="rated"')[1][:80]
    started = pia_client.post(
        "/arena/play/",
        {
            "game": "cat-lady",
            "players": "3",
            "seat": "1",
            "opponent_1": "house:cat-lady:mcts:hard",
            "opponent_2": "house:cat-lady:greedy",
            "rated": "on",
        },
    )
    match = Match.objects.get()
    assert started.status_code == 302 and match.rated is True
    seats = list(match.seats.order_by("seat"))
    assert [(s.builtin, s.strength) for s in seats] == [
        ("", ""),
        ("mcts", "hard"),
        ("greedy", "easy"),
    ]
    assert [s.label for s in seats[1:]] == ["house:mcts · hard", "house:greedy · easy"]
    specs = _specs(match)
    assert dict(specs[1].params) == {"iterations": HARD_PLAYOUTS} and specs[2].params == ()
    table = pia_client.get(f"/arena/play/{match.pk}/").content.decode()
    assert "house:mcts · hard" in table and "Rated: this game counts" in table
    # A rematch keeps the strengths with their bots, one seat on, and stays rated.
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    match.refresh_from_db()
    again = live_rematch(match=match, user=pia)
    assert [s.label for s in again.seats.order_by("seat")] == [
        "house:greedy · easy",
        "pia",
        "house:mcts · hard",
    ]
    assert again.rated is True


def test_a_strength_the_bot_does_not_have_is_refused_beside_its_seat(pia):
    with pytest.raises(ValidationError) as refused:
        live_create(
            user=pia,
            game="cat-lady",
            seats=[None, SeatInput(builtin="random")],
            strengths=["", "hard"],
        )
    assert list(refused.value.message_dict) == ["seats.1"]
    assert not Match.objects.exists()


def test_each_strength_is_its_own_entry_of_the_pool(pia):
    finished(pia, "hard")
    finished(pia, "medium", seed=4)
    entries = PlayRating.objects.filter(builtin="mcts").order_by("strength")
    assert [(e.strength, e.games, e.name) for e in entries] == [
        ("hard", 1, "house:mcts · hard"),
        ("medium", 1, "house:mcts · medium"),
    ]
    assert PlayRating.objects.get(user=pia).games == 2
    pool = client_of(pia).get("/arena/play/").content.decode().split("people and bots</h2>")[1]
    assert "<td>house:mcts · hard</td><td>house bot</td>" in pool
    assert "<td>house:mcts · medium</td><td>house bot</td>" in pool


def test_an_unrated_game_never_changes_a_rating(pia):
    match = finished(pia, "hard", rated=False)
    assert match.status == "finished"
    assert not PlayRating.objects.exists()
    assert all(s.rating_after is None for s in MatchSeat.objects.filter(match=match))
    state = client_of(pia).get(f"/arena/play/{match.pk}/state/").json()
    assert state["result"]["rating"] is None and state["rated"] is False


@pytest.fixture
def back_to_the_latest_migration():
    """Later tests in the same process need the whole schema, migrations after 0012 too."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("back_to_the_latest_migration")
def test_the_migration_names_the_live_greedy_easy_and_keeps_its_ratings():
    before, after = (
        [("arena", "0011_friends")],
        [("arena", "0012_live_strength_rated_takeback")],
    )
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    user = old.get_model("auth", "User").objects.create(username="pia")
    match = old.get_model("arena", "Match").objects.create(kind="live", seed=1)
    seats = old.get_model("arena", "MatchSeat").objects
    seats.create(match=match, seat=0, player=user)
    seats.create(match=match, seat=1, builtin="greedy")
    ratings = old.get_model("arena", "PlayRating").objects
    ratings.create(game="cat-lady", players=2, builtin="greedy", rating=1612.0, games=3)
    ratings.create(game="cat-lady", players=2, builtin="mcts", rating=1544.0, games=3)
    executor = MigrationExecutor(connection)
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    seat = new.get_model("arena", "MatchSeat").objects.get(match_id=match.pk, seat=1)
    assert (seat.builtin, seat.strength) == ("greedy", "easy")
    ratings = new.get_model("arena", "PlayRating").objects
    assert sorted(ratings.values_list("builtin", "strength", "rating")) == [
        ("greedy", "easy", 1612.0),
        ("mcts", "", 1544.0),  # the old default budget: its own entry, as it was
    ]
    assert new.get_model("arena", "Match").objects.get(pk=match.pk).rated is True


def test_every_page_naming_a_live_games_seats_says_the_house_bots_strength(pia):
    match = finished(pia, "hard")
    client = client_of(pia)
    pages = {
        "match page": client.get(f"/arena/matches/{match.pk}/"),
        "seat chips": client.get("/arena/matches/"),
        "game list": client.get("/arena/play/games/"),
        "pool page": client.get("/arena/play/"),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        assert "house:mcts · hard" in page.content.decode(), name
    assert '<span class="house">house:mcts · hard</span>' in pages["match page"].content.decode()
    # A person's chip names the person, never "house:".
    chips = pages["seat chips"].content.decode()
    assert '<span class="person">pia</span>' in chips and "house:<" not in chips
