"""Cantankerous Cats' decisions in people's words: every card named by its printed number
and name (from the deck's data, never made up), seats counted from 1 as the pages count
them, every move with the rule it follows and the cards it takes.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 3})
>>> state = game.new_initial_state(1)
>>> words = describe_move(state, state.legal_actions()[0])
>>> words["label"], words["picks"]
('Bet #17 Demo Affection 2 (face down)', ['card:17'])

The events a move causes keep the engine's short text in the match log (stored logs are
checked against it, so it never changes); :func:`describe_event` says them for people.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engine.actions import Action
from engine.cantankerous import actions
from engine.cantankerous.game import Game, State
from engine.words import MoveWords

__all__ = [
    "choice_label",
    "describe_event",
    "describe_move",
    "describe_seen",
    "people_text",
]

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
    return _describe(state.game, action)


def _describe(game: Game, action: Action) -> MoveWords:
    rule = RULES.get(action.type, "")
    if isinstance(action, actions.Bet):
        return _card_move(game, f"Bet {_card(game, action.card)} (face down)", action.card, rule)
    if isinstance(
        action, actions.Keep | actions.Bank | actions.Score | actions.Discard | actions.CounterBank
    ):
        label = f"{_VERBS[action.type]} {_card(game, action.card)}"
        return _card_move(game, label, action.card, rule)
    if isinstance(
        action, actions.Play | actions.PouncePlay | actions.CounterPlay | actions.Instant
    ):
        on = "" if action.target is None else f" on Seat {action.target + 1}"
        label = f"{_VERBS[action.type]} {_card(game, action.card)}{on}"
        return _card_move(game, label, action.card, rule)
    if isinstance(action, actions.Attack | actions.PounceAttack):
        label = f"{_VERBS[action.type]} Seat {action.target + 1} with {_card(game, action.card)}"
        return _card_move(game, label, action.card, rule)
    if isinstance(action, actions.BuyToken):
        cards = " and ".join(_card(game, card) for card in action.cards)
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


def describe_event(game: Game, event: Mapping[str, Any]) -> str:
    """One of a state's ``events`` in people's words: seats counted from 1, and a Pounce
    choice the event quotes named as :func:`describe_move` names the move.

    >>> from engine import load_game
    >>> game = load_game("cantankerous-cats", options={"players": 3})
    >>> describe_event(game, {"type": "nap", "seat": 0,
    ...                       "text": "seat 0 naps and passes the Cat Toy to seat 1"})
    'Seat 1 naps and passes the Cat Toy to Seat 2'
    >>> describe_event(game, {"type": "pounces-revealed",
    ...                       "choices": {"1": "pounce attack 0 with 50", "2": "pass"}})
    'Pounces revealed: Seat 2: Pounce: attack Seat 1 with #50 Demo Mischief 2; Seat 3: Pass'
    """
    if event["type"] == "pounces-revealed":
        choices = "; ".join(
            f"Seat {int(seat) + 1}: {choice_label(game, choice)}"
            for seat, choice in event["choices"].items()
        )
        return f"Pounces revealed: {choices}"
    if event["type"] == "pounce-withdrawn":
        return (
            f"Seat {event['seat'] + 1}'s Pounce ({choice_label(game, event['action'])}) is no "
            "longer possible: withdrawn, card and token kept"
        )
    return people_text(event["text"])


def choice_label(game: Game, text: str) -> str:
    """A move of ``game`` given by the engine's short text, labelled as :func:`describe_move`
    labels it, although it need not be legal now: a Pounce choice, before or after the
    reveal.

    >>> from engine import load_game
    >>> game = load_game("cantankerous-cats", options={"players": 3})
    >>> choice_label(game, "pounce attack 0 with 50")
    'Pounce: attack Seat 1 with #50 Demo Mischief 2'
    """
    return str(_describe(game, actions.parse_action(text))["label"])


_SEATS = re.compile(r"\b([Ss])eats? (\d+(?:, \d+)*)")
_ATTACK = re.compile(r"\battack (\d+) with\b")
_ON = re.compile(r" on (\d+)\b")


def people_text(text: str) -> str:
    """An engine text (seats counted from 0, as bots index them) with its seats counted from 1
    as the pages count them.

    >>> people_text("seat 0 banks #6: seats 1, 2 decide")
    'Seat 1 banks #6: Seats 2, 3 decide'
    >>> people_text("pounce attack 0 with 70"), people_text("play 71 on 2")
    ('pounce attack Seat 1 with 70', 'play 71 on Seat 3')
    """

    def seats(found: re.Match[str]) -> str:
        numbers = [str(int(n) + 1) for n in found.group(2).split(", ")]
        return f"{'Seats' if len(numbers) > 1 else 'Seat'} {', '.join(numbers)}"

    text = _SEATS.sub(seats, text)
    text = _ATTACK.sub(lambda m: f"attack Seat {int(m.group(1)) + 1} with", text)
    return _ON.sub(lambda m: f" on Seat {int(m.group(1)) + 1}", text)


def _card(game: Game, number: int) -> str:
    return game.deck.card(number).label


def _card_move(game: Game, label: str, number: int, rule: str) -> MoveWords:
    """A one-card move: the card's own text follows the move's rule."""
    text = game.deck.card(number).summary()
    own = text.get("text") or text.get("effect_text")
    return {
        "label": label,
        "rule": f"{rule} This card: {own}" if own else rule,
        "picks": [f"card:{number}"],
    }
