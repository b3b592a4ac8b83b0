"""Cantankerous Cats card data: loading and checking a deck file.

A deck file (``engine/cantankerous/data/cantankerous-<key>.json``, or a club's own file) lists every
physical card once, with its printed number, name, type, rank, hearts, paws, cost,
instant-action icon, Basic-game removal, text, an effect in the engine's vocabulary
(:mod:`engine.cantankerous.effects`), a source and whether it was checked against a real
card. A fact nobody knows is the string ``"unknown"``; ``null`` means "not on this card"
(an Affection card has no paws, a card without an icon has ``"instant": null``).

Two bundled files:

* ``official``: only the facts we can cite about the published deck (a handful of card
  names and numbers), every card ``verified: false``. It is a reference to be completed
  from a club's own copy; the engine refuses to deal it until it is complete.
* ``demo``: "demo — not the published cards": plain Affection and Mischief cards and a few
  Incidents, so the game can be played and tested now.

>>> deck = load_deck("demo")
>>> deck.label
'Cantankerous Cats deck "demo — not the published cards"'
>>> deck.playable_problems()
[]
>>> official = load_deck("official")
>>> official.complete, len(official.playable_problems()) > 0
(False, True)
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from engine.cantankerous.effects import Effect, parse_effect
from engine.errors import CardDataError

__all__ = [
    "DECK_FORMAT",
    "UNKNOWN",
    "Card",
    "CardType",
    "Deck",
    "bundled_decks",
    "load_deck",
]

DECK_FORMAT = "catleague.cantankerous-deck/1"
UNKNOWN = "unknown"
DATA_DIR = Path(__file__).resolve().parent / "data"
_FILE_PREFIX = "cantankerous-"


class CardType(StrEnum):
    AFFECTION = "affection"
    MISCHIEF = "mischief"
    EVENT = "event"
    FRENZY = "frenzy"
    DOG = "dog"

    @property
    def is_incident(self) -> bool:
        """Event and Frenzy cards are the manual's "Incident" cards."""
        return self in (CardType.EVENT, CardType.FRENZY)


@dataclass(frozen=True, slots=True)
class Card:
    """One physical card. ``None`` in a field listed in ``unknown`` means nobody knows it;
    otherwise ``None`` means the card has no such value."""

    number: int | None
    name: str
    type: CardType | None
    rank: int | None
    hearts: int | None
    paws: int | None
    cost: int | None
    instant: CardType | None
    basic_removed: bool | None
    text: str | None
    effect: Effect | None
    source: str
    verified: bool
    notes: str = ""
    unknown: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        """``#12 Demo Mischief (2 paws, cost 3)`` style, for messages and logs."""
        number = "#?" if self.number is None else f"#{self.number}"
        return f"{number} {self.name}"

    def summary(self) -> dict[str, Any]:
        """The card's facts as JSON (what observations and viewers show)."""
        return {
            "number": self.number,
            "name": self.name,
            "type": None if self.type is None else str(self.type),
            "rank": self.rank,
            "hearts": self.hearts,
            "paws": self.paws,
            "cost": self.cost,
            "instant": None if self.instant is None else str(self.instant),
            "text": self.text,
            "effect": None if self.effect is None else self.effect.to_json(),
            "effect_text": None if self.effect is None else self.effect.describe(),
        }


