"""Cantankerous Cats (Mentha Designs) for the Catleague engine: the manual's rules in code,
the cards as data.

Load it like every game: ``engine.load_game("cantankerous-cats", options={...})``. The
rules follow ``shared/rules/cantankerous-cats-manual.txt``; what the manual leaves open is
decided and listed in docs/cantankerous.md. The cards live in deck files
(:mod:`engine.cantankerous.cards`); the default deck is the labelled demo deck, because
the published card list is not public.

>>> import engine
>>> game = engine.load_game("cantankerous-cats", options={"players": 2, "variant": "basic"})
>>> state = game.new_initial_state(seed=1)
>>> while not state.is_terminal():
...     state = state.apply(state.legal_actions()[-1])
>>> state.result().win_type
'nine_mischief'
>>> engine.replay(engine.make_log(game, 1, state.history)) == state
True
"""

from engine.cantankerous.actions import (
    Attack,
    Bank,
    Bet,
    BuyToken,
    CounterBank,
    CounterPlay,
    Discard,
    Done,
    Instant,
    Keep,
    Pass,
    PickyEater,
    Play,
    PounceAttack,
    PouncePlay,
    Score,
)
from engine.cantankerous.cards import Card, CardType, Deck, bundled_decks, load_deck
from engine.cantankerous.effects import PRIMITIVES, TARGETS, WHO, Effect, Step
from engine.cantankerous.game import Game, State
from engine.cantankerous.options import OPTIONS
from engine.cantankerous.result import PlayerResult, Result

__all__ = [
    "OPTIONS",
    "PRIMITIVES",
    "TARGETS",
    "WHO",
    "Attack",
    "Bank",
    "Bet",
    "BuyToken",
    "Card",
    "CardType",
    "CounterBank",
    "CounterPlay",
    "Deck",
    "Discard",
    "Done",
    "Effect",
    "Game",
    "Instant",
    "Keep",
    "Pass",
    "PickyEater",
    "Play",
    "PlayerResult",
    "PounceAttack",
    "PouncePlay",
    "Result",
    "Score",
    "State",
    "Step",
    "bundled_decks",
    "load_deck",
]
