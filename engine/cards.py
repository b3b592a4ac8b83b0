"""Card data: the typed model of a Cat Lady edition and its loader.

Every card fact lives in a JSON data file (``engine/data/catlady-<edition>.json``), never in
code, so that correcting a card (or a club using its own corrected file) needs no code change.
The loader validates the whole file and refuses anything it does not understand with a
:class:`~engine.errors.CardDataError` naming the offending field.

>>> edition = load_edition("base")
>>> len(edition.deck), len(edition.strays)
(102, 13)
>>> edition.cat("Bronte").needs
(('tuna', 2),)
>>> len(edition.deck_for_players(2))
74
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.errors import CardDataError, EngineError

__all__ = [
    "ABILITY_PARAMS",
    "CONFIDENCE_MARKS",
    "FOOD_TOKENS",
    "CardKind",
    "CardSpec",
    "CatSpec",
    "Colour",
    "Edition",
    "Food",
    "PlayerCountSetup",
    "ScoringConstants",
    "load_edition",
    "normalise_name",
]

DATA_DIR = Path(__file__).resolve().parent / "data"
DATA_FORMAT = 1


class Colour(StrEnum):
    BLACK = "black"
    ORANGE = "orange"
    WHITE = "white"
    GRAY = "gray"  # Box of Treats; no base card is gray


class Food(StrEnum):
    CHICKEN = "chicken"
    TUNA = "tuna"
    MILK = "milk"


# Food tokens a player can hold. Box of Treats will add "treat".
FOOD_TOKENS: tuple[str, ...] = ("chicken", "tuna", "milk", "wild")


class CardKind(StrEnum):
    CAT = "cat"
    FOOD = "food"
    TOY = "toy"
    COSTUME = "costume"
    CATNIP = "catnip"
    LOST_CAT = "lost_cat"
    SPRAY_BOTTLE = "spray_bottle"
    # Reserved for Box of Treats, absent from the base data: BOX, CAT_BRUSH, LASER_POINTER,
    # SHOPPING_BAG. Adding them is a data change plus the rules that give them meaning.


CONFIDENCE_MARKS = frozenset({"C2", "S1", "INF", "UNK"})

# The closed set of cat abilities the scorer implements, with each one's parameters and their
# types. A data file naming anything else is refused: guessing what an unknown ability does
# would silently score games wrongly. Adding an ability = one entry here + one scoring function.
_INT = (int,)
_OPT_INT = (int, type(None))
ABILITY_PARAMS: Mapping[str, Mapping[str, tuple[type, ...]]] = MappingProxyType(
    {
        # worth vp_each for each fed cat of `colour` (the cat itself included)
        "per_colour_fed": {"colour": (str,), "vp_each": _INT},
        # worth vp_each for each disjoint group of fed cats covering black, orange and white
        "colour_sets": {"vp_each": _INT},
        "per_costume": {"vp_each": _INT},
        "per_toy": {"vp_each": _INT},
        # when fed, counts as `catnip` extra catnip cards
        "counts_as_catnip": {"catnip": _INT},
        # eats between min and max food (max None: no limit), of one type if one_type;
        # worth vp_each per food eaten
        "vp_per_food_fed": {"vp_each": _INT, "min": _INT, "max": _OPT_INT, "one_type": (bool,)},
        # worth vp_most when its owner has strictly the most fed cats, else vp_otherwise
        "most_fed_cats": {"vp_most": _INT, "vp_otherwise": _INT},
        # the cat has every colour of the edition
        "all_colours": {},
        # when fed, up to `count` of the owner's food tokens may be used as wilds
        "food_as_wild": {"count": _INT},
        # eats `amount` food of one type chosen from `foods`; worth vp_each for each OTHER fed
        # cat that eats that type (needs it, or was fed it)
        "per_other_fed_cat_eating_food": {"vp_each": _INT, "amount": _INT, "foods": (list,)},
    }
)
# Abilities whose cat eats no fixed food: its needs come from the parameters instead.
_ABILITY_DRIVEN_NEEDS = frozenset({"vp_per_food_fed", "per_other_fed_cat_eating_food"})


def normalise_name(name: str) -> str:
    """The lookup form of a card or toy name: case, spaces, hyphens and underscores ignored.

    >>> normalise_name("Sir  Cuddleface") == normalise_name("sir-cuddleface")
    True
    """
    return "".join(ch for ch in name.casefold() if ch.isalnum())


@dataclass(frozen=True, slots=True)
class CatSpec:
    """A main-deck cat or a stray. All its facts come from the data file.

    ``vp`` is ``None`` when the card shows a star and the value comes from the ability.
    ``needs`` are the fixed food needs, sorted by food; cats whose food depends on a choice
    (Waffle, Cow, Truffle) have empty needs and describe their eating in ``params``.
    """

    name: str
    colours: frozenset[Colour]
    vp: int | None
    needs: tuple[tuple[str, int], ...]
    ability: str | None
    params: Mapping[str, object]
    stray: bool
    provisional: bool
    key: str = ""
    source: str = ""
    confidence: str = ""
    facts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    note: str = ""
    aliases: tuple[str, ...] = ()

    def __hash__(self) -> int:  # params/facts are mappings; name and key identify a cat
        return hash((self.key, self.name))


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One kind of main-deck card. ``Edition.deck`` holds one of these per physical card."""

    key: str
    kind: CardKind
    name: str
    cat: CatSpec | None
    food: Mapping[str, int]
    toy: str | None
    marker: str | None
    provisional: bool
    source: str
    confidence: str
    facts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def __hash__(self) -> int:  # food/facts are mappings; equal cards share key and marker
        return hash((self.key, self.marker))


