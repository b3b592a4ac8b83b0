"""Cat Lady's house bots: ``greedy`` (one-ply lookahead on sampled states), ``mcts`` (flat
Monte Carlo on sampled states) and ``cat-player`` (Box of Treats solitaire's automated
opponent). The game-independent ``random`` bot lives in :mod:`engine.random_bot`.
"""

from engine.catlady.strategies.cat_player import CatPlayerStrategy
from engine.catlady.strategies.greedy import GreedyStrategy
from engine.catlady.strategies.mcts import MonteCarloStrategy

__all__ = ["CatPlayerStrategy", "GreedyStrategy", "MonteCarloStrategy"]
