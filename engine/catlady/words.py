"""Cat Lady's moves in people's words: every card named by its printed name (from the card
data), every move with the rule it follows, and the board things it takes.

>>> from engine import load_game
>>> game = load_game("cat-lady", options={"players": 2})
>>> state = game.new_initial_state(1)
>>> words = describe_move(state, state.legal_actions()[0])
>>> words["label"], words["picks"]
('Place the cat token on row 1 (it blocks Scratching Post, Tuna, Costume)', ['line:row 1'])
"""

from __future__ import annotations

from engine.catlady import actions
from engine.catlady.actions import Action, Line
from engine.catlady.game import State
from engine.words import MoveWords

__all__ = ["describe_move", "describe_seen"]

# The rule each move follows, in the rulebook's sense (the actions' own docstrings say the
# same for programmers).
RULES: dict[str, str] = {
    actions.PlaceToken.type: "Setup: the cat token blocks one row or column; nobody may draft the "
    "line it blocks.",
    actions.Take.type: "Draft the three cards of a row or column the cat token does not block, then "
    "move the cat token onto that line; the grid is refilled from the deck.",
    actions.Spray.type: "Play a spray bottle from your hand to move the cat token to another line "
    "before you draft.",
    actions.CatTake.type: "Solitaire: the cat player takes the line its turn card names (you choose "
    "when lines tie); its turn ends.",
    actions.LostCatsForStray.type: "Discard two lost cats from your hand to adopt one of the face-up "
    "stray cats.",
    actions.LostCatsForVP.type: "Discard two lost cats from your hand to take a 2-VP token.",
    actions.EndTurn.type: "End your turn (only after drafting).",
    actions.Brush.type: "Play a cat brush: swap one of your cats with a cat in the grid; the cat "
    "token does not block it.",
    actions.Laser.type: "Play a laser pointer instead of drafting: take two cards of the grid and "
    "discard a third; the cat token does not move.",
    actions.ShoppingBag.type: "Play a shopping bag: gain 1 chicken, 1 tuna and 1 milk; every opponent "
    "takes a VP token.",
    actions.SwapGoal.type: "Shared goals: once a turn, swap the goal you share with a neighbour for "
    "a goal from the pool.",
}


def describe_move(state: State, action: Action) -> MoveWords:
    """``action`` (legal in ``state``) in people's words, its rule and what it takes."""
    rule = RULES.get(action.type, "")
    if isinstance(action, actions.Take):
        label = f"Take {action.line}: {_line_cards(state, action.line)}"
    elif isinstance(action, actions.PlaceToken):
        label = (
            f"Place the cat token on {action.line} (it blocks {_line_cards(state, action.line)})"
        )
    elif isinstance(action, actions.Spray):
        label = (
            f"Spray bottle: move the cat token to {action.line} "
            f"(it blocks {_line_cards(state, action.line)})"
        )
    elif isinstance(action, actions.CatTake):
        label = f"The cat player takes {action.line}: {_line_cards(state, action.line)}"
    elif isinstance(action, actions.LostCatsForStray):
        return {
            "label": f"Two lost cats for the stray cat {action.stray}",
            "rule": rule,
            "picks": [f"stray:{action.stray}"],
        }
    elif isinstance(action, actions.LostCatsForVP):
        return {"label": "Two lost cats for a 2-VP token", "rule": rule, "picks": ["hand"]}
    elif isinstance(action, actions.Brush):
        label = f"Cat brush: swap {action.cat} for {_slot_card(state, action.slot)}"
        return {"label": label, "rule": rule, "picks": [f"slot:{action.slot}"]}
    elif isinstance(action, actions.Laser):
        first, second = (_slot_card(state, slot) for slot in action.take)
        label = (
            f"Laser pointer: take {first} and {second}, discard {_slot_card(state, action.discard)}"
        )
        slots = [*action.take, action.discard]
        return {"label": label, "rule": rule, "picks": [f"slot:{slot}" for slot in slots]}
    elif isinstance(action, actions.ShoppingBag):
        return {"label": "Shopping bag: 1 chicken, 1 tuna, 1 milk", "rule": rule, "picks": []}
    elif isinstance(action, actions.SwapGoal):
        who = "the next player" if action.partner == "next" else "the player before"
        label = f"Swap the goal shared with {who} for {action.goal}"
        return {"label": label, "rule": rule, "picks": []}
    elif isinstance(action, actions.EndTurn):
        return {"label": "End the turn", "rule": rule, "picks": []}
    else:
        return {"label": str(action), "rule": rule, "picks": []}
    return {"label": label, "rule": rule, "picks": [f"line:{action.line}"]}


def describe_seen(state: State, action: Action, seat: int) -> MoveWords:
    """``action``, played in ``state``, as ``seat`` observes it: in full for every seat. Every
    Cat Lady move names only cards that lie face up (the grid, the face-up strays, the goal
    pool, a player's own cats and hand, all taken face up); the cards it reveals (the grid's
    refill) are face up to everyone alike, so no seat sees a move differently."""
    return describe_move(state, action)


def _line_cards(state: State, line: Line) -> str:
    names = [_card_at(state, slot) for slot in line.slots]
    return ", ".join(names)


def _slot_card(state: State, slot: int) -> str:
    """The card in grid slot ``slot`` (1-9, row by row), with where it lies."""
    row, col = divmod(slot - 1, 3)
    return f"{_card_at(state, slot - 1)} (row {row + 1}, col {col + 1})"


def _card_at(state: State, index: int) -> str:
    card = state.grid[index]
    return "an empty space" if card is None else state.game.card_name(card)
