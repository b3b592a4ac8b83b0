"""Game options: defaults stored in the game and its logs, and every bad value refused."""

from __future__ import annotations

import pytest

from engine.cantankerous.options import OPTIONS
from engine.errors import EngineError
from engine.registry import load_game, registered_games, supported_players

GAME = "cantankerous-cats"


def test_registered_as_version_1_for_two_to_six_players():
    assert (GAME, "1") in registered_games()
    assert supported_players(GAME) == (2, 3, 4, 5, 6)
    assert load_game(GAME).version == "1"


def test_every_option_is_stored_with_its_value_defaults_included():
    game = load_game(GAME, options={"players": 3})
    assert dict(game.options) == {
        "players": 3,
        "variant": "standard",
        "deck": "demo",
        "start_hand": 6,
        "meal_draw": 3,
        "token_bank": "players",
        "turn_indicator": "flip",
        "direction": "clockwise",
        "dog_cards": "incident",
        "turn_limit": 300,
    }
    assert set(game.options) == set(OPTIONS)
    with pytest.raises(TypeError):
        game.options["players"] = 4


def test_defaults_the_manual_does_not_give_say_so():
    for name in ("token_bank", "turn_indicator", "dog_cards"):
        assert "not official" in OPTIONS[name][1]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 1}, "played by 2-6 players, not 1"),
        ({"players": True}, "played by 2-6 players, not True"),
        ({"colour": "red"}, "unknown option\\(s\\) for cantankerous-cats: colour; known: players"),
        ({"variant": "advanced"}, "option 'variant' must be one of basic, standard"),
        ({"start_hand": 0}, "option 'start_hand' must be a whole number 1-10, not 0"),
        ({"meal_draw": "3"}, "option 'meal_draw' must be a whole number 1-6"),
        ({"token_bank": -1}, "option 'token_bank' must be 'players' or a whole number 0-60"),
        ({"turn_indicator": "up"}, "option 'turn_indicator' must be one of flip, high, low"),
        ({"direction": "left"}, "option 'direction' must be one of clockwise, counter-clockwise"),
        ({"dog_cards": "bark"}, "option 'dog_cards' must be one of incident, pounce-only"),
        ({"turn_limit": 0}, "option 'turn_limit' must be a whole number 1-10000"),
        ({"deck": ""}, "option 'deck' must be a deck name or a path"),
        ({"deck": "nope"}, "no bundled Cantankerous Cats deck 'nope'"),
    ],
)
def test_bad_options_are_refused_with_what_is_accepted(options, message):
    with pytest.raises(EngineError, match=message):
        load_game(GAME, options=options)


def test_a_bad_seed_is_refused():
    with pytest.raises(EngineError, match="a seed is a non-negative integer"):
        load_game(GAME).new_initial_state(-1)