@dataclass(frozen=True, slots=True)
class PlayerCountSetup:
    """How the deck is prepared for one player count."""

    players: int
    remove_markers: frozenset[str]
    random_removals: int
    strays_dealt: int
    deck_size: int  # after removing marked cards, before the random removals


@dataclass(frozen=True, slots=True)
class ScoringConstants:
    """The numbers printed on cards and the score pad, read from the data file."""

    unfed_cat_vp: int
    toy_set_vp: tuple[int, ...]  # index = number of different toys in the set
    costume_most_vp: int
    costume_none_vp: int
    catnip: tuple[tuple[int, int | None, int, int], ...]  # (min, max, flat_vp, per_fed_cat_vp)
    vp_token_vp: int
    lost_cats_per_trade: int
    most_leftover_food_vp: int

    def catnip_vp(self, catnip: int, fed_cats: int) -> int:
        """VP for holding ``catnip`` catnip with ``fed_cats`` fed cats.

        >>> load_edition().scoring.catnip_vp(4, 3)
        6
        """
        for low, high, flat, per_fed in self.catnip:
            if catnip >= low and (high is None or catnip <= high):
                return flat + per_fed * fed_cats
        return 0


@dataclass(frozen=True, eq=False, kw_only=True)
class Edition:
    """A complete, validated set of card data: the deck, the strays and the scoring numbers."""

    name: str
    version: str
    status: str
    label: str
    deck: tuple[CardSpec, ...]
    strays: tuple[CatSpec, ...]
    toy_types: tuple[str, ...]
    toy_names: Mapping[str, str]  # toy type -> display name
    colours: tuple[Colour, ...]
    foods: tuple[str, ...]
    food_tokens: tuple[str, ...]
    markers: tuple[str, ...]
    player_counts: Mapping[int, PlayerCountSetup]
    scoring: ScoringConstants
    components: Mapping[str, Any]
    path: str  # where the data was read from
    _cats_by_name: Mapping[str, CatSpec] = field(repr=False)

    def cat(self, name: str) -> CatSpec:
        """Any cat or stray by name (case, spaces and aliases tolerated).

        Raises :class:`CardDataError` when no cat has that name.

        >>> load_edition().cat("levar").name
        'LeVar Purrton'
        """
        try:
            return self._cats_by_name[normalise_name(name)]
        except KeyError:
            raise CardDataError(f"unknown cat {name!r} in edition {self.name!r}") from None

    def has_cat(self, name: str) -> bool:
        return normalise_name(name) in self._cats_by_name

    @property
    def supported_players(self) -> tuple[int, ...]:
        return tuple(sorted(self.player_counts))

    def deck_for_players(self, n: int) -> tuple[int, ...]:
        """Indices into ``deck`` of the cards used with ``n`` players, before random removals.

        Raises :class:`EngineError` when the edition does not support ``n`` players.

        >>> [len(load_edition().deck_for_players(n)) for n in (2, 3, 4)]
        [74, 89, 102]
        """
        setup = self.player_counts.get(n)
        if setup is None:
            raise EngineError(
                f"edition {self.name!r} supports {self.supported_players} players, not {n!r}"
            )
        return _deck_indices(self, n)

    def copies(self, n_players: int) -> Mapping[str, int]:
        """How many copies of each card key are in the deck for ``n_players`` players."""
        return _copies(self, n_players)


