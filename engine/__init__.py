"""Catleague's game engine: the rules of the cat card games, in pure Python (no Django).

The public surface: load a game, deal a state, list and apply actions, observe, score,
log and replay. Two games, one package each behind the same typed contract
(:mod:`engine.contract`): ``"cat-lady"`` (:mod:`engine.catlady`, the default) and
``"cantankerous-cats"`` (:mod:`engine.cantankerous`). Cat Lady's actions, card data and
scoring calculator (with its editions and the setups they are played in) are re-exported here,
as they were before the games had packages, for the league and the arena: they use only this
surface, never a game package's modules (an import-linter contract).

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

from engine.actions import Action
from engine.catlady.actions import (
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
from engine.catlady.cards import (
    FOOD_TOKENS,
    CardKind,
    CardSpec,
    CatSpec,
    Colour,
    Edition,
    Food,
    bundled_editions,
    load_edition,
)
from engine.catlady.options import PlaySetup, play_setups
from engine.catlady.scoring import (
    BREAKDOWN,
    BREAKDOWN_LABELS,
    GameScore,
    PlayerScore,
    ScoringRules,
    Tableau,
    score_game,
    tableaux_from_json,
)
from engine.contract import Game, GameSpec, GameState, Strategy
from engine.errors import (
    CardDataError,
    EngineError,
    IllegalActionError,
    ReplayError,
    ScoreInputError,
)
from engine.forward import ForwardModel
from engine.log import LOG_SCHEMA, make_log, replay
from engine.registry import (
    forward_model,
    game_spec,
    load_game,
    registered_games,
    supported_players,
)

__all__ = [
    "BREAKDOWN",
    "BREAKDOWN_LABELS",
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
    "ForwardModel",
    "Game",
    "GameSpec",
    "GameState",
    "GameScore",
    "IllegalActionError",
    "Laser",
    "Line",
    "LostCatsForStray",
    "LostCatsForVP",
    "PlaceToken",
    "PlaySetup",
    "PlayerScore",
    "ReplayError",
    "ScoreInputError",
    "ScoringRules",
    "ShoppingBag",
    "Spray",
    "Strategy",
    "SwapGoal",
    "Tableau",
    "Take",
    "bundled_editions",
    "forward_model",
    "game_spec",
    "load_edition",
    "load_game",
    "make_log",
    "play_setups",
    "registered_games",
    "replay",
    "score_game",
    "supported_players",
    "tableaux_from_json",
]
