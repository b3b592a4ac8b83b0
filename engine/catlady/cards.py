"""Card data: the typed model of a Cat Lady edition and its loader.

Every card fact lives in a JSON data file (``engine/catlady/data/catlady-<edition>.json``), never in
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engine.errors import CardDataError, EngineError

__all__ = [
    "ABILITY_PARAMS",
    "ALL_FOOD_TOKENS",
    "CONFIDENCE_MARKS",
    "FOOD_TOKENS",
    "GOAL_STATS",
    "BoxRequirement",
    "CardKind",
    "CardSpec",
    "CatSpec",
    "Colour",
    "Edition",
    "Food",
    "Goal",
    "PlayerCountSetup",
    "ScoringConstants",
    "Solitaire",
    "StartingCard",
    "TurnCard",
    "load_edition",
    "normalise_name",
    "parse_custom_strays",
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


# Food tokens a player can hold in the base game, in the order states keep them.
FOOD_TOKENS: tuple[str, ...] = ("chicken", "tuna", "milk", "wild")
# Every food token any edition may use: Box of Treats adds the treat. An edition lists its own
# (``Edition.food_tokens``), and states count tokens in that order.
ALL_FOOD_TOKENS: tuple[str, ...] = (*FOOD_TOKENS, "treat")
# The value a data file writes for a fact nobody has published (incomplete editions only).
UNKNOWN = "unknown"


class CardKind(StrEnum):
    CAT = "cat"
    FOOD = "food"
    TOY = "toy"
    COSTUME = "costume"
    CATNIP = "catnip"
    LOST_CAT = "lost_cat"
    SPRAY_BOTTLE = "spray_bottle"
    # Box of Treats
    BOX = "box"
    CAT_BRUSH = "cat_brush"
    LASER_POINTER = "laser_pointer"
    SHOPPING_BAG = "shopping_bag"


# C2: two or more sources; S1: one; INF: inferred; UNK: unknown; PH: a placeholder value made
# up to exercise a rule, never a published card fact; CLUB: a club's own custom card.
CONFIDENCE_MARKS = frozenset({"C2", "S1", "INF", "UNK", "PH", "CLUB"})

# What a shared goal can count, for the two partners together. "fed_*" stats depend on
# feeding; the others are cards held.
GOAL_STATS = frozenset(
    {
        "fed_cats",
        "cats",
        "toys",
        "costumes",
        "catnip",
        "boxes",
        "fed_multicoloured_cats",
        "vp_tokens",
    }
)

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
        # --- Premium strays (RB-PREM clarifications) ---
        # Floopy: vp_each per set of chicken + tuna + milk used to feed cats (wilds count as
        # the food they stood for; leftovers do not count)
        "food_sets_used": {"vp_each": _INT},
        # Ginger: must also eat `catnip` catnip (cards, or a fed Macak's); mandatory if able
        "eats_catnip": {"catnip": _INT},
        # King Fluff: his own VP drops by vp_each per toy the owner has
        "penalty_per_toy": {"vp_each": _INT},
        # Scrappy: after the leftover-food penalty, may feed cats with one other player's
        # leftover food
        "borrow_leftover": {},
        # Sherry: every non-stray cat needs `amount` fewer food (mandatory, owner picks which)
        "reduce_needs": {"amount": _INT},
        # Voodoo: vp_each per OTHER fed cat that eats exactly one food
        "per_one_food_cat": {"vp_each": _INT},
        # --- Box of Treats cats (RB-BOT clarifications) ---
        # Elvis: when fed counts as `costumes` costumes
        "counts_as_costume": {"costumes": _INT},
        # Little Nicky: worth what one other fed cat of the owner's choice is worth
        "copy_fed_cat_vp": {},
        # Marshmallow: worth the VP of all the owner's toy sets
        "toy_sets_vp": {},
        # Mr. Zoe: owner discards any of their spray bottles and lost cats for vp_each each;
        # worth that total
        "discard_for_vp": {"vp_each": _INT},
        # Choupette: when fed, the owner takes `count` cards of the final grid
        "take_grid_cards": {"count": _INT},
        # Tomasso: when fed counts as `toys` toy(s) of the owner's choice of type
        "counts_as_toy": {"toys": _INT},
        # Banjo-like: vp_each per fed `food` cat (needs that food, or was fed it)
        "per_food_type_cat": {"food": (str,), "vp_each": _INT},
        # vp_each per fed multicoloured cat (Mina's clarification; her exact wording is unknown)
        "per_multicoloured_fed": {"vp_each": _INT},
        # vp_each per `food` (a food type, or "any") used to feed cats (Mister Fit's
        # clarification; his exact formula is unknown)
        "per_food_used": {"food": (str,), "vp_each": _INT},
    }
)
# Abilities whose cat eats no fixed food: its needs come from the parameters instead.
_ABILITY_DRIVEN_NEEDS = frozenset({"vp_per_food_fed", "per_other_fed_cat_eating_food"})
# Abilities whose cat may eat nothing else (Ginger eats a catnip, perhaps with food).
_NO_FOOD_OK = frozenset({"eats_catnip"})


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
    ``needs`` are the fixed food needs, sorted by food; ``needs_any`` is how many "any food"
    the cat also eats (Box of Treats' "2?" symbol, Scrappy's "1 food of your choice"). Cats
    whose food depends on a choice (Waffle, Cow, Truffle) have empty needs and describe their
    eating in ``params``. ``members`` holds one colour set per cat the card shows: a single
    entry for ordinary cats, three for Aoshima & Friends. ``unknown`` names the facts the
    data could not give (incomplete editions only); such a cat cannot be played or scored.
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
    needs_any: int = 0
    members: tuple[frozenset[Colour], ...] = ()
    can_fill_box: bool = True
    requires_goals: bool = False
    unknown: frozenset[str] = frozenset()
    custom: bool = False

    def __hash__(self) -> int:  # params/facts are mappings; name and key identify a cat
        return hash((self.key, self.name))

    @property
    def cat_count(self) -> int:
        """How many cats the card counts as (3 for Aoshima & Friends)."""
        return len(self.members) or 1

    @property
    def food_count(self) -> int | None:
        """How much food the cat's printed needs ask for; None when the amount is chosen
        (Waffle, Cow, Calf, Truffle). A "1 food cat" has 1, a "2 food cat" 2 (RB-BOT)."""
        if self.ability in _ABILITY_DRIVEN_NEEDS:
            return None
        return sum(n for _, n in self.needs) + self.needs_any

    @property
    def multicoloured(self) -> bool:
        """More than one colour on one cat (RB-BOT). Aoshima & Friends is three one-colour
        cats, so not multicoloured."""
        return all(len(m) > 1 for m in self.members) if self.members else len(self.colours) > 1


@dataclass(frozen=True, slots=True)
class BoxRequirement:
    """What cat fills a box: one with ``colour`` among its colours (if given) that is a
    ``food`` cat (if given: needs that food, or was fed it)."""

    colour: Colour | None
    food: str | None

    def describe(self) -> str:
        parts = [p for p in ((self.colour.value if self.colour else None), self.food) if p]
        return " ".join(parts + ["cat"])


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
    box: BoxRequirement | None = None

    def __hash__(self) -> int:  # food/facts are mappings; equal cards share key and marker
        return hash((self.key, self.marker))


@dataclass(frozen=True, slots=True)
class Goal:
    """A shared goal (Box of Treats): the two partners together reach ``amount`` of
    ``stat`` and each gains ``vp``. ``vp``/``amount`` are None when unknown."""

    key: str
    name: str
    stat: str
    amount: int | None
    vp: int | None
    source: str
    confidence: str


@dataclass(frozen=True, slots=True)
class StartingCard:
    """A solitaire starting card: what it gives the cat player (``effect``: VP tokens,
    extra strays, catnip, costumes, food tokens, wild toys)."""

    key: str
    name: str
    effect: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TurnCard:
    """A solitaire turn card: ``kind`` is what the cat player takes the most of
    (``most_toys``, ``most_catnip``, ``most_6vp_cats``, ``most_food``) or ``cat_token``;
    ``arrow`` the line shown (None for the Cat Token card)."""

    key: str
    name: str
    kind: str
    arrow: str | None


TURN_CARD_KINDS = frozenset({"most_toys", "most_catnip", "most_6vp_cats", "most_food", "cat_token"})
STARTING_EFFECTS = frozenset(
    {"vp_tokens", "extra_strays", "catnip", "costumes", "food", "wild_toys"}
)


@dataclass(frozen=True, slots=True)
class Solitaire:
    """The solitaire variant's cards. ``placeholder`` when the list is not the published one."""

    starting_cards: tuple[StartingCard, ...]
    turn_cards: tuple[TurnCard, ...]
    starting_cards_dealt: int
    placeholder: bool
    source: str
    confidence: str
    note: str


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
    # Box of Treats at 5-6 players: second most costumes; a tie for most splits the sum.
    costume_second_vp: int = 0
    costume_second_min_players: int | None = None
    treat_fed_vp: int = 1
    cat_player_item_vp: int = 1  # solitaire: per cat brush, laser pointer and spray bottle

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
    """A complete, validated set of card data: the deck, the strays and the scoring numbers.

    ``status`` is ``complete``, ``incomplete`` (some published facts are unknown: listed in
    ``unknowns``; such an edition can be read and shown but not played) or ``placeholder``
    (made-up cards that exercise the rules; never the published card list).
    """

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
    goals: tuple[Goal, ...] = ()
    solitaire: Solitaire | None = None
    unknowns: tuple[str, ...] = ()
    custom_strays: tuple[CatSpec, ...] = ()

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

    @property
    def playable(self) -> bool:
        """Whether games can be dealt and scored with this data (no unknown fact)."""
        return not self.unknowns

    @property
    def kinds(self) -> frozenset[CardKind]:
        """The kinds of card in the deck (Box of Treats kinds only with its cards)."""
        return _kinds(self)

    def require_playable(self) -> None:
        """Raise :class:`CardDataError` listing the unknown facts when the edition is
        incomplete (the message says how to complete it).

        >>> load_edition("premium").require_playable()  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engine.errors.CardDataError: the premium edition's card data is incomplete ...
        """
        if self.unknowns:
            shown = "; ".join(self.unknowns[:8])
            more = f" and {len(self.unknowns) - 8} more" if len(self.unknowns) > 8 else ""
            raise CardDataError(
                f"the {self.name} edition's card data is incomplete (unknown: {shown}{more}). "
                f"A club that owns the cards can fill in {Path(self.path).name} "
                "(see docs/engine.md, 'Card data for the expansions')"
            )

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

    def with_custom_strays(self, raw: Any) -> Edition:
        """This edition with a club's custom stray cats added to the stray deck (Premium's
        blank cards). ``raw`` is a list of stray objects in the data-file format; see
        :func:`parse_custom_strays`. Raises :class:`CardDataError` naming the bad field.

        >>> custom = [{"name": "Biscuit", "vp": 4, "colours": ["orange"], "needs": {"milk": 2}}]
        >>> ed = load_edition("base").with_custom_strays(custom)
        >>> len(ed.strays), ed.cat("biscuit").custom
        (14, True)
        """
        strays = parse_custom_strays(raw, self)
        if not strays:
            return self
        by_name = dict(self._cats_by_name)
        for stray in strays:
            by_name[normalise_name(stray.name)] = stray
        components = dict(self.components)
        components["strays"] = len(self.strays) + len(strays)
        return Edition(
            name=self.name,
            version=self.version,
            status=self.status,
            label=self.label,
            deck=self.deck,
            strays=self.strays + strays,
            toy_types=self.toy_types,
            toy_names=self.toy_names,
            colours=self.colours,
            foods=self.foods,
            food_tokens=self.food_tokens,
            markers=self.markers,
            player_counts=self.player_counts,
            scoring=self.scoring,
            components=MappingProxyType(components),
            path=self.path,
            _cats_by_name=MappingProxyType(by_name),
            goals=self.goals,
            solitaire=self.solitaire,
            unknowns=self.unknowns,
            custom_strays=self.custom_strays + strays,
        )


