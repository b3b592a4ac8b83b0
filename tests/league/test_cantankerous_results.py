"""The league's physical results for Cantankerous Cats (league/catalogue.py) and the engine's
results agree: an engine game's result fields are accepted as they are and ranked the same."""

from __future__ import annotations

import pytest

from engine.registry import load_game
from engine.strategies import get
from engine.strategies.match import play_match
from league.catalogue import ResultError, check_results

GAME = "cantankerous-cats"


@pytest.mark.parametrize(("players", "variant"), [(2, "basic"), (4, "standard"), (6, "standard")])
def test_engine_results_are_valid_league_results_with_the_same_ranks(players, variant):
    game = load_game(GAME, options={"players": players, "variant": variant})
    for seed in range(5):
        result = play_match(game, [get("greedy", game=GAME)] * players, seed).result()
        fields = [
            {key: p[key] for key in ("winner", "win_type", "mischief_points")}
            for p in result.to_json()["players"]
        ]
        checked = check_results(GAME, variant, fields)
        assert checked.ranks == [p.rank for p in result.players]


def test_the_league_refuses_a_feral_victory_in_the_basic_game_as_the_engine_never_gives_one():
    with pytest.raises(ResultError, match="A Feral victory exists only in the Standard game"):
        check_results(
            GAME,
            "basic",
            [
                {"winner": True, "win_type": "feral_victory", "mischief_points": 2},
                {"winner": False, "mischief_points": 5},
            ],
        )
