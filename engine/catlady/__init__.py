"""Cat Lady (AEG) for the Catleague engine: the rules in code, the cards as data.

Load it like every game: ``engine.load_game("cat-lady", options={...})``. The rules follow
``shared/rules/``; the card data lives in ``engine/catlady/data/`` with a source and a
confidence mark for every fact (:mod:`engine.catlady.cards`). Box of Treats, Premium and
solitaire content play from their own data files (placeholders say so in their labels).

Its values (actions, cards, scoring) are re-exported once, by :mod:`engine` for the league
and the arena; the game's own modules import them from where they are defined.

>>> import engine
>>> game = engine.load_game("cat-lady", options={"players": 2})
>>> isinstance(game, Game), isinstance(game.new_initial_state(seed=7), State)
(True, True)
"""

from engine.catlady.game import Game, State

__all__ = ["Game", "State"]