# The blank cat cards in the Premium box (RB-PREM component list): the most custom strays.
MAX_CUSTOM_STRAYS = 18


@cache
def _kinds(edition: Edition) -> frozenset[CardKind]:
    return frozenset(card.kind for card in edition.deck)


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

    ``name`` selects ``engine/catlady/data/catlady-<name>.json``; ``path`` loads a club's own file
    instead. Raises :class:`CardDataError` with the offending field when the data is missing,
    malformed or inconsistent (for example a deck size that does not match the player-count
    setup, an unknown ability or food).

    >>> load_edition().version
    '1'
    >>> load_edition("premium").status, load_edition("box-of-treats-placeholder").status
    ('incomplete', 'placeholder')
    """
    if path is None:
        return _load_bundled(name)
    return _load_path(Path(path))


def bundled_editions() -> list[str]:
    """The names of the editions shipped in ``engine/catlady/data``."""
    return sorted(p.stem.removeprefix("catlady-") for p in DATA_DIR.glob("catlady-*.json"))


@cache
def _load_bundled(name: str) -> Edition:
    if not name or not all(ch.isalnum() or ch in "-_" for ch in name):
        raise CardDataError(f"invalid edition name {name!r}")
    file = DATA_DIR / f"catlady-{name}.json"
    if not file.is_file():
        raise CardDataError(
            f"unknown edition {name!r}; known editions: {', '.join(bundled_editions())}"
        )
    return _load_path(file)


def _read_json(file: Path) -> Any:
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"cannot read card data {file}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{file}: not valid JSON: {exc}") from None


def _load_path(file: Path) -> Edition:
    raw = _read_json(file)
    return _Parser(str(file)).edition(_resolve_extends(raw, str(file), seen=()))


# Sections a file may inherit from the edition it extends, and the lists it adds to.
_INHERITED = (
    "colours",
    "foods",
    "food_tokens",
    "toy_types",
    "markers",
    "player_counts",
    "components",
    "scoring",
    "goals",
    "solitaire",
)
_APPENDED = ("cats", "cards", "strays")


def _resolve_extends(raw: Any, origin: str, seen: tuple[str, ...]) -> Any:
    """A file with ``"extends": "<bundled edition>"`` inherits that edition's sections it does
    not give, and adds its ``cats``, ``cards`` and ``strays`` to the parent's."""
    if not isinstance(raw, dict) or "extends" not in raw:
        return raw
    parent_name = raw["extends"]
    if not isinstance(parent_name, str) or not parent_name:
        raise CardDataError(f"{origin}: extends: expected the name of a bundled edition")
    if parent_name in seen:
        raise CardDataError(f"{origin}: extends: editions extend each other in a circle")
    file = DATA_DIR / f"catlady-{parent_name}.json"
    if not all(ch.isalnum() or ch in "-_" for ch in parent_name) or not file.is_file():
        raise CardDataError(
            f"{origin}: extends: unknown edition {parent_name!r}; known "
            f"editions: {', '.join(bundled_editions())}"
        )
    parent = _resolve_extends(_read_json(file), str(file), (*seen, parent_name))
    merged = {k: v for k, v in raw.items() if k != "extends"}
    for key in _INHERITED:
        if key not in merged and key in parent:
            merged[key] = parent[key]
    for key in _APPENDED:
        merged[key] = list(parent.get(key, [])) + list(raw.get(key, []))
    return merged


