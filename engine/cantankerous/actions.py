"""The decisions of Cantankerous Cats as plain values, with a short text form and JSON.

Cards are named by their printed number. Seats are numbered from 0.

| action | text | JSON |
|---|---|---|
| ``Bet(12)`` | ``bet 12`` | ``{"type": "bet", "card": 12}`` |
| ``Keep(40)`` | ``keep 40`` | ``{"type": "keep", "card": 40}`` |
| ``Bank(3)`` | ``bank 3`` | ``{"type": "bank", "card": 3}`` |
| ``Score(50)`` | ``score 50`` | ``{"type": "score", "card": 50}`` |
| ``Play(71, 2)`` | ``play 71 on 2`` | ``{"type": "play", "card": 71, "target": 2}`` |
| ``Attack(50, 1)`` | ``attack 1 with 50`` | ``{"type": "attack", "card": 50, "target": 1}`` |
| ``PickyEater()`` | ``picky-eater`` | ``{"type": "picky-eater"}`` |
| ``BuyToken((3, 9))`` | ``buy-token 3 9`` | ``{"type": "buy-token", "cards": [3, 9]}`` |
| ``Discard(7)`` | ``discard 7`` | ``{"type": "discard", "card": 7}`` |
| ``Pass()`` | ``pass`` | ``{"type": "pass"}`` |
| ``PounceAttack(50, 1)`` | ``pounce attack 1 with 50`` | ``{"type": "pounce-attack", "card": 50, "target": 1}`` |
| ``PouncePlay(77, None)`` | ``pounce play 77`` | ``{"type": "pounce-play", "card": 77, "target": null}`` |
| ``CounterBank(5)`` | ``counter bank 5`` | ``{"type": "counter-bank", "card": 5}`` |
| ``CounterPlay(77, None)`` | ``counter play 77`` | ``{"type": "counter-play", "card": 77, "target": null}`` |
| ``Done()`` | ``done`` | ``{"type": "done"}`` |
| ``Instant(20, None)`` | ``instant 20`` | ``{"type": "instant", "card": 20, "target": null}`` |

>>> str(Attack(50, 1)), parse_action("pounce play 77 on 3")
('attack 1 with 50', PouncePlay(card=77, target=3))
>>> action_from_json({"type": "buy-token", "cards": [9, 3]})
BuyToken(cards=(3, 9))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.actions import Action
from engine.errors import EngineError

__all__ = [
    "Attack",
    "Bank",
    "Bet",
    "BuyToken",
    "CounterBank",
    "CounterPlay",
    "Discard",
    "Done",
    "Instant",
    "Keep",
    "Pass",
    "PickyEater",
    "Play",
    "PounceAttack",
    "PouncePlay",
    "Score",
    "action_from_json",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class _CardAction(Action):
    card: int

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "card": self.card}

    def __str__(self) -> str:
        return f"{self.type.replace('-', ' ')} {self.card}"


@dataclass(frozen=True, slots=True)
class _TargetedPlay(Action):
    card: int
    target: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "card": self.card, "target": self.target}

    def __str__(self) -> str:
        on = "" if self.target is None else f" on {self.target}"
        return f"{self.type.replace('-', ' ')} {self.card}{on}"


@dataclass(frozen=True, slots=True)
class _AttackAction(Action):
    card: int
    target: int

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "card": self.card, "target": self.target}

    def __str__(self) -> str:
        return f"{self.type.replace('-', ' ')} {self.target} with {self.card}"


@dataclass(frozen=True, slots=True)
class Bet(_CardAction):
    """First Bite: bet a card face down (revealed when everyone has bet)."""

    type: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class Keep(_CardAction):
    """Feral Meal Time: the one drawn card kept; the others go to the Litter Box."""

    type: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class Bank(_CardAction):
    """Action: bank an Affection card in your House (or Territory)."""

    type: ClassVar[str] = "bank"


@dataclass(frozen=True, slots=True)
class Score(_CardAction):
    """Action: score a Mischief card in your House, paying its cost from banked Affection."""

    type: ClassVar[str] = "score"


@dataclass(frozen=True, slots=True)
class Play(_TargetedPlay):
    """Action: play an Incident card (a Dog card too when the option allows)."""

    type: ClassVar[str] = "play"


@dataclass(frozen=True, slots=True)
class Attack(_AttackAction):
    """Feral action (Troublemaker): attack a Domestic Cat with a Mischief card, no token."""

    type: ClassVar[str] = "attack"


@dataclass(frozen=True, slots=True)
class PickyEater(Action):
    """Action: put your hand in the Litter Box and draw as many (zero is allowed)."""

    type: ClassVar[str] = "picky-eater"


@dataclass(frozen=True, slots=True)
class BuyToken(Action):
    """Action (Standard game): discard two cards (three when Feral) for a Pounce Token."""

    type: ClassVar[str] = "buy-token"
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "cards": list(self.cards)}

    def __str__(self) -> str:
        return "buy-token " + " ".join(str(c) for c in self.cards)


@dataclass(frozen=True, slots=True)
class Discard(_CardAction):
    """Grooming Time: discard one card (repeated down to the hand limit)."""

    type: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline: no Pounce, no Counter, no Instant Action."""

    type: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class PounceAttack(_AttackAction):
    """Pounce: attack with a Mischief card (the Cat Toy holder; any Domestic Cat if Feral)."""

    type: ClassVar[str] = "pounce-attack"