@cache
def _deck_indices(edition: Edition, n: int) -> tuple[int, ...]:
    removed = edition.player_counts[n].remove_markers
    return tuple(i for i, card in enumerate(edition.deck) if card.marker not in removed)


@cache
def _copies(edition: Edition, n: int) -> Mapping[str, int]:
    counts: dict[str, int] = {}
    for i in edition.deck_for_players(n):
        key = edition.deck[i].key
        counts[key] = counts.get(key, 0) + 1
    return MappingProxyType(counts)


def load_edition(name: str = "base", *, path: str | Path | None = None) -> Edition:
    """Load and validate an edition's card data.

    ``name`` selects ``engine/data/catlady-<name>.json``; ``path`` loads a club's own file
    instead. Raises :class:`CardDataError` with the offending field when the data is missing,
    malformed or inconsistent (for example a deck size that does not match the player-count
    setup, an unknown ability or food).

    >>> load_edition().version
    '1'
    """
    if path is None:
        return _load_bundled(name)
    return _load_path(Path(path))


@cache
def _load_bundled(name: str) -> Edition:
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
        raise CardDataError(f"invalid edition name {name!r}")
    file = DATA_DIR / f"catlady-{name}.json"
    if not file.is_file():
        known = sorted(p.stem.removeprefix("catlady-") for p in DATA_DIR.glob("catlady-*.json"))
        raise CardDataError(f"unknown edition {name!r}; known editions: {', '.join(known)}")
    return _load_path(file)


def _load_path(file: Path) -> Edition:
    try:
        raw = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"cannot read card data {file}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{file}: not valid JSON: {exc}") from None
    return _Parser(str(file)).edition(raw)


