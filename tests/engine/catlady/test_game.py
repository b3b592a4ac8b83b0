"""The Game/State API: loading games, immutability, seeds, history, legality and results."""

from __future__ import annotations

import pytest

from engine.catlady.actions import EndTurn, Line, PlaceToken, Take
from engine.errors import EngineError
from engine.registry import latest_version, load_game, registered_games

# -- loading ------------------------------------------------------------------------------


def test_the_registry_knows_cat_lady_and_its_versions():
    assert ("cat-lady", "1") in registered_games()
    assert latest_version("cat-lady") == "1"
    game = load_game()
    assert (game.name, game.version, game.num_players) == ("cat-lady", "1", 4)
    assert game.options == {"players": 4, "edition": "base", "scoring": {}}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "chess"}, "unknown game 'chess'"),
        ({"version": "0"}, "version '0' is not implemented"),
        ({"options": {"players": 5}}, "not 5"),
        ({"options": {"players": 1}}, "not 1"),
        ({"options": {"players": "4"}}, "must be an integer"),
        ({"options": {"colour": "red"}}, "unknown option"),
        ({"options": {"edition": "deluxe"}}, "unknown edition 'deluxe'"),
    ],
)
def test_bad_game_requests_are_refused_clearly(kwargs, message):
    with pytest.raises(EngineError, match=message):
        load_game(**kwargs)


def test_game_and_options_are_immutable():
    game = load_game()
    with pytest.raises(AttributeError):
        game.num_players = 3
    with pytest.raises(TypeError):
        game.options["players"] = 2


@pytest.mark.parametrize("seed", [-1, 1.5, "7", True])
def test_seeds_are_non_negative_integers(seed):
    with pytest.raises(EngineError, match="seed"):
        load_game().new_initial_state(seed)


# -- states -------------------------------------------------------------------------------


def test_history_lists_every_applied_action():
    state = load_game(options={"players": 2}).new_initial_state(1)
    moves = [PlaceToken(Line.ROW_1), Take(Line.ROW_2), EndTurn(), Take(Line.COL_1)]
    for move in moves:
        state = state.apply(move)
    assert state.history == tuple(moves)


def test_states_branch_independently():
    root = load_game(options={"players": 2}).new_initial_state(1).apply(PlaceToken(Line.ROW_1))
    left = root.apply(Take(Line.ROW_2))
    right = root.apply(Take(Line.ROW_3))
    assert left.token is Line.ROW_2 and right.token is Line.ROW_3
    assert root.token is Line.ROW_1 and root.phase == "before-draft"
    assert left.grid != right.grid


def test_is_legal_agrees_with_legal_actions():
    state = load_game(options={"players": 3}).new_initial_state(4).apply(PlaceToken(Line.ROW_2))
    for action in state.legal_actions():
        assert state.is_legal(action)
    assert not state.is_legal(Take(Line.ROW_2))
    assert not state.is_legal(EndTurn())


def test_result_before_the_end_is_refused():
    with pytest.raises(EngineError, match="not over"):
        load_game().new_initial_state(1).result()


# -- observations -------------------------------------------------------------------------


# -- documentation examples and the command line ------------------------------------------
