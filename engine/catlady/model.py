"""Cat Lady's position as plain values: one player's holdings (:class:`PlayerState`) and the
state only expansion games carry (:class:`Expansion`). The rules change them, the game
object wraps them in a :class:`engine.catlady.game.State`; this module knows neither.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["SHOPPING_BAG_FOOD", "Expansion", "PlayerState"]

# Box of Treats' shopping bag gives one of each of these (RB-BOT).
SHOPPING_BAG_FOOD = ("chicken", "tuna", "milk")


class PlayerState(NamedTuple):
    """One player's holdings. Cards are indices into ``edition.deck``; strays into
    ``edition.strays``; ``food`` counts tokens in ``edition.food_tokens`` order."""

    cats: tuple[int, ...]
    strays: tuple[int, ...]
    food: tuple[int, ...]
    hand: tuple[
        int, ...
    ]  # toys, costumes, catnip, lost cats, sprays (and Box of Treats' hand cards)
    lost_cats: int
    sprays: int
    vp_tokens: int
    boxes: tuple[int, ...] = ()  # Box of Treats: box cards in front of the player
    brushes: int = 0
    lasers: int = 0
    bags: int = 0


class Expansion(NamedTuple):
    """State that only Box of Treats games have (None in a base game, so base states stay
    as small and fast as they were)."""

    goals: tuple[int, ...] = ()  # goal index between seat k and seat k+1, per k
    goal_pool: tuple[int, ...] = ()
    swapped: bool = False  # a goal was swapped this turn
    turn_deck: tuple[int, ...] = ()  # solitaire turn cards still face down (hidden order)
    turn_discard: tuple[int, ...] = ()
    turn_card: int = -1  # the revealed turn card of the cat player's turn
    reshuffles: int = 0
    starting: tuple[int, ...] = ()  # the cat player's starting cards
    cat_choice: tuple[int, ...] = ()  # tied lines the human chooses between for the cat
