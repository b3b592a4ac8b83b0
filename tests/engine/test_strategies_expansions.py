"""The house bots play the expansion setups to the end with legal moves only."""

from __future__ import annotations

import pytest

from engine.registry import load_game
from engine.strategies import get
from engine.strategies.match import play_match

PH = "box-of-treats-placeholder"


@pytest.mark.parametrize(
    ("options", "bots"),
    [
        ({"players": 6}, ["random"] * 6),
        ({"players": 3, "shared_goals": True}, ["random", "mcts:3", "random"]),
        ({"players": 2, "solitaire": True}, ["greedy", "cat-player"]),
    ],
)
def test_house_bots_finish_expansion_games(options, bots):
    game = load_game(options={"edition": PH, **options})
    strategies = [get("mcts", iterations=3) if b == "mcts:3" else get(b) for b in bots]
    final = play_match(game, strategies, seed=11)
    assert final.is_terminal()
    result = final.result()
    assert len(result.players) == game.num_players and result.winners
