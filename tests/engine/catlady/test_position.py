"""engine.catlady.position: states set up from a described position, and states sampled
from what a seat knows."""

from __future__ import annotations

import random

import pytest

from engine.catlady.position import sample_state, state_from_position
from engine.errors import EngineError
from engine.registry import load_game
from tests.engine.catlady.helpers import random_midgame


def test_sampled_states_agree_with_the_observation_and_play_on():
    state = random_midgame(3, seed=8, moves=25)
    obs = state.observation(1)
    guess = sample_state(state.game, obs, random.Random(3))
    assert guess.observation(1) == obs
    assert guess.legal_actions() == state.legal_actions()
    while not guess.is_terminal():
        guess = guess.apply(guess.legal_actions()[0])


def test_positions_account_for_every_card_exactly_once():
    game = load_game(options={"players": 3})
    state = state_from_position(
        game,
        {"grid": ["cat/bronte"] + [None] * 8, "deck_size": 10, "tableaux": [{"hand": ["catnip"]}]},
    )
    cards = [c for c in state.grid if c is not None] + list(state._deck) + list(state._removed)
    cards += list(state.players[0].hand)
    assert sorted(cards) == sorted(game.edition.deck_for_players(3))
    with pytest.raises(EngineError, match="more 'cat/bronte' cards"):
        state_from_position(game, {"grid": ["cat/bronte", "cat/bronte"] + [None] * 7})
