"""Cat Lady's expansion setups in the arena: unranked challenges on the placeholder Box of
Treats deck (5-6 players, shared goals, solitaire against the cat-player house bot), never
on incomplete card data, and never ranked."""

from __future__ import annotations

import json

import pytest
from django.core.exceptions import ValidationError

import engine
from arena.common import SeatInput, match_create
from arena.matches.services import challenge_create
from arena.models import Match
from arena.runner import run_match
from engine.catlady.options import describe_options, play_setups

PH = {"edition": "box-of-treats-placeholder"}


def test_the_runner_plays_six_house_bots_on_the_placeholder_deck():
    log = run_match(seed=3, bots=["random"] * 6, options=PH)
    assert log["options"]["edition"] == "box-of-treats-placeholder"
    final = engine.replay(log["engine_log"])
    assert final.is_terminal() and len(final.result().players) == 6


def test_a_solitaire_match_is_one_bot_against_the_cat_player_house_bot():
    log = run_match(seed=2, bots=["greedy", "cat-player"], options={**PH, "solitaire": True})
    final = engine.replay(log["engine_log"])
    result = final.result()
    assert result.players[1].cat_player and not result.players[0].cat_player
    assert final.observation(0)["solitaire"]["cat_player_seat"] == 1


def test_only_complete_editions_are_ranked_and_incomplete_ones_are_not_playable():
    setups = {s.key: s for s in play_setups()}
    assert {k for k, s in setups.items() if s.ranked} == {"base-2p", "base-3p", "base-4p"}
    assert not setups["box-of-treats-6p"].playable
    assert "incomplete card data" in setups["premium-3p"].label
    assert (
        "placeholder — not the published card list" in setups["box-of-treats-placeholder-5p"].label
    )
    assert describe_options({}) == "Cat Lady (base game)"


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery")
def test_challenge_on_the_placeholder_deck_at_five_players(
    authors, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(
            seats=[SeatInput(builtin="random")] * 5, by=authors["ada"], seed=4, options=PH
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.failure
    assert match.options == PH
    assert match.log["engine_log"]["options"]["edition"] == "box-of-treats-placeholder"


@pytest.mark.django_db
def test_challenges_refuse_incomplete_editions_and_bad_options(authors):
    seats = [SeatInput(builtin="random")] * 3
    with pytest.raises(ValidationError, match="incomplete"):
        challenge_create(seats=seats, by=authors["ada"], options={"edition": "premium"})
    with pytest.raises(ValidationError, match="number of seats"):
        challenge_create(seats=seats, by=authors["ada"], options={"players": 3})
    with pytest.raises(ValidationError, match="unknown option"):
        challenge_create(seats=seats, by=authors["ada"], options={"colour": "red"})


@pytest.mark.django_db
def test_ranked_matches_refuse_options(authors):
    with pytest.raises(ValidationError, match="default options"):
        match_create(
            kind=Match.Kind.LADDER,
            seats=[SeatInput(builtin="random")] * 2,
            seed=1,
            options=PH,
        )


@pytest.mark.django_db
def test_challenge_api_takes_options(client_for):
    response = client_for("ada").post(
        "/api/arena/matches/challenge/",
        {"seats": ["random", "cat-player"], "seed": 3, "options": {**PH, "solitaire": True}},
        format="json",
    )
    assert response.status_code == 201, response.json()
    response = client_for("ada").post(
        "/api/arena/matches/challenge/",
        {"seats": ["random"] * 6, "seed": 3, "options": {"edition": "box-of-treats"}},
        format="json",
    )
    assert response.status_code == 400
    assert "incomplete" in json.dumps(response.json())


def test_manage_py_play_takes_expansion_options(tmp_path):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command(
        "play",
        "random",
        "random",
        "random",
        "random",
        "random",
        "--seed",
        "1",
        "--option",
        "edition=box-of-treats-placeholder",
        "--log-dir",
        str(tmp_path),
        stdout=out,
    )
    assert "seat 5 random" in out.getvalue()  # seats printed from 1, as the pages count
    out = StringIO()
    call_command(
        "play",
        "greedy",
        "cat-player",
        "--seed",
        "1",
        "--option",
        "edition=box-of-treats-placeholder",
        "--option",
        "solitaire=true",
        "--log-dir",
        str(tmp_path),
        stdout=out,
    )
    assert "seat 2 cat-player" in out.getvalue()
