"""Cantankerous Cats' decisions in people's words: every card named by its printed number
and name (from the deck's data, never made up), seats counted from 1 as the pages count
them, every move with the rule it follows and the cards it takes.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 3})
>>> state = game.new_initial_state(1)
>>> words = describe_move(state, state.legal_actions()[0])
>>> words["label"], words["picks"]
('Bet #17 Demo Affection 2 (face down)', ['card:17'])
"""

from __future__ import annotations

from engine.actions import Action
from engine.cantankerous import actions
from engine.cantankerous.game import State
from engine.words import MoveWords

__all__ = ["describe_move", "describe_seen"]

# The rule each decision follows (the manual's terms; the actions' docstrings say the same
# for programmers).
RULES: dict[str, str] = {
    actions.Bet.type: "First Bite: every Cat bets a card face down; the bets are revealed together "
    "and the winning rank (high or low, as the Turn Indicator says) takes the First Bite and "
    "the Cat Toy; the bets go to the Litter Box.",
    actions.Keep.type: "Feral Meal Time: keep one of the cards you drew; the others go to the Litter Box.",
    actions.Bank.type: "Bank an Affection card in your House (or Territory when Feral).",
    actions.Score.type: "Score a Mischief card in your House, paying its cost from banked Affection.",
    actions.Play.type: "Play an Incident card: its effect happens (other Cats may Pounce or Counter).",
    actions.Attack.type: "Feral Troublemaker: attack a Domestic Cat with a Mischief card, no token needed.",
    actions.PickyEater.type: "Picky Eater: put your whole hand in the Litter Box and draw as many "
    "cards from the Food Bowl (an empty hand is allowed).",
    actions.BuyToken.type: "Buy a Pounce Token: discard two cards from your hand (three when Feral).",
    actions.Discard.type: "Grooming Time: discard down to the hand limit, one card at a time.",
    actions.Pass.type: "Decline: no Pounce, no Counter, no Instant Action.",
    actions.PounceAttack.type: "Pounce (spends a Pounce Token): attack the Cat Toy holder with a "
    "Mischief card (any Domestic Cat when you are Feral).",
    actions.PouncePlay.type: "Pounce (spends a Pounce Token): play an Incident card.",
    actions.CounterBank.type: "Counter a Mischief attack by banking Affection from your hand (the "
    "first card spends a Pounce Token; more may follow, then Done).",
    actions.CounterPlay.type: "Counter by playing an Incident card.",
    actions.Done.type: "Stop banking Affection for this Counter.",
    actions.Instant.type: "Instant Action: use a card whose icon matches the type just used, at no cost.",
}

_VERBS: dict[str, str] = {
    actions.Keep.type: "Keep",
    actions.Bank.type: "Bank",
    actions.Score.type: "Score",
    actions.Discard.type: "Discard",
    actions.CounterBank.type: "Counter: bank",
    actions.Play.type: "Play",
    actions.PouncePlay.type: "Pounce: play",
    actions.CounterPlay.type: "Counter: play",
    actions.Instant.type: "Instant Action: use",
    actions.Attack.type: "Attack",
    actions.PounceAttack.type: "Pounce: attack",
}


def describe_move(state: State, action: Action) -> MoveWords:
    """``action`` (legal in ``state``) in people's words, its rule and the cards it takes."""
    rule = RULES.get(action.type, "")
    if isinstance(action, actions.Bet):
        return _card_move(state, f"Bet {_card(state, action.card)} (face down)", action.card, rule)
    if isinstance(
        action, actions.Keep | actions.Bank | actions.Score | actions.Discard | actions.CounterBank
    ):
        label = f"{_VERBS[action.type]} {_card(state, action.card)}"
        return _card_move(state, label, action.card, rule)
    if isinstance(
        action, actions.Play | actions.PouncePlay | actions.CounterPlay | actions.Instant
    ):
        on = "" if action.target is None else f" on Seat {action.target + 1}"
        label = f"{_VERBS[action.type]} {_card(state, action.card)}{on}"
        return _card_move(state, label, action.card, rule)
    if isinstance(action, actions.Attack | actions.PounceAttack):
        label = f"{_VERBS[action.type]} Seat {action.target + 1} with {_card(state, action.card)}"
        return _card_move(state, label, action.card, rule)
    if isinstance(action, actions.BuyToken):
        cards = " and ".join(_card(state, card) for card in action.cards)
        return {
            "label": f"Buy a Pounce Token: discard {cards}",
            "rule": rule,
            "picks": [f"card:{card}" for card in action.cards],
        }
    if isinstance(action, actions.PickyEater):
        return {"label": "Picky Eater: swap the whole hand", "rule": rule, "picks": ["hand"]}
    if isinstance(action, actions.Pass):
        return {"label": "Pass", "rule": rule, "picks": []}
    if isinstance(action, actions.Done):
        return {"label": "Done banking", "rule": rule, "picks": []}
    return {"label": str(action), "rule": rule, "picks": []}


# The decisions another Cat sees only as made, never what they were, until the reveal (the
# rules keep them face down): the First Bite bet, the card a Feral keeps from its Meal Time
# draw (the rest go to the Litter Box face up, which the events say), and a Pounce choice.
# The rule is the phase's, not the move's: "Decline" would tell a Pass from a Pounce.
_UNSEEN: dict[str, tuple[str, str]] = {
    "bet": ("Bet a card face down", RULES[actions.Bet.type]),
    "keep": ("Keep one of the cards drawn at Meal Time", RULES[actions.Keep.type]),
    "pounce": (
        "Decide whether to Pounce",
        "Pounce window: every Cat that may Pounce decides in secret; the choices are revealed "
        "together once everyone has decided.",
    ),
}


def describe_seen(state: State, action: Action, seat: int) -> MoveWords:
    """``action``, played in ``state`` by the Cat to move, as ``seat`` observes it: in full
    for the Cat that plays it, and with no trace of the card or choice for the others while
    the rules keep it hidden (no number, name, card text or pick).

    >>> from engine import load_game
    >>> state = load_game("cantankerous-cats", options={"players": 3}).new_initial_state(1)
    >>> bet = state.legal_actions()[0]
    >>> describe_seen(state, bet, 0)["label"], describe_seen(state, bet, 1)["label"]
    ('Bet #17 Demo Affection 2 (face down)', 'Bet a card face down')
    """
    hidden = _UNSEEN.get(state.phase)
    if hidden is None or seat == state.current_player:
        return describe_move(state, action)
    label, rule = hidden
    return {"label": label, "rule": rule, "picks": []}


def _card(state: State, number: int) -> str:
    return state.game.deck.card(number).label


def _card_move(state: State, label: str, number: int, rule: str) -> MoveWords:
    """A one-card move: the card's own text follows the move's rule."""
    text = state.game.deck.card(number).summary()
    own = text.get("text") or text.get("effect_text")
    return {
        "label": label,
        "rule": f"{rule} This card: {own}" if own else rule,
        "picks": [f"card:{number}"],
    }