@dataclass(frozen=True)
class Deck:
    """A deck file, checked. ``cards`` keep the file's order; the engine refers to a card by
    its index in ``cards`` internally and by its printed ``number`` in actions."""

    key: str
    name: str
    version: str
    complete: bool
    demo: bool
    about: str
    sources: Mapping[str, str]
    cards: tuple[Card, ...]
    digest: str

    @property
    def label(self) -> str:
        return f'Cantankerous Cats deck "{self.name}"'

    @property
    def data_version(self) -> str:
        """The file's version and a digest of its content: a match log made with another
        file (even one with the same version string) is refused on replay."""
        return f"{self.version}+{self.digest[:12]}"

    @functools.cached_property
    def index_of_number(self) -> dict[int, int]:
        return {card.number: i for i, card in enumerate(self.cards) if card.number is not None}

    def card(self, number: int) -> Card:
        """The card with this printed number; raises :class:`CardDataError` if none."""
        try:
            return self.cards[self.index_of_number[number]]
        except KeyError:
            raise CardDataError(f"{self.label} has no card #{number}") from None

    def in_play(self, variant: str) -> tuple[int, ...]:
        """Indices of the cards shuffled into the Food Bowl: the Basic game removes the
        cards marked ``basic_removed``."""
        return tuple(
            i
            for i, card in enumerate(self.cards)
            if not (variant == "basic" and card.basic_removed)
        )

    def playable_problems(self) -> list[str]:
        """Why this deck cannot be dealt (empty when it can): unknown facts, missing
        numbers, no Affection or Mischief cards, Incidents without an effect."""
        problems: list[str] = []
        if not self.complete:
            problems.append('the file says "complete": false')
        for card in self.cards:
            if card.unknown:
                problems.append(f"{card.label}: unknown {', '.join(sorted(card.unknown))}")
            elif card.number is None:
                problems.append(f"{card.label}: no number")
            elif (
                card.type is not None
                and card.type not in (CardType.AFFECTION, CardType.MISCHIEF)
                and card.effect is None
            ):
                problems.append(
                    f"{card.label}: {_a(card.type)} card needs an effect the "
                    "engine can run (see docs/cantankerous.md, effect vocabulary)"
                )
        types = Counter(card.type for card in self.cards)
        for needed in (CardType.AFFECTION, CardType.MISCHIEF):
            if not types[needed]:
                problems.append(f"no {needed} cards")
        return problems

    def require_playable(self) -> None:
        """Raise :class:`CardDataError` listing every problem if the deck cannot be dealt."""
        problems = self.playable_problems()
        if problems:
            shown = problems[:12]
            more = f" (and {len(problems) - 12} more)" if len(problems) > 12 else ""
            raise CardDataError(
                f"{self.label} cannot be played yet: "
                + "; ".join(shown)
                + more
                + ". Complete the file from your own copy of the cards, or use the demo deck."
            )


def bundled_decks() -> list[str]:
    """Keys of the deck files shipped in ``engine/cantankerous/data``."""
    return sorted(p.stem[len(_FILE_PREFIX) :] for p in DATA_DIR.glob(f"{_FILE_PREFIX}*.json"))


def load_deck(name: str = "demo", *, path: str | Path | None = None) -> Deck:
    """A bundled deck by key (``"demo"``, ``"official"``), or a club's file by ``path``.

    A name ending in ``.json`` is read as a path. Raises :class:`CardDataError` for a
    missing or malformed file, with the card and field at fault.

    >>> load_deck("demo").demo
    True
    >>> load_deck("no-such-deck")
    Traceback (most recent call last):
    ...
    engine.errors.CardDataError: no bundled Cantankerous Cats deck 'no-such-deck' (bundled: demo, official); give a path to a .json file for your own
    """
    if path is None and name.endswith(".json"):
        path = name
    if path is not None:
        return _load_path(Path(path))
    return _load_bundled(name)


@functools.cache
def _load_bundled(name: str) -> Deck:
    file = DATA_DIR / f"{_FILE_PREFIX}{name}.json"
    if "/" in name or not file.is_file():
        raise CardDataError(
            f"no bundled Cantankerous Cats deck {name!r} (bundled: "
            f"{', '.join(bundled_decks())}); give a path to a .json file for "
            "your own"
        )
    return _load_path(file)