class _Parser:
    """Turns the raw JSON into an :class:`Edition`, naming the field path in every error."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, message: str) -> CardDataError:
        return CardDataError(f"{self.origin}: {where}: {message}")

    def get(self, obj: Mapping[str, Any], key: str, where: str, types: tuple[type, ...]) -> Any:
        if key not in obj:
            raise self.fail(where, f"missing field {key!r}")
        value = obj[key]
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join("null" if t is type(None) else t.__name__ for t in types)
            raise self.fail(f"{where}.{key}", f"expected {names}, got {json.dumps(value)}")
        return value

    def provenance(self, obj: Mapping[str, Any], where: str) -> tuple[str, str]:
        source = self.get(obj, "source", where, (str,))
        confidence = self.get(obj, "confidence", where, (str,))
        if confidence not in CONFIDENCE_MARKS:
            raise self.fail(
                f"{where}.confidence",
                f"unknown confidence {confidence!r}; use one of {sorted(CONFIDENCE_MARKS)}",
            )
        if not source.strip():
            raise self.fail(f"{where}.source", "empty source")
        return source, confidence

    def facts(self, obj: Mapping[str, Any], where: str) -> Mapping[str, Mapping[str, str]]:
        raw = obj.get("facts", {})
        if not isinstance(raw, dict):
            raise self.fail(f"{where}.facts", "expected an object")
        facts: dict[str, Mapping[str, str]] = {}
        for fact, info in raw.items():
            if not isinstance(info, dict):
                raise self.fail(f"{where}.facts.{fact}", "expected an object")
            source, confidence = self.provenance(info, f"{where}.facts.{fact}")
            entry = {"source": source, "confidence": confidence}
            if "note" in info:
                entry["note"] = str(info["note"])
            facts[fact] = MappingProxyType(entry)
        return MappingProxyType(facts)

    def edition(self, raw: Any) -> Edition:
        if not isinstance(raw, dict):
            raise self.fail("top level", "expected a JSON object")
        fmt = self.get(raw, "format", "top level", (int,))
        if fmt != DATA_FORMAT:
            raise self.fail("format", f"unsupported data format {fmt} (this engine reads {DATA_FORMAT})")
        name = self.get(raw, "edition", "top level", (str,))
        version = self.get(raw, "version", "top level", (str,))
        status = self.get(raw, "status", "top level", (str,))
        if status not in ("complete", "incomplete", "placeholder"):
            raise self.fail("status", f"unknown status {status!r}")
        label = self.get(raw, "label", "top level", (str,))

        colours = tuple(self.colour(c, f"colours[{i}]") for i, c in enumerate(
            self.get(raw, "colours", "top level", (list,))))
        foods = tuple(self.get(raw, "foods", "top level", (list,)))
        for i, food in enumerate(foods):
            if food not in {f.value for f in Food}:
                raise self.fail(f"foods[{i}]", f"unknown food {food!r}")
        food_tokens = tuple(self.get(raw, "food_tokens", "top level", (list,)))
        for i, token in enumerate(food_tokens):
            if token not in FOOD_TOKENS:
                raise self.fail(f"food_tokens[{i}]", f"unknown food token {token!r}")
        toy_pairs = self.get(raw, "toy_types", "top level", (list,))
        toy_names: dict[str, str] = {}
        for i, pair in enumerate(toy_pairs):
            if (not isinstance(pair, list) or len(pair) != 2
                    or not all(isinstance(p, str) and p for p in pair)):
                raise self.fail(f"toy_types[{i}]", "expected [type, display name]")
            if pair[0] in toy_names:
                raise self.fail(f"toy_types[{i}]", f"duplicate toy type {pair[0]!r}")
            toy_names[pair[0]] = pair[1]
        markers = tuple(self.get(raw, "markers", "top level", (list,)))

        ctx = _CardContext(colours=colours, foods=foods, food_tokens=food_tokens,
                           toys=frozenset(toy_names), markers=frozenset(markers))
        deck: list[CardSpec] = []
        for i, item in enumerate(self.get(raw, "cats", "top level", (list,))):
            where = f"cats[{i}]"
            spec = self.cat(item, where, ctx, stray=False)
            deck.extend(self.expand(item, where, ctx, CardKind.CAT, spec.name, cat=spec))
        for i, item in enumerate(self.get(raw, "cards", "top level", (list,))):
            deck.extend(self.non_cat(item, f"cards[{i}]", ctx))
        strays = tuple(self.cat(item, f"strays[{i}]", ctx, stray=True)
                       for i, item in enumerate(self.get(raw, "strays", "top level", (list,))))

        by_name: dict[str, CatSpec] = {}
        seen_keys: dict[str, str] = {}
        for spec in [c.cat for c in deck if c.cat is not None] + list(strays):
            for alias in (spec.name, *spec.aliases):
                norm = normalise_name(alias)
                if norm in by_name and by_name[norm] is not spec:
                    raise self.fail("cats", f"two cats share the name {alias!r}")
                by_name[norm] = spec
        for card in deck:
            if card.key in seen_keys and seen_keys[card.key] != card.name:
                raise self.fail("cards", f"key {card.key!r} used by two different cards")
            seen_keys[card.key] = card.name
        for stray in strays:
            if stray.key in seen_keys:
                raise self.fail("strays", f"key {stray.key!r} already used")
            seen_keys[stray.key] = stray.name

        player_counts = self.player_counts(raw, deck, frozenset(markers))
        return Edition(
            name=name, version=version, status=status, label=label, deck=tuple(deck),
            strays=strays, toy_types=tuple(toy_names), toy_names=MappingProxyType(toy_names),
            colours=colours, foods=foods, food_tokens=food_tokens, markers=markers,
            player_counts=MappingProxyType(player_counts),
            scoring=self.scoring(self.get(raw, "scoring", "top level", (dict,))),
            components=MappingProxyType(self.components(raw, strays)),
            path=self.origin, _cats_by_name=MappingProxyType(by_name),
        )

    def colour(self, value: Any, where: str) -> Colour:
        try:
            return Colour(value)
        except ValueError:
            raise self.fail(where, f"unknown colour {value!r}") from None

    def cat(self, item: Any, where: str, ctx: _CardContext, *, stray: bool) -> CatSpec:
        if not isinstance(item, dict):
            raise self.fail(where, "expected an object")
        name = self.get(item, "name", where, (str,))
        where = f"{where} ({name})"
        key = self.get(item, "key", where, (str,))
        kind = item.get("kind", "cat")
        if kind != "cat":
            raise self.fail(f"{where}.kind", f"expected 'cat', got {kind!r}")
        raw_colours = self.get(item, "colours", where, (list,))
        if not raw_colours:
            raise self.fail(f"{where}.colours", "a cat needs at least one colour")
        colours = frozenset(self.colour(c, f"{where}.colours") for c in raw_colours)
        for colour in colours:
            if colour not in ctx.colours:
                raise self.fail(f"{where}.colours", f"colour {colour.value!r} is not in this edition")
        vp = self.get(item, "vp", where, (int, type(None)))
        needs_raw = self.get(item, "needs", where, (dict,))
        needs: list[tuple[str, int]] = []
        for food, amount in needs_raw.items():
            if food not in ctx.foods:
                raise self.fail(f"{where}.needs", f"unknown food {food!r}; foods are {list(ctx.foods)}")
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise self.fail(f"{where}.needs.{food}", f"expected a count >= 0, got {amount!r}")
            if amount:
                needs.append((food, amount))
        ability = self.get(item, "ability", where, (str, type(None)))
        params = self.get(item, "params", where, (dict,)) if "params" in item else {}
        if ability is None:
            if params:
                raise self.fail(f"{where}.params", "parameters given but the cat has no ability")
            if vp is None:
                raise self.fail(f"{where}.vp", "a cat without an ability needs a VP number")
            if not needs:
                raise self.fail(f"{where}.needs", "a cat without an ability needs some food")
        else:
            self.ability(ability, params, where, ctx)
            if ability in _ABILITY_DRIVEN_NEEDS and needs:
                raise self.fail(f"{where}.needs", f"ability {ability!r} sets the food; needs must be empty")
            if ability not in _ABILITY_DRIVEN_NEEDS and not needs:
                raise self.fail(f"{where}.needs", "the cat needs some food")
        if ability == "all_colours":
            colours = frozenset(ctx.colours)
        provisional = self.get(item, "provisional", where, (bool,))
        source, confidence = self.provenance(item, where)
        facts = self.facts(item, where)
        aliases = item.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise self.fail(f"{where}.aliases", "expected a list of names")
        if stray and "copies" in item:
            raise self.fail(f"{where}.copies", "strays are single cards outside the main deck")
        return CatSpec(
            name=name, colours=colours, vp=vp, needs=tuple(sorted(needs)), ability=ability,
            params=MappingProxyType(dict(params)), stray=stray, provisional=provisional,
            key=key, source=source, confidence=confidence, facts=facts,
            note=str(item.get("note", "")), aliases=tuple(aliases),
        )

    def ability(self, ability: str, params: Mapping[str, Any], where: str, ctx: _CardContext) -> None:
        schema = ABILITY_PARAMS.get(ability)
        if schema is None:
            raise self.fail(
                f"{where}.ability",
                f"unknown ability {ability!r}; the scorer knows {sorted(ABILITY_PARAMS)}",
            )
        for param in params:
            if param not in schema:
                raise self.fail(f"{where}.params.{param}", f"not a parameter of {ability!r}")
        for param, types in schema.items():
            self.get(params, param, f"{where}.params", types)
            value = params[param]
            if isinstance(value, int) and not isinstance(value, bool) and value < 0:
                raise self.fail(f"{where}.params.{param}", "must not be negative")
        if ability == "per_colour_fed":
            self.colour(params["colour"], f"{where}.params.colour")
        if ability == "vp_per_food_fed":
            low, high = params["min"], params["max"]
            if low < 1 or (high is not None and high < low):
                raise self.fail(f"{where}.params", f"bad food range min={low} max={high}")
        if ability == "per_other_fed_cat_eating_food":
            if params["amount"] < 1:
                raise self.fail(f"{where}.params.amount", "must be at least 1")
            for food in params["foods"]:
                if food not in ctx.foods:
                    raise self.fail(f"{where}.params.foods", f"unknown food {food!r}")

    def expand(self, item: Mapping[str, Any], where: str, ctx: _CardContext, kind: CardKind,
               name: str, *, cat: CatSpec | None = None, food: Mapping[str, int] | None = None,
               toy: str | None = None) -> Iterable[CardSpec]:
        copies = self.get(item, "copies", where, (dict,))
        if not copies:
            raise self.fail(f"{where}.copies", "no copies")
        source, confidence = self.provenance(item, where)
        key = self.get(item, "key", where, (str,))
        provisional = self.get(item, "provisional", where, (bool,))
        facts = cat.facts if cat is not None else self.facts(item, where)
        cards = []
        for marker, count in copies.items():
            if marker != "none" and marker not in ctx.markers:
                raise self.fail(f"{where}.copies", f"unknown marker {marker!r}; markers are {sorted(ctx.markers)}")
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise self.fail(f"{where}.copies.{marker}", f"expected a count >= 0, got {count!r}")
            spec = CardSpec(
                key=key, kind=kind, name=name, cat=cat, food=MappingProxyType(dict(food or {})),
                toy=toy, marker=None if marker == "none" else marker, provisional=provisional,
                source=source, confidence=confidence, facts=facts,
            )
            cards.extend([spec] * count)
        return cards

    def non_cat(self, item: Any, where: str, ctx: _CardContext) -> Iterable[CardSpec]:
        if not isinstance(item, dict):
            raise self.fail(where, "expected an object")
        name = self.get(item, "name", where, (str,))
        where = f"{where} ({name})"
        raw_kind = self.get(item, "kind", where, (str,))
        try:
            kind = CardKind(raw_kind)
        except ValueError:
            raise self.fail(f"{where}.kind", f"unknown card kind {raw_kind!r}") from None
        if kind is CardKind.CAT:
            raise self.fail(f"{where}.kind", "cats belong in the 'cats' list")
        food: dict[str, int] = {}
        toy = None
        if kind is CardKind.FOOD:
            for token, amount in self.get(item, "food", where, (dict,)).items():
                if token not in ctx.food_tokens:
                    raise self.fail(f"{where}.food", f"unknown food token {token!r}")
                if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                    raise self.fail(f"{where}.food.{token}", f"expected a count >= 1, got {amount!r}")
                food[token] = amount
            if not food:
                raise self.fail(f"{where}.food", "a food card gives some food")
        if kind is CardKind.TOY:
            toy = self.get(item, "toy", where, (str,))
            if toy not in ctx.toys:
                raise self.fail(f"{where}.toy", f"unknown toy type {toy!r}")
        return self.expand(item, where, ctx, kind, name, food=food, toy=toy)

    def player_counts(self, raw: Mapping[str, Any], deck: list[CardSpec],
                      markers: frozenset[str]) -> dict[int, PlayerCountSetup]:
        result: dict[int, PlayerCountSetup] = {}
        for key, setup in self.get(raw, "player_counts", "top level", (dict,)).items():
            where = f"player_counts.{key}"
            if not key.isdigit() or int(key) < 1:
                raise self.fail(where, "player counts are positive integers")
            if not isinstance(setup, dict):
                raise self.fail(where, "expected an object")
            remove = self.get(setup, "remove_markers", where, (list,))
            for marker in remove:
                if marker not in markers:
                    raise self.fail(f"{where}.remove_markers", f"unknown marker {marker!r}")
            entry = PlayerCountSetup(
                players=int(key), remove_markers=frozenset(remove),
                random_removals=self.get(setup, "random_removals", where, (int,)),
                strays_dealt=self.get(setup, "strays_dealt", where, (int,)),
                deck_size=self.get(setup, "deck_size", where, (int,)),
            )
            actual = sum(1 for card in deck if card.marker not in entry.remove_markers)
            if actual != entry.deck_size:
                raise self.fail(
                    f"{where}.deck_size",
                    f"the cards add up to {actual} for {key} players, but deck_size says "
                    f"{entry.deck_size}",
                )
            if entry.random_removals < 0 or entry.random_removals > actual:
                raise self.fail(f"{where}.random_removals", "out of range")
            result[int(key)] = entry
        if not result:
            raise self.fail("player_counts", "no player count supported")
        return result

    def scoring(self, raw: Mapping[str, Any]) -> ScoringConstants:
        where = "scoring"
        toy_vp = self.get(raw, "toy_set_vp", where, (list,))
        if not toy_vp or toy_vp[0] != 0 or not all(isinstance(v, int) for v in toy_vp):
            raise self.fail(f"{where}.toy_set_vp", "expected [0, VP for 1 toy, VP for 2, ...]")
        catnip = []
        for i, row in enumerate(self.get(raw, "catnip", where, (list,))):
            w = f"{where}.catnip[{i}]"
            if not isinstance(row, dict):
                raise self.fail(w, "expected an object")
            catnip.append((self.get(row, "min", w, (int,)), self.get(row, "max", w, (int, type(None))),
                           self.get(row, "flat_vp", w, (int,)), self.get(row, "per_fed_cat_vp", w, (int,))))
        self.provenance(raw, where)
        return ScoringConstants(
            unfed_cat_vp=self.get(raw, "unfed_cat_vp", where, (int,)),
            toy_set_vp=tuple(toy_vp),
            costume_most_vp=self.get(raw, "costume_most_vp", where, (int,)),
            costume_none_vp=self.get(raw, "costume_none_vp", where, (int,)),
            catnip=tuple(catnip),
            vp_token_vp=self.get(raw, "vp_token_vp", where, (int,)),
            lost_cats_per_trade=self.get(raw, "lost_cats_per_trade", where, (int,)),
            most_leftover_food_vp=self.get(raw, "most_leftover_food_vp", where, (int,)),
        )

    def components(self, raw: Mapping[str, Any], strays: tuple[CatSpec, ...]) -> dict[str, Any]:
        where = "components"
        comp = self.get(raw, "components", "top level", (dict,))
        n_strays = self.get(comp, "strays", where, (int,))
        if n_strays != len(strays):
            raise self.fail(f"{where}.strays", f"says {n_strays} strays but {len(strays)} are listed")
        vp_tokens = self.get(comp, "vp_tokens", where, (int,))
        food = self.get(comp, "food_tokens", where, (dict,))
        for token, amount in food.items():
            if token not in FOOD_TOKENS or not isinstance(amount, int) or amount < 0:
                raise self.fail(f"{where}.food_tokens.{token}", "bad food token count")
        self.provenance(comp, where)
        return {"strays": n_strays, "vp_tokens": vp_tokens, "food_tokens": MappingProxyType(dict(food))}


@dataclass(frozen=True, slots=True)
class _CardContext:
    colours: tuple[Colour, ...]
    foods: tuple[str, ...]
    food_tokens: tuple[str, ...]
    toys: frozenset[str]
    markers: frozenset[str]
