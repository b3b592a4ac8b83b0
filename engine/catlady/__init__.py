"""Cat Lady (AEG) for the Catleague engine: the rules in code, the cards as data.

Load it like every game: ``engine.load_game("cat-lady", options={...})``. The rules follow
``shared/rules/``; the card data lives in ``engine/catlady/data/`` with a source and a
confidence mark for every fact (:mod:`engine.catlady.cards`). Box of Treats, Premium and
solitaire content play from their own data files (placeholders say so in their labels).

>>> import engine
>>> game = engine.load_game("cat-lady", options={"players": 2})
>>> state = game.new_initial_state(seed=7)
>>> while not state.is_terminal():
...     state = state.apply(state.legal_actions()[0])
>>> len(state.result().players)
2
"""

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
    load_edition,
)
from engine.catlady.game import Game, State
from engine.catlady.scoring import GameScore, PlayerScore, ScoringRules, Tableau, score_game

__all__ = [
    "FOOD_TOKENS",
    "Brush",
    "CardKind",
    "CardSpec",
    "CatSpec",
    "CatTake",
    "Colour",
    "Edition",
    "EndTurn",
    "Food",
    "Game",
    "GameScore",
    "Laser",
    "Line",
    "LostCatsForStray",
    "LostCatsForVP",
    "PlaceToken",
    "PlayerScore",
    "ScoringRules",
    "ShoppingBag",
    "Spray",
    "State",
    "SwapGoal",
    "Tableau",
    "Take",
    "load_edition",
    "score_game",
]