def parse_custom_strays(raw: Any, edition: Edition) -> tuple[CatSpec, ...]:
    """A club's custom stray cats (the Premium blank cards), checked against ``edition``.

    Each entry needs ``name``, ``vp`` (a number, or null when the ability sets the value),
    ``colours`` and ``needs``; ``ability`` and ``params`` are optional and the ability must be
    one the engine knows (``ABILITY_PARAMS``). ``key`` defaults to ``custom/<name>``. Raises
    :class:`CardDataError` saying which field of which entry is wrong.
    """
    where = "custom_strays"
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise CardDataError(f"{where}: expected a list of stray cats")
    if len(raw) > MAX_CUSTOM_STRAYS:
        raise CardDataError(
            f"{where}: {len(raw)} custom strays; the Premium box has "
            f"{MAX_CUSTOM_STRAYS} blank cards"
        )
    parser = _Parser("custom strays")
    ctx = _CardContext(
        colours=edition.colours,
        foods=edition.foods,
        food_tokens=edition.food_tokens,
        toys=frozenset(edition.toy_types),
        markers=frozenset(edition.markers),
        allow_unknown=False,
    )
    result: list[CatSpec] = []
    taken = {normalise_name(s.key) for s in edition.strays}
    for i, item in enumerate(raw):
        if not isinstance(item, dict):
            raise CardDataError(f"{where}[{i}]: expected an object")
        unknown = set(item) - {
            "name",
            "key",
            "vp",
            "colours",
            "needs",
            "ability",
            "params",
            "note",
            "aliases",
        }
        if unknown:
            raise CardDataError(f"{where}[{i}]: unknown field(s) {', '.join(sorted(unknown))}")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise CardDataError(f"{where}[{i}].name: a custom stray needs a name")
        entry = {
            "key": f"custom/{normalise_name(name)}",
            "ability": None,
            "params": {},
            "provisional": False,
            "source": "club's custom card",
            "confidence": "CLUB",
            **item,
        }
        spec = parser.cat(entry, f"{where}[{i}]", ctx, stray=True)
        for alias in (spec.name, *spec.aliases):
            if edition.has_cat(alias) or any(
                normalise_name(alias) == normalise_name(s.name) for s in result
            ):
                raise CardDataError(f"{where}[{i}].name: a cat called {alias!r} already exists")
        if normalise_name(spec.key) in taken:
            raise CardDataError(f"{where}[{i}].key: {spec.key!r} already used")
        taken.add(normalise_name(spec.key))
        result.append(_replace_custom(spec))
    return tuple(result)


