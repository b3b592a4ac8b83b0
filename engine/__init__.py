"""Catleague's game engine: the rules of the cat card games, in pure Python (no Django).

The public surface: load a game, deal a state, list and apply actions, observe, score,
log and replay. Two games: ``"cat-lady"`` (the default) and ``"cantankerous-cats"``
(:mod:`engine.cantankerous`), with the same game API.

>>> import engine
>>> game = engine.load_game("cat-lady", options={"players": 2})
>>> state = game.new_initial_state(seed=7)
>>> while not state.is_terminal():
...     state = state.apply(state.legal_actions()[0])
>>> len(state.result().players)
2
>>> engine.replay(engine.make_log(game, 7, state.history)) == state
True
"""

from engine.actions import (
    Action,
    Brush,
    CatTake,
    EndTurn,
    Laser,
    Line,
    LostCatsForStray,
    LostCatsForVP,
    PlaceToken,
    ShoppingBag,
    Spray,
    SwapGoal,
    Take,
)
from engine.cards import (
    FOOD_TOKENS,
    CardKind,
    CardSpec,
    CatSpec,
    Colour,
    Edition,
    Food,
    load_edition,
)
from engine.errors import (
    CardDataError,
    EngineError,
    IllegalActionError,
    ReplayError,
    ScoreInputError,
)
from engine.game import Game, State
from engine.log import LOG_SCHEMA, make_log, replay
from engine.registry import load_game, registered_games, supported_players
from engine.scoring import GameScore, PlayerScore, ScoringRules, Tableau, score_game

__all__ = [
    "FOOD_TOKENS",
    "LOG_SCHEMA",
    "Action",
    "Brush",
    "CatTake",
    "CardDataError",
    "CardKind",
    "CardSpec",
    "CatSpec",
    "Colour",
    "Edition",
    "EndTurn",
    "EngineError",
    "Food",
    "Game",
    "GameScore",
    "IllegalActionError",
    "Laser",
    "Line",
    "LostCatsForStray",
    "LostCatsForVP",
    "PlaceToken",
    "PlayerScore",
    "ReplayError",
    "ScoreInputError",
    "ScoringRules",
    "ShoppingBag",
    "Spray",
    "State",
    "SwapGoal",
    "Tableau",
    "Take",
    "load_edition",
    "load_game",
    "make_log",
    "registered_games",
    "replay",
    "score_game",
    "supported_players",
]
