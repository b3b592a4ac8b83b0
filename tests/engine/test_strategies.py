"""engine.strategies: the registry of house bots and the match loop that plays them."""

from __future__ import annotations

import pytest

from engine.catlady.actions import Line, Take
from engine.errors import EngineError, IllegalActionError
from engine.registry import load_game
from engine.strategies import get, names
from engine.strategies.match import play_match


def test_the_house_bots_are_registered():
    assert names() == ["cat-player", "greedy", "mcts", "random"]
    with pytest.raises(EngineError, match="unknown strategy 'smart'"):
        get("smart")
    with pytest.raises(EngineError, match="bad parameters"):
        get("random", depth=3)


def test_a_bot_answering_an_illegal_action_is_caught():
    class Cheater:
        name = "cheater"

        def choose(self, observation, legal_actions, rng):
            return Take(Line.ROW_1)

    game = load_game(options={"players": 2})
    with pytest.raises(IllegalActionError, match="cheater"):
        play_match(game, [get("random"), Cheater()], seed=1)
