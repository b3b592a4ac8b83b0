"""Built-in strategies for Cantankerous Cats: legal answers to every kind of decision, and
greedy beats random."""

from __future__ import annotations

import random

import pytest

from engine.errors import EngineError
from engine.registry import load_game
from engine.strategies import get, names
from engine.strategies.match import bot_rng, play_match
from tests.engine.cantankerous.helpers import act

GAME = "cantankerous-cats"


def test_the_game_has_random_and_greedy_strategies_not_mcts():
    assert names(GAME) == ["greedy", "random"]
    with pytest.raises(EngineError, match="unknown strategy 'mcts' for cantankerous-cats"):
        get("mcts", game=GAME)
    assert get("greedy").choose.__module__ == "engine.catlady.strategies.greedy"  # Cat Lady default


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_answers_every_kind_of_decision_with_a_legal_action(players):
    game = load_game(GAME, options={"players": players})
    greedy = get("greedy", game=GAME)
    seen = set()
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            seat = state.current_player
            choice = greedy.choose(state.observation(seat), legal, bot_rng(seed, seat))
            assert choice in legal
            seen.add(state.phase)
            state = state.apply(choice if rng.random() < 0.5 else rng.choice(legal))
    assert {"bet", "action", "pounce", "instant", "discard"} <= seen


def test_greedy_pounces_on_a_last_chance_window_and_counters_an_attack(position):
    greedy = get("greedy", game=GAME)
    s = act(position(points=[7, 0], hands=[[25], [37, 21]], houses=[[11], []]), "score 25")
    choice = greedy.choose(s.observation(1), s.legal_actions(), random.Random(0))
    assert str(choice) == "pounce play 37"  # a cancel stops the win
    s = act(position(hands=[[6, 16], [32]], houses=[[11], []]), "bank 6", "pounce attack 0 with 32")
    choice = greedy.choose(s.observation(0), s.legal_actions(), random.Random(0))
    assert str(choice) == "counter bank 16"  # 3 banked + 4 pays the cost of 6


def test_greedy_scores_what_it_can_pay_for_and_banks_otherwise(position):
    greedy = get("greedy", game=GAME)
    s = position(hands=[[6, 25, 32], []], houses=[[11], []])
    assert str(greedy.choose(s.observation(0), s.legal_actions(), random.Random(0))) == "score 25"
    s = position(hands=[[6, 16, 32], []], houses=[[], []])
    assert str(greedy.choose(s.observation(0), s.legal_actions(), random.Random(0))) == "bank 16"


def test_greedy_beats_random_on_fixed_seeds():
    game = load_game(GAME, options={"players": 4})
    bots = [get("greedy", game=GAME)] + [get("random", game=GAME)] * 3
    wins = sum(play_match(game, bots, seed).result().winners == (0,) for seed in range(20))
    assert wins >= 12  # a random seat would win about 5