def _load_path(file: Path) -> Deck:
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise CardDataError(f"cannot read deck file {file}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise CardDataError(f"deck file {file} is not UTF-8: {exc.reason}") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardDataError(f"deck file {file} is not JSON: {exc}") from None
    return parse_deck(raw, origin=str(file))


_CARD_KEYS = (
    "number",
    "name",
    "type",
    "rank",
    "hearts",
    "paws",
    "cost",
    "instant",
    "basic_removed",
    "text",
    "effect",
    "source",
    "verified",
)
_OPTIONAL_CARD_KEYS = ("notes",)
_DECK_KEYS = ("format", "key", "name", "version", "complete", "demo", "about", "sources", "cards")


def parse_deck(raw: Any, *, origin: str = "deck") -> Deck:
    """Check a deck file's JSON content and build the :class:`Deck`.

    Raises :class:`CardDataError` for anything malformed: unknown or missing keys, a
    value of the wrong type, duplicate numbers, an Affection card with paws, an effect
    outside the vocabulary.
    """
    if not isinstance(raw, Mapping):
        raise CardDataError(f"{origin}: a deck file is a JSON object")
    if raw.get("format") != DECK_FORMAT:
        raise CardDataError(
            f"{origin}: 'format' must be {DECK_FORMAT!r}, not {raw.get('format')!r}"
        )
    missing = [k for k in _DECK_KEYS if k not in raw]
    extra = sorted(set(raw) - set(_DECK_KEYS))
    if missing:
        raise CardDataError(f"{origin}: missing {', '.join(missing)}")
    if extra:
        raise CardDataError(
            f"{origin}: unknown key(s) {', '.join(extra)} (a deck has {', '.join(_DECK_KEYS)})"
        )
    for key in ("key", "name", "version", "about"):
        if not isinstance(raw[key], str) or not raw[key].strip():
            raise CardDataError(f"{origin}: '{key}' must be a non-empty string")
    for key in ("complete", "demo"):
        if not isinstance(raw[key], bool):
            raise CardDataError(f"{origin}: '{key}' must be true or false")
    if raw["demo"] and "demo" not in raw["name"].lower():
        raise CardDataError(
            f"{origin}: a demo deck's name must say 'demo' so nobody takes it "
            "for the published cards"
        )
    sources = raw["sources"]
    if not isinstance(sources, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in sources.items()
    ):
        raise CardDataError(f"{origin}: 'sources' maps a source id to its description")
    if not isinstance(raw["cards"], list) or not raw["cards"]:
        raise CardDataError(f"{origin}: 'cards' must be a non-empty list")
    cards = tuple(
        _parse_card(item, f"{origin}: card {i}", sources)
        for i, item in enumerate(raw["cards"], start=1)
    )
    numbers = Counter(card.number for card in cards if card.number is not None)
    dupes = sorted(n for n, count in numbers.items() if count > 1)
    if dupes:
        raise CardDataError(
            f"{origin}: card number(s) used more than once: {', '.join(f'#{n}' for n in dupes)}"
        )
    if raw["complete"]:
        unknowns = [card.label for card in cards if card.unknown]
        if unknowns:
            raise CardDataError(
                f"{origin}: the file says complete but these cards have "
                f"unknown facts: {', '.join(unknowns[:10])}"
            )
    digest = hashlib.sha256(
        json.dumps(raw, sort_keys=True, ensure_ascii=False).encode()
    ).hexdigest()
    return Deck(
        key=raw["key"],
        name=raw["name"],
        version=raw["version"],
        complete=raw["complete"],
        demo=raw["demo"],
        about=raw["about"],
        sources=dict(sources),
        cards=cards,
        digest=digest,
    )


def _parse_card(raw: Any, where: str, sources: Mapping[str, str]) -> Card:
    name, where, unknown = _card_keys(raw, where)
    number = _number_field(raw, "number", where, unknown, low=1)
    card_type = _type_field(raw, "type", where, unknown)
    if card_type is None and "type" not in unknown:
        raise CardDataError(f"{where}: 'type' is required (or \"unknown\")")
    rank = _number_field(raw, "rank", where, unknown, low=0)
    hearts = _number_field(raw, "hearts", where, unknown, low=1)
    paws = _number_field(raw, "paws", where, unknown, low=1)
    cost = _number_field(raw, "cost", where, unknown, low=0)
    instant = _type_field(raw, "instant", where, unknown)
    basic_removed = raw["basic_removed"]
    if "basic_removed" in unknown:
        basic_removed = None
    elif not isinstance(basic_removed, bool):
        raise CardDataError(f"{where}: 'basic_removed' must be true, false or \"unknown\"")
    text = raw["text"]
    if "text" in unknown:
        text = None
    elif text is not None and not isinstance(text, str):
        raise CardDataError(f"{where}: 'text' must be a string, null or \"unknown\"")
    effect = None
    if "effect" not in unknown and raw["effect"] is not None:
        label = f"card #{number}" if number is not None else where
        effect = parse_effect(raw["effect"], where=label)
    source = raw["source"]
    if not isinstance(source, str) or source not in sources:
        raise CardDataError(f"{where}: source {source!r} is not listed in 'sources'")
    verified = raw["verified"]
    if not isinstance(verified, bool):
        raise CardDataError(f"{where}: 'verified' must be true or false")
    notes = raw.get("notes", "")
    if not isinstance(notes, str):
        raise CardDataError(f"{where}: 'notes' must be a string")
    if card_type is not None:
        _check_type_values(where, card_type, hearts, paws, cost, unknown, effect)
    return Card(
        number=number,
        name=name,
        type=card_type,
        rank=rank,
        hearts=hearts,
        paws=paws,
        cost=cost,
        instant=instant,
        basic_removed=basic_removed,
        text=text,
        effect=effect,
        source=source,
        verified=verified,
        notes=notes,
        unknown=unknown,
    )


def _card_keys(raw: Any, where: str) -> tuple[str, str, frozenset[str]]:
    """The card's name, where it is (for messages, with its name) and the facts written
    ``"unknown"``, once its keys are checked: every key present, none unknown to the
    loader, a name, and a source that is known."""
    if not isinstance(raw, Mapping):
        raise CardDataError(f"{where}: a card is a JSON object")
    name = raw.get("name")
    if isinstance(name, str) and name.strip():
        where = f"{where} ({name})"
    missing = [k for k in _CARD_KEYS if k not in raw]
    extra = sorted(set(raw) - set(_CARD_KEYS) - set(_OPTIONAL_CARD_KEYS))
    if missing:
        raise CardDataError(
            f'{where}: missing {", ".join(missing)} (write "unknown" for a '
            "fact you do not know, null for one the card does not have)"
        )
    if extra:
        raise CardDataError(f"{where}: unknown key(s) {', '.join(extra)}")
    if not isinstance(name, str) or not name.strip():
        raise CardDataError(f"{where}: 'name' must be a non-empty string")
    unknown = frozenset(k for k in _CARD_KEYS if raw[k] == UNKNOWN and k not in ("name",))
    if "source" in unknown or "verified" in unknown:
        raise CardDataError(
            f"{where}: every card names its source and says whether it was verified"
        )
    return name.strip(), where, unknown


def _number_field(
    raw: Mapping[str, Any], key: str, where: str, unknown: frozenset[str], *, low: int
) -> int | None:
    value = raw[key]
    if key in unknown or value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise CardDataError(
            f"{where}: '{key}' must be a whole number >= {low}, null or \"unknown\", not {value!r}"
        )
    return int(value)


def _type_field(
    raw: Mapping[str, Any], key: str, where: str, unknown: frozenset[str]
) -> CardType | None:
    value = raw[key]
    if key in unknown or value is None:
        return None
    try:
        return CardType(value)
    except ValueError:
        raise CardDataError(
            f"{where}: '{key}' must be one of {', '.join(t.value for t in CardType)}, not {value!r}"
        ) from None


# Which values each card type needs and which it must not have (the other types: none).
_TYPE_VALUES: dict[CardType, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    CardType.AFFECTION: ("an Affection card", ("hearts",), ("paws", "cost")),
    CardType.MISCHIEF: ("a Mischief card", ("paws", "cost"), ("hearts",)),
}


def _check_type_values(
    where: str,
    card_type: CardType,
    hearts: int | None,
    paws: int | None,
    cost: int | None,
    unknown: frozenset[str],
    effect: Effect | None,
) -> None:
    what, needs, forbids = _TYPE_VALUES.get(
        card_type, (f"{_a(card_type)} card", (), ("hearts", "paws", "cost"))
    )
    _require(
        where,
        what,
        hearts=hearts,
        paws=paws,
        cost=cost,
        unknown=unknown,
        needs=needs,
        forbids=forbids,
    )
    if effect is not None and card_type in _TYPE_VALUES:
        raise CardDataError(f"{where}: only Event, Frenzy and Dog cards have an effect")


def _a(kind: CardType) -> str:
    """ "an Event", "a Frenzy": the card type with its article, for messages."""
    name = kind.value.capitalize()
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"


def _require(
    where: str,
    what: str,
    *,
    hearts: int | None,
    paws: int | None,
    cost: int | None,
    unknown: frozenset[str],
    needs: tuple[str, ...],
    forbids: tuple[str, ...],
) -> None:
    values = {"hearts": hearts, "paws": paws, "cost": cost}
    for key in needs:
        if values[key] is None and key not in unknown:
            raise CardDataError(f"{where}: {what} needs '{key}' (or \"unknown\")")
    for key in forbids:
        if values[key] is not None or key in unknown:
            raise CardDataError(f"{where}: {what} has no '{key}' (write null)")