def _replace_custom(spec: CatSpec) -> CatSpec:
    return replace(spec, custom=True)


class _Parser:
    """Turns the raw JSON into an :class:`Edition`, naming the field path in every error."""

    def __init__(self, origin: str) -> None:
        self.origin = origin
        self.unknowns: list[str] = []

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

    def maybe_unknown(
        self, obj: Mapping[str, Any], key: str, where: str, ctx: _CardContext, label: str
    ) -> bool:
        """True (and the fact recorded) when the field says "unknown" and that is allowed."""
        if obj.get(key) != UNKNOWN:
            return False
        if not ctx.allow_unknown:
            raise self.fail(
                f"{where}.{key}",
                "'unknown' is only allowed in an edition whose status is 'incomplete'",
            )
        self.unknowns.append(f"{label} {key}")
        return True

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
            raise self.fail(
                "format", f"unsupported data format {fmt} (this engine reads {DATA_FORMAT})"
            )
        name = self.get(raw, "edition", "top level", (str,))
        version = self.get(raw, "version", "top level", (str,))
        status = self.get(raw, "status", "top level", (str,))
        if status not in ("complete", "incomplete", "placeholder"):
            raise self.fail("status", f"unknown status {status!r}")
        label = self.get(raw, "label", "top level", (str,))
        if status == "placeholder" and "placeholder" not in label.lower():
            raise self.fail("label", "a placeholder edition must say 'placeholder' in its label")

        colours, foods, food_tokens = self.edition_vocabulary(raw)
        toy_names = self.toy_names(raw)
        markers = tuple(self.get(raw, "markers", "top level", (list,)))

        ctx = _CardContext(
            colours=colours,
            foods=foods,
            food_tokens=food_tokens,
            toys=frozenset(toy_names),
            markers=frozenset(markers),
            allow_unknown=status == "incomplete",
        )
        deck: list[CardSpec] = []
        for i, item in enumerate(self.get(raw, "cats", "top level", (list,))):
            where = f"cats[{i}]"
            spec = self.cat(item, where, ctx, stray=False)
            deck.extend(self.expand(item, where, ctx, CardKind.CAT, spec.name, cat=spec))
        for i, item in enumerate(self.get(raw, "cards", "top level", (list,))):
            deck.extend(self.non_cat(item, f"cards[{i}]", ctx))
        strays = tuple(
            self.cat(item, f"strays[{i}]", ctx, stray=True)
            for i, item in enumerate(self.get(raw, "strays", "top level", (list,)))
        )
        unplaced = self.unknown_places_and_facts(raw, ctx)
        by_name = self.cats_by_name(deck, strays, unplaced)

        player_counts = self.player_counts(raw, deck, frozenset(markers), ctx)
        goals = self.goals(raw.get("goals", []), ctx)
        solitaire = self.solitaire(raw["solitaire"], ctx) if raw.get("solitaire") else None
        if status == "complete" and self.unknowns:
            raise self.fail(
                "status", "a complete edition has unknown facts: " + "; ".join(self.unknowns[:5])
            )
        if status == "incomplete" and not self.unknowns:
            raise self.fail("status", "nothing is unknown: mark the edition 'complete'")
        return Edition(
            name=name,
            version=version,
            status=status,
            label=label,
            deck=tuple(deck),
            strays=strays,
            toy_types=tuple(toy_names),
            toy_names=MappingProxyType(toy_names),
            colours=colours,
            foods=foods,
            food_tokens=food_tokens,
            markers=markers,
            player_counts=MappingProxyType(player_counts),
            scoring=self.scoring(self.get(raw, "scoring", "top level", (dict,))),
            components=MappingProxyType(self.components(raw, strays)),
            path=self.origin,
            _cats_by_name=MappingProxyType(by_name),
            goals=goals,
            solitaire=solitaire,
            unknowns=tuple(self.unknowns),
        )

    def edition_vocabulary(
        self, raw: dict[str, Any]
    ) -> tuple[tuple[Colour, ...], tuple[str, ...], tuple[str, ...]]:
        """The edition's colours, foods and food tokens, each checked against the engine's."""
        colours = tuple(
            self.colour(c, f"colours[{i}]")
            for i, c in enumerate(self.get(raw, "colours", "top level", (list,)))
        )
        foods = tuple(self.get(raw, "foods", "top level", (list,)))
        for i, food in enumerate(foods):
            if food not in {f.value for f in Food}:
                raise self.fail(f"foods[{i}]", f"unknown food {food!r}")
        food_tokens = tuple(self.get(raw, "food_tokens", "top level", (list,)))
        for i, token in enumerate(food_tokens):
            if token not in ALL_FOOD_TOKENS:
                raise self.fail(f"food_tokens[{i}]", f"unknown food token {token!r}")
        return colours, foods, food_tokens

    def toy_names(self, raw: dict[str, Any]) -> dict[str, str]:
        """Display names by toy type, in the file's order."""
        toy_names: dict[str, str] = {}
        for i, pair in enumerate(self.get(raw, "toy_types", "top level", (list,))):
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(p, str) and p for p in pair)
            ):
                raise self.fail(f"toy_types[{i}]", "expected [type, display name]")
            if pair[0] in toy_names:
                raise self.fail(f"toy_types[{i}]", f"duplicate toy type {pair[0]!r}")
            toy_names[pair[0]] = pair[1]
        return toy_names

    def unknown_places_and_facts(
        self, raw: dict[str, Any], ctx: _CardContext
    ) -> tuple[CatSpec, ...]:
        """Cats the rulebook names whose place (main deck or stray) is not known, and other
        unknown facts, both only in an incomplete edition (noted in ``self.unknowns``)."""
        unplaced_raw = raw.get("unplaced_cats", [])
        if not isinstance(unplaced_raw, list):
            raise self.fail("unplaced_cats", "expected a list")
        if unplaced_raw and not ctx.allow_unknown:
            raise self.fail(
                "unplaced_cats", "only an incomplete edition may list cats whose place is unknown"
            )
        unplaced = tuple(
            self.cat(item, f"unplaced_cats[{i}]", ctx, stray=False)
            for i, item in enumerate(unplaced_raw)
        )
        self.unknowns.extend(f"{c.name} (main deck or stray, and how many)" for c in unplaced)
        extra_unknowns = raw.get("unknown_facts", [])
        if not isinstance(extra_unknowns, list) or not all(
            isinstance(u, str) for u in extra_unknowns
        ):
            raise self.fail("unknown_facts", "expected a list of sentences")
        if extra_unknowns and not ctx.allow_unknown:
            raise self.fail("unknown_facts", "only an incomplete edition has unknown facts")
        self.unknowns.extend(extra_unknowns)
        return unplaced

    def cats_by_name(
        self,
        deck: Sequence[CardSpec],
        strays: Sequence[CatSpec],
        unplaced: Sequence[CatSpec],
    ) -> dict[str, CatSpec]:
        """Every cat by its normalised names and aliases; refuses a name shared by two cats
        and a card key used by two different cards."""
        by_name: dict[str, CatSpec] = {}
        seen_keys: dict[str, str] = {}
        for spec in [c.cat for c in deck if c.cat is not None] + list(strays) + list(unplaced):
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
        return by_name

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
        # Each step below adds the facts written "unknown" to `unknown`.
        unknown: set[str] = set()
        colours = self.cat_colours(item, where, ctx, name, unknown)
        vp: int | None = None
        if self.maybe_unknown(item, "vp", where, ctx, name):
            unknown.add("vp")
        else:
            vp = self.get(item, "vp", where, (int, type(None)))
        needs, needs_any = self.cat_needs(item, where, ctx, name, unknown)
        ability, params = self.cat_ability(item, where, ctx, name, unknown, vp=vp)
        if "needs" not in unknown and "ability" not in unknown:
            if ability in _ABILITY_DRIVEN_NEEDS and (needs or needs_any):
                raise self.fail(
                    f"{where}.needs", f"ability {ability!r} sets the food; needs must be empty"
                )
            if (
                ability not in _ABILITY_DRIVEN_NEEDS
                and ability not in _NO_FOOD_OK
                and not (needs or needs_any)
            ):
                raise self.fail(f"{where}.needs", "the cat needs some food")
        if ability == "all_colours":
            colours = frozenset(ctx.colours)
        members = self.cat_members(item, where, ctx, name, unknown)
        if members:
            colours = frozenset().union(*members)
        can_fill_box = item.get("can_fill_box", True)
        requires_goals = item.get("requires_goals", False)
        for flag, value in (("can_fill_box", can_fill_box), ("requires_goals", requires_goals)):
            if not isinstance(value, bool):
                raise self.fail(f"{where}.{flag}", f"expected true or false, got {value!r}")
        provisional = self.get(item, "provisional", where, (bool,))
        source, confidence = self.provenance(item, where)
        facts = self.facts(item, where)
        aliases = item.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise self.fail(f"{where}.aliases", "expected a list of names")
        if stray and "copies" in item:
            raise self.fail(f"{where}.copies", "strays are single cards outside the main deck")
        return CatSpec(
            name=name,
            colours=colours,
            vp=vp,
            needs=tuple(sorted(needs)),
            ability=ability,
            params=MappingProxyType(dict(params)),
            stray=stray,
            provisional=provisional,
            key=key,
            source=source,
            confidence=confidence,
            facts=facts,
            note=str(item.get("note", "")),
            aliases=tuple(aliases),
            needs_any=needs_any,
            members=members,
            can_fill_box=can_fill_box,
            requires_goals=requires_goals,
            unknown=frozenset(unknown),
        )

    def cat_colours(
        self, item: dict[str, Any], where: str, ctx: _CardContext, name: str, unknown: set[str]
    ) -> frozenset[Colour]:
        if self.maybe_unknown(item, "colours", where, ctx, name):
            unknown.add("colours")
            return frozenset()
        raw_colours = self.get(item, "colours", where, (list,))
        if not raw_colours:
            raise self.fail(f"{where}.colours", "a cat needs at least one colour")
        colours = frozenset(self.colour(c, f"{where}.colours") for c in raw_colours)
        for colour in colours:
            if colour not in ctx.colours:
                raise self.fail(
                    f"{where}.colours", f"colour {colour.value!r} is not in this edition"
                )
        return colours

    def cat_needs(
        self, item: dict[str, Any], where: str, ctx: _CardContext, name: str, unknown: set[str]
    ) -> tuple[list[tuple[str, int]], int]:
        """The cat's food needs by type, and how many of any food it needs."""
        needs: list[tuple[str, int]] = []
        needs_any = 0
        if self.maybe_unknown(item, "needs", where, ctx, name):
            unknown.add("needs")
            return needs, needs_any
        for food, amount in self.get(item, "needs", where, (dict,)).items():
            if food != "any" and food not in ctx.foods:
                raise self.fail(
                    f"{where}.needs", f"unknown food {food!r}; foods are {[*ctx.foods, 'any']}"
                )
            if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
                raise self.fail(f"{where}.needs.{food}", f"expected a count >= 0, got {amount!r}")
            if food == "any":
                needs_any = amount
            elif amount:
                needs.append((food, amount))
        return needs, needs_any

    def cat_ability(
        self,
        item: dict[str, Any],
        where: str,
        ctx: _CardContext,
        name: str,
        unknown: set[str],
        *,
        vp: int | None,
    ) -> tuple[str | None, dict[str, Any]]:
        """The cat's ability and its parameters, checked (a cat without one needs a VP)."""
        ability: str | None = None
        params: dict[str, Any] = {}
        if self.maybe_unknown(item, "ability", where, ctx, name):
            unknown.add("ability")
        else:
            ability = self.get(item, "ability", where, (str, type(None)))
        if self.maybe_unknown(item, "params", where, ctx, name):
            unknown.add("params")
        elif "params" in item:
            params = self.get(item, "params", where, (dict,))
        if "ability" not in unknown and "params" not in unknown:
            if ability is None:
                if params:
                    raise self.fail(
                        f"{where}.params", "parameters given but the cat has no ability"
                    )
                if vp is None and "vp" not in unknown:
                    raise self.fail(f"{where}.vp", "a cat without an ability needs a VP number")
            else:
                self.ability(ability, params, where, ctx)
        return ability, params

    def cat_members(
        self, item: dict[str, Any], where: str, ctx: _CardContext, name: str, unknown: set[str]
    ) -> tuple[frozenset[Colour], ...]:
        """The colours of each cat a several-cats card shows (empty for a single cat)."""
        if "members" not in item:
            return ()
        raw_members = item["members"]
        if raw_members == UNKNOWN:
            if not ctx.allow_unknown:
                raise self.fail(
                    f"{where}.members", "'unknown' is only allowed in an incomplete edition"
                )
            unknown.add("members")
            self.unknowns.append(f"{name} members")
            return ()
        if (
            not isinstance(raw_members, list)
            or len(raw_members) < 2
            or not all(isinstance(m, list) and m for m in raw_members)
        ):
            raise self.fail(
                f"{where}.members",
                "expected a list of 2 or more colour lists, one per cat shown on the card",
            )
        return tuple(frozenset(self.colour(c, f"{where}.members") for c in m) for m in raw_members)

    def ability(
        self, ability: str, params: Mapping[str, Any], where: str, ctx: _CardContext
    ) -> None:
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
            colour = self.colour(params["colour"], f"{where}.params.colour")
            if colour not in ctx.colours:
                raise self.fail(
                    f"{where}.params.colour", f"colour {colour.value!r} is not in this edition"
                )
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
        if ability == "per_food_type_cat" and params["food"] not in ctx.foods:
            raise self.fail(
                f"{where}.params.food",
                f"unknown food {params['food']!r}; foods are {list(ctx.foods)}",
            )
        if ability == "per_food_used" and params["food"] not in (*ctx.foods, "any"):
            raise self.fail(
                f"{where}.params.food",
                f"unknown food {params['food']!r}; use one of {[*ctx.foods, 'any']}",
            )
        for positive in ("catnip", "amount", "count", "costumes", "toys"):
            if positive in schema and params[positive] < 1:
                raise self.fail(f"{where}.params.{positive}", "must be at least 1")

    def expand(
        self,
        item: Mapping[str, Any],
        where: str,
        ctx: _CardContext,
        kind: CardKind,
        name: str,
        *,
        cat: CatSpec | None = None,
        food: Mapping[str, int] | None = None,
        toy: str | None = None,
        box: BoxRequirement | None = None,
    ) -> Iterable[CardSpec]:
        source, confidence = self.provenance(item, where)
        key = self.get(item, "key", where, (str,))
        provisional = self.get(item, "provisional", where, (bool,))
        if self.maybe_unknown(item, "copies", where, ctx, name):
            return []
        copies = self.get(item, "copies", where, (dict,))
        if not copies:
            raise self.fail(f"{where}.copies", "no copies")
        facts = cat.facts if cat is not None else self.facts(item, where)
        cards = []
        for marker, count in copies.items():
            if marker != "none" and marker not in ctx.markers:
                raise self.fail(
                    f"{where}.copies",
                    f"unknown marker {marker!r}; markers are {sorted(ctx.markers)}",
                )
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                raise self.fail(f"{where}.copies.{marker}", f"expected a count >= 0, got {count!r}")
            spec = CardSpec(
                key=key,
                kind=kind,
                name=name,
                cat=cat,
                food=MappingProxyType(dict(food or {})),
                toy=toy,
                marker=None if marker == "none" else marker,
                provisional=provisional,
                source=source,
                confidence=confidence,
                facts=facts,
                box=box,
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
            raise self.fail(
                f"{where}.kind",
                f"unknown card kind {raw_kind!r}; kinds are {sorted(k.value for k in CardKind)}",
            ) from None
        if kind is CardKind.CAT:
            raise self.fail(f"{where}.kind", "cats belong in the 'cats' list")
        food: dict[str, int] = {}
        toy = None
        box = None
        if kind is CardKind.FOOD:
            for token, amount in self.get(item, "food", where, (dict,)).items():
                if token not in ctx.food_tokens:
                    raise self.fail(
                        f"{where}.food",
                        f"unknown food token {token!r}; this "
                        f"edition's tokens are {list(ctx.food_tokens)}",
                    )
                if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
                    raise self.fail(
                        f"{where}.food.{token}", f"expected a count >= 1, got {amount!r}"
                    )
                food[token] = amount
            if not food:
                raise self.fail(f"{where}.food", "a food card gives some food")
        if kind is CardKind.TOY:
            toy = self.get(item, "toy", where, (str,))
            if toy not in ctx.toys:
                raise self.fail(f"{where}.toy", f"unknown toy type {toy!r}")
        if kind is CardKind.BOX:
            if self.maybe_unknown(item, "box", where, ctx, name):
                box = BoxRequirement(None, None)
            else:
                req = self.get(item, "box", where, (dict,))
                extra = set(req) - {"colour", "food"}
                if extra:
                    raise self.fail(
                        f"{where}.box",
                        f"unknown field(s) {sorted(extra)}; a box "
                        "requires a 'colour' and/or a 'food'",
                    )
                colour = None
                if req.get("colour") is not None:
                    colour = self.colour(req["colour"], f"{where}.box.colour")
                    if colour not in ctx.colours:
                        raise self.fail(
                            f"{where}.box.colour", f"colour {colour.value!r} is not in this edition"
                        )
                box_food = req.get("food")
                if box_food is not None and box_food not in ctx.foods:
                    raise self.fail(f"{where}.box.food", f"unknown food {box_food!r}")
                if colour is None and box_food is None:
                    raise self.fail(f"{where}.box", "a box requires a colour, a food or both")
                box = BoxRequirement(colour, box_food)
        elif "box" in item:
            raise self.fail(f"{where}.box", "only box cards have a requirement")
        return self.expand(item, where, ctx, kind, name, food=food, toy=toy, box=box)

    def player_counts(
        self,
        raw: Mapping[str, Any],
        deck: list[CardSpec],
        markers: frozenset[str],
        ctx: _CardContext,
    ) -> dict[int, PlayerCountSetup]:
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
            actual = sum(1 for card in deck if card.marker not in frozenset(remove))
            if self.maybe_unknown(setup, "deck_size", where, ctx, f"{key}-player"):
                deck_size = actual
            else:
                deck_size = self.get(setup, "deck_size", where, (int,))
            entry = PlayerCountSetup(
                players=int(key),
                remove_markers=frozenset(remove),
                random_removals=self.get(setup, "random_removals", where, (int,)),
                strays_dealt=self.get(setup, "strays_dealt", where, (int,)),
                deck_size=deck_size,
            )
            if actual != entry.deck_size:
                raise self.fail(
                    f"{where}.deck_size",
                    f"the cards add up to {actual} for {key} players, but deck_size says "
                    f"{entry.deck_size}",
                )
            if not ctx.allow_unknown and (
                entry.random_removals < 0 or entry.random_removals > actual
            ):
                raise self.fail(f"{where}.random_removals", "out of range")
            if entry.strays_dealt < 0:
                raise self.fail(f"{where}.strays_dealt", "must not be negative")
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
            catnip.append(
                (
                    self.get(row, "min", w, (int,)),
                    self.get(row, "max", w, (int, type(None))),
                    self.get(row, "flat_vp", w, (int,)),
                    self.get(row, "per_fed_cat_vp", w, (int,)),
                )
            )
        self.provenance(raw, where)
        second = raw.get("costume_second")
        second_vp, second_from = 0, None
        if second is not None:
            w = f"{where}.costume_second"
            if not isinstance(second, dict):
                raise self.fail(w, "expected an object")
            second_vp = self.get(second, "vp", w, (int,))
            second_from = self.get(second, "min_players", w, (int,))
        return ScoringConstants(
            unfed_cat_vp=self.get(raw, "unfed_cat_vp", where, (int,)),
            toy_set_vp=tuple(toy_vp),
            costume_most_vp=self.get(raw, "costume_most_vp", where, (int,)),
            costume_none_vp=self.get(raw, "costume_none_vp", where, (int,)),
            catnip=tuple(catnip),
            vp_token_vp=self.get(raw, "vp_token_vp", where, (int,)),
            lost_cats_per_trade=self.get(raw, "lost_cats_per_trade", where, (int,)),
            most_leftover_food_vp=self.get(raw, "most_leftover_food_vp", where, (int,)),
            costume_second_vp=second_vp,
            costume_second_min_players=second_from,
            treat_fed_vp=raw.get("treat_fed_vp", 1)
            if isinstance(raw.get("treat_fed_vp", 1), int)
            else 1,
            cat_player_item_vp=raw.get("cat_player_item_vp", 1)
            if isinstance(raw.get("cat_player_item_vp", 1), int)
            else 1,
        )

    def components(self, raw: Mapping[str, Any], strays: tuple[CatSpec, ...]) -> dict[str, Any]:
        where = "components"
        comp = self.get(raw, "components", "top level", (dict,))
        n_strays = self.get(comp, "strays", where, (int,))
        if n_strays != len(strays):
            raise self.fail(
                f"{where}.strays", f"says {n_strays} strays but {len(strays)} are listed"
            )
        vp_tokens = self.get(comp, "vp_tokens", where, (int,))
        food = self.get(comp, "food_tokens", where, (dict,))
        for token, amount in food.items():
            if token not in ALL_FOOD_TOKENS or not isinstance(amount, int) or amount < 0:
                raise self.fail(f"{where}.food_tokens.{token}", "bad food token count")
        self.provenance(comp, where)
        return {
            "strays": n_strays,
            "vp_tokens": vp_tokens,
            "food_tokens": MappingProxyType(dict(food)),
        }

    def goals(self, raw: Any, ctx: _CardContext) -> tuple[Goal, ...]:
        if not isinstance(raw, list):
            raise self.fail("goals", "expected a list")
        goals = []
        names: set[str] = set()
        for i, item in enumerate(raw):
            where = f"goals[{i}]"
            if not isinstance(item, dict):
                raise self.fail(where, "expected an object")
            name = self.get(item, "name", where, (str,))
            where = f"{where} ({name})"
            if normalise_name(name) in names:
                raise self.fail(where, "two goals share this name")
            names.add(normalise_name(name))
            stat = self.get(item, "stat", where, (str,))
            if stat not in GOAL_STATS:
                raise self.fail(
                    f"{where}.stat", f"unknown goal stat {stat!r}; stats are {sorted(GOAL_STATS)}"
                )
            values: dict[str, int | None] = {}
            for field_name in ("amount", "vp"):
                if self.maybe_unknown(item, field_name, where, ctx, f"goal {name!r}"):
                    values[field_name] = None
                else:
                    value = self.get(item, field_name, where, (int,))
                    if value < 1:
                        raise self.fail(f"{where}.{field_name}", "must be at least 1")
                    values[field_name] = value
            source, confidence = self.provenance(item, where)
            goals.append(
                Goal(
                    key=self.get(item, "key", where, (str,)),
                    name=name,
                    stat=stat,
                    amount=values["amount"],
                    vp=values["vp"],
                    source=source,
                    confidence=confidence,
                )
            )
        return tuple(goals)

    def solitaire(self, raw: Any, ctx: _CardContext) -> Solitaire:
        where = "solitaire"
        if not isinstance(raw, dict):
            raise self.fail(where, "expected an object")
        source, confidence = self.provenance(raw, where)
        placeholder = self.get(raw, "placeholder", where, (bool,))
        starting = []
        for i, item in enumerate(self.get(raw, "starting_cards", where, (list,))):
            w = f"{where}.starting_cards[{i}]"
            if not isinstance(item, dict):
                raise self.fail(w, "expected an object")
            effect = self.get(item, "effect", w, (dict,))
            for k, v in effect.items():
                if k not in STARTING_EFFECTS:
                    raise self.fail(
                        f"{w}.effect.{k}", f"unknown effect; effects are {sorted(STARTING_EFFECTS)}"
                    )
                if k == "food":
                    if not isinstance(v, dict) or not all(
                        t in ctx.food_tokens and isinstance(n, int) and n > 0 for t, n in v.items()
                    ):
                        raise self.fail(f"{w}.effect.food", "expected food token -> count")
                elif not isinstance(v, int) or isinstance(v, bool) or v < 1:
                    raise self.fail(f"{w}.effect.{k}", "expected a count >= 1")
            starting.append(
                StartingCard(
                    self.get(item, "key", w, (str,)),
                    self.get(item, "name", w, (str,)),
                    MappingProxyType(effect),
                )
            )
        turn = []
        for i, item in enumerate(self.get(raw, "turn_cards", where, (list,))):
            w = f"{where}.turn_cards[{i}]"
            if not isinstance(item, dict):
                raise self.fail(w, "expected an object")
            kind = self.get(item, "kind", w, (str,))
            if kind not in TURN_CARD_KINDS:
                raise self.fail(
                    f"{w}.kind", f"unknown turn card {kind!r}; kinds are {sorted(TURN_CARD_KINDS)}"
                )
            arrow = self.get(item, "arrow", w, (str, type(None)))
            if (arrow is None) != (kind == "cat_token"):
                raise self.fail(f"{w}.arrow", "every turn card but Cat Token shows an arrow")
            if arrow is not None:
                words = arrow.split()
                if len(words) != 2 or words[0] not in ("row", "col") or words[1] not in "123":
                    raise self.fail(f"{w}.arrow", f"expected 'row N' or 'col N', got {arrow!r}")
            turn.append(
                TurnCard(
                    self.get(item, "key", w, (str,)), self.get(item, "name", w, (str,)), kind, arrow
                )
            )
        if not turn:
            raise self.fail(f"{where}.turn_cards", "no turn cards")
        dealt = self.get(raw, "starting_cards_dealt", where, (int,))
        if not 0 <= dealt <= len(starting):
            raise self.fail(f"{where}.starting_cards_dealt", "out of range")
        return Solitaire(
            tuple(starting),
            tuple(turn),
            dealt,
            placeholder,
            source,
            confidence,
            str(raw.get("note", "")),
        )


@dataclass(frozen=True, slots=True)
class _CardContext:
    colours: tuple[Colour, ...]
    foods: tuple[str, ...]
    food_tokens: tuple[str, ...]
    toys: frozenset[str]
    markers: frozenset[str]
    allow_unknown: bool = False