@dataclass(frozen=True, slots=True)
class PouncePlay(_TargetedPlay):
    """Pounce: play an Incident card."""

    type: ClassVar[str] = "pounce-play"


@dataclass(frozen=True, slots=True)
class CounterBank(_CardAction):
    """Counter a Mischief attack by banking Affection from hand (first card spends the token;
    more cards may follow, then ``done``)."""

    type: ClassVar[str] = "counter-bank"


@dataclass(frozen=True, slots=True)
class CounterPlay(_TargetedPlay):
    """Counter by playing an Incident card."""

    type: ClassVar[str] = "counter-play"


@dataclass(frozen=True, slots=True)
class Done(Action):
    """Stop banking Affection for a Counter."""

    type: ClassVar[str] = "done"


@dataclass(frozen=True, slots=True)
class Instant(_TargetedPlay):
    """Instant Action: use a card whose icon matches the type just used, at no cost."""

    type: ClassVar[str] = "instant"


_CARD = {cls.type: cls for cls in (Bet, Keep, Bank, Score, Discard, CounterBank)}
_TARGETED = {cls.type: cls for cls in (Play, PouncePlay, CounterPlay, Instant)}
_ATTACKS = {cls.type: cls for cls in (Attack, PounceAttack)}
_BARE = {cls.type: cls for cls in (PickyEater, Pass, Done)}


def _int(text: str, what: str, source: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise EngineError(f"{what} in {source!r} must be a number, not {text!r}") from None


_EXAMPLES = (
    "'bet 12', 'bank 3', 'score 50', 'play 71 on 2', 'attack 1 with 50', "
    "'picky-eater', 'buy-token 3 9', 'discard 7', 'pass', 'pounce attack 1 with 50', "
    "'pounce play 77', 'counter bank 5', 'counter play 77', 'done', 'instant 20'"
)


def parse_action(text: str) -> Action:
    """Read the short text form (any case and spacing).

    >>> parse_action("  Counter   BANK 5 ")
    CounterBank(card=5)

    Raises :class:`EngineError` for text that is not an action of this game.
    """
    if not isinstance(text, str):
        raise EngineError(f"an action's text form must be a string, not {type(text).__name__}")
    words = text.lower().split()
    if not words:
        raise EngineError("empty action")
    if words[0] in ("pounce", "counter") and len(words) > 1:
        words = [f"{words[0]}-{words[1]}", *words[2:]]
    head, rest = words[0], words[1:]
    if head in _BARE and not rest:
        return _BARE[head]()
    if head in _CARD and len(rest) == 1:
        return _CARD[head](_int(rest[0], "the card", text))
    if head in _TARGETED and (len(rest) == 1 or (len(rest) == 3 and rest[1] == "on")):
        target = _int(rest[2], "the target seat", text) if len(rest) == 3 else None
        return _TARGETED[head](_int(rest[0], "the card", text), target)
    if head in _ATTACKS and len(rest) == 3 and rest[1] == "with":
        return _ATTACKS[head](_int(rest[2], "the card", text), _int(rest[0], "the seat", text))
    if head == BuyToken.type and rest:
        return BuyToken(tuple(_int(word, "a card", text) for word in rest))
    raise EngineError(f"not a Cantankerous Cats action: {text!r} (expected e.g. {_EXAMPLES})")


def action_from_json(obj: object) -> Action:
    """Read the JSON form written by ``action.to_json()``.

    Raises :class:`EngineError` for malformed input (unknown type, missing or extra keys).
    """
    if not isinstance(obj, dict):
        raise EngineError(f"an action must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    keys = set(obj)

    def number(key: str, value: Any, *, optional: bool = False) -> Any:
        if optional and value is None:
            return None
        if not isinstance(value, int) or isinstance(value, bool):
            raise EngineError(f"'{key}' must be a whole number in {obj!r}")
        return value

    if kind in _BARE:
        if keys != {"type"}:
            raise EngineError(f"a {kind!r} action takes no other keys: {obj!r}")
        return _BARE[kind]()
    if kind in _CARD:
        if keys != {"type", "card"}:
            raise EngineError(f"a {kind!r} action has exactly a 'card': {obj!r}")
        return _CARD[kind](number("card", obj["card"]))
    if kind in _TARGETED:
        if keys - {"target"} != {"type", "card"}:
            raise EngineError(f"a {kind!r} action has a 'card' and an optional 'target': {obj!r}")
        return _TARGETED[kind](
            number("card", obj["card"]), number("target", obj.get("target"), optional=True)
        )
    if kind in _ATTACKS:
        if keys != {"type", "card", "target"}:
            raise EngineError(f"a {kind!r} action has exactly a 'card' and a 'target': {obj!r}")
        return _ATTACKS[kind](number("card", obj["card"]), number("target", obj["target"]))
    if kind == BuyToken.type:
        cards = obj.get("cards")
        if keys != {"type", "cards"} or not isinstance(cards, list) or not cards:
            raise EngineError(f"a 'buy-token' action has exactly a 'cards' list: {obj!r}")
        return BuyToken(tuple(number("cards", c) for c in cards))
    raise EngineError(f"unknown Cantankerous Cats action type {kind!r} in {obj!r}")
