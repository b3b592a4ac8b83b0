"""Cat Lady's score pad as values: a player's holdings (:class:`Tableau`), the house-rule
settings (:class:`ScoringRules`) and the results (:class:`GameScore`, :class:`PlayerScore`,
:class:`CatFeeding`), with the small sums both scorers share. Both the base scorer
(:mod:`engine.catlady.scoring`) and the expansion scorer (:mod:`engine.catlady.scoring_expansion`) build on
it, so neither imports the other's internals.

>>> toy_sets_vp([2, 1], (0, 1, 3, 5, 8, 12))
4
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal

from engine.catlady.cards import Edition
from engine.errors import ScoreInputError

__all__ = [
    "BREAKDOWN",
    "BREAKDOWN_LABELS",
    "DEFAULT_RULES",
    "MAX_ROUNDS",
    "CatFeeding",
    "GameScore",
    "Plates",
    "PlayerScore",
    "ScoringRules",
    "Tableau",
    "pays_leftover_penalty",
    "penalised_seats",
    "ranks",
    "settle",
    "starting_effects",
    "toy_sets_vp",
    "with_starting_cards",
]

MAX_ROUNDS = 20
BREAKDOWN = ("fed_cats", "toys", "costumes", "catnip", "vp_tokens", "food_penalty")
# The score pad's row names as people read them: BREAKDOWN's rows, then the expansion rows.
BREAKDOWN_LABELS: Mapping[str, str] = MappingProxyType(
    {
        "fed_cats": "Fed cats",
        "toys": "Toys",
        "costumes": "Costumes",
        "catnip": "Catnip",
        "vp_tokens": "VP tokens",
        "food_penalty": "Food penalty",
        "boxes": "Boxes",
        "goals": "Shared goals",
        "items": "Cat player items",
    }
)
_COUNT_FIELDS = ("costumes", "catnip", "vp_tokens", "lost_cats", "spray_bottles")
# Box of Treats hand cards (worthless at the end except to the solitaire cat player).
_BOX_OF_TREATS_COUNT_FIELDS = ("cat_brushes", "laser_pointers", "shopping_bags")


@dataclass(frozen=True)
class Tableau:
    """One player's holdings at the end of the game."""

    name: str
    cats: tuple[str, ...] = ()
    food: Mapping[str, int] = field(default_factory=dict)  # chicken/tuna/milk/wild tokens
    toys: Mapping[str, int] = field(default_factory=dict)  # count per toy type
    costumes: int = 0
    catnip: int = 0
    vp_tokens: int = 0
    lost_cats: int = 0
    spray_bottles: int = 0
    # Box of Treats
    boxes: tuple[str, ...] = ()  # box card names (or keys) in front of the player
    cat_brushes: int = 0
    laser_pointers: int = 0
    shopping_bags: int = 0
    # Solitaire: the cat player (all its chicken, tuna and milk are wild; its wild toy)
    cat_player: bool = False
    wild_toys: int = 0
    starting_cards: tuple[str, ...] = ()  # solitaire starting cards (their effects count)


@dataclass(frozen=True)
class ScoringRules:
    """Readings of questions the rulebooks leave open, where clubs could disagree.

    - ``costume_split``: the 6 VP for most costumes split among a tie that does not divide
      evenly (4 players tied: 1.5 each) is rounded ``"up"`` (default, as Box of Treats rounds its
      5-6 player splits up) or ``"down"``.
    - ``penalty_when_nobody_has_leftover``: when every player has 0 leftover food, are they all
      "tied for the most"? Default ``False``: nobody loses VP (you cannot have the most of
      nothing).
    - ``macak_catnip_optional``: Macak's card says "you *may* gain 1 catnip"; the Premium
      rulebook says he counts as catnip and, if he is your only one, you lose 2 VP as normal.
      Default ``False`` follows the Premium rulebook (he always counts when fed).
    """

    costume_split: Literal["up", "down"] = "up"
    penalty_when_nobody_has_leftover: bool = False
    macak_catnip_optional: bool = False

    def __post_init__(self) -> None:
        if self.costume_split not in ("up", "down"):
            raise ScoreInputError(
                f"costume_split must be 'up' or 'down', not {self.costume_split!r}"
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "costume_split": self.costume_split,
            "penalty_when_nobody_has_leftover": self.penalty_when_nobody_has_leftover,
            "macak_catnip_optional": self.macak_catnip_optional,
        }


DEFAULT_RULES = ScoringRules()


@dataclass(frozen=True)
class CatFeeding:
    """How one cat was fed: each food it ate as ``(food, token that paid for it)``."""

    cat: str
    fed: bool
    vp: int
    ate: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        """Short text, e.g. ``"Bronte: tuna, tuna (wild) -> 3 VP"``.

        >>> CatFeeding("Bronte", True, 3, (("tuna", "tuna"), ("tuna", "wild"))).describe()
        'Bronte: tuna, tuna (wild) -> 3 VP'
        """
        if not self.fed:
            return f"{self.cat}: hungry -> {self.vp} VP"
        foods = ", ".join(
            food if token == food else f"{food} ({token})" for food, token in self.ate
        )
        return f"{self.cat}: {foods} -> {self.vp} VP"

    def to_json(self) -> dict[str, Any]:
        return {
            "cat": self.cat,
            "fed": self.fed,
            "vp": self.vp,
            "ate": [{"food": food, "token": token} for food, token in self.ate],
        }


# What :class:`Plates` holds: each cat's feeding, and the leftover food tokens.
Feeding = tuple[tuple[CatFeeding, ...], Mapping[str, int]]


class Plates:
    """Which token paid for each food each cat ate, and the tokens left over: worked out the
    first time either is read. Finding the tokens is about a fifth of scoring a base game,
    and a caller comparing totals (a house bot scores every move it weighs) never reads
    them. Two are equal when what they hold is.

    >>> plates = Plates(lambda: ((CatFeeding("Bell", False, -2),), {"milk": 1}))
    >>> plates.leftover, [f.describe() for f in plates.feeding]
    ({'milk': 1}, ['Bell: hungry -> -2 VP'])
    """

    __slots__ = ("_work", "_done")

    def __init__(self, work: Callable[[], Feeding]) -> None:
        self._work: Callable[[], Feeding] | None = work
        self._done: Feeding | None = None

    @classmethod
    def known(cls, feeding: Sequence[CatFeeding], leftover: Mapping[str, int]) -> Plates:
        """Plates already worked out."""
        plates = cls.__new__(cls)
        plates._work = None
        plates._done = (tuple(feeding), leftover)
        return plates

    def _get(self) -> Feeding:
        done = self._done
        if done is None:
            assert self._work is not None
            done = self._done = self._work()
            self._work = None
        return done

    @property
    def feeding(self) -> tuple[CatFeeding, ...]:
        return self._get()[0]

    @property
    def leftover(self) -> Mapping[str, int]:
        return self._get()[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Plates):
            return NotImplemented
        return self._get() == other._get()

    def __hash__(self) -> int:
        feeding, leftover = self._get()
        return hash((feeding, tuple(sorted(leftover.items()))))

    def __repr__(self) -> str:
        return f"Plates(feeding={self.feeding!r}, leftover={self.leftover!r})"

    def __reduce__(self) -> tuple[Callable[..., Plates], Feeding]:
        # Pickled worked out: the work to do holds the scorer's search results and card data.
        return (Plates.known, self._get())


@dataclass(frozen=True)
class PlayerScore:
    """One player's score-pad line, feeding plan and rank."""

    name: str
    fed_cats: int
    toys: int
    costumes: int
    catnip: int
    vp_tokens: int
    food_penalty: int
    total: int
    fed_cat_count: int
    rank: int
    leftover_food: int
    plates: Plates  # what each cat ate, and the food left (worked out when first read)
    catnip_counted: int
    # Expansion lines (``boxes``, ``goals``, ``items``), present only when the game has them
    extra_lines: Mapping[str, int] = field(default_factory=dict)
    # End-of-game choices the scorer made for the player (Choupette, Little Nicky...)
    choices: tuple[str, ...] = ()
    cat_player: bool = False

    @property
    def feeding(self) -> tuple[CatFeeding, ...]:
        """How each cat was fed, in the player's order."""
        return self.plates.feeding

    @property
    def leftover(self) -> Mapping[str, int]:
        """The food tokens left over, by token (those with none left out)."""
        return self.plates.leftover

    @property
    def breakdown(self) -> dict[str, int]:
        lines = {key: getattr(self, key) for key in BREAKDOWN}
        lines.update(self.extra_lines)
        return lines

    def to_json(self) -> dict[str, Any]:
        result = {
            "name": self.name,
            "rank": self.rank,
            "total": self.total,
            "fed_cat_count": self.fed_cat_count,
            "breakdown": self.breakdown,
            "leftover_food": self.leftover_food,
            "leftover": dict(self.leftover),
            "catnip_counted": self.catnip_counted,
            "feeding": [f.to_json() for f in self.feeding],
        }
        # Only expansion games carry these keys, so base results stay as they were.
        if self.choices:
            result["choices"] = list(self.choices)
        if self.cat_player:
            result["cat_player"] = True
        return result


@dataclass(frozen=True)
class GameScore:
    """The scored end of a game. ``players`` are in input (seat) order."""

    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]  # seat indices; several when fully tied
    edition: str
    edition_version: str
    rules: ScoringRules
    feeding_settled: bool = True

    @classmethod
    def from_players(
        cls,
        players: Sequence[PlayerScore],
        *,
        edition: Edition,
        rules: ScoringRules,
        feeding_settled: bool,
    ) -> GameScore:
        """The score of a game whose players (in seat order) are scored and ranked: the
        winners are the seats ranked first."""
        return cls(
            players=tuple(players),
            winners=tuple(i for i, p in enumerate(players) if p.rank == 1),
            edition=edition.name,
            edition_version=edition.version,
            rules=rules,
            feeding_settled=feeding_settled,
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-serialisable dict (the calculator's ``--json`` output)."""
        return {
            "edition": self.edition,
            "edition_version": self.edition_version,
            "rules": self.rules.to_json(),
            "players": [p.to_json() for p in self.players],
            "winners": [self.players[i].name for i in self.winners],
            "winner_seats": list(self.winners),
            "feeding_settled": self.feeding_settled,
        }


def toy_sets_vp(counts: Sequence[int], table: Sequence[int]) -> int:
    """Best VP from splitting toys into sets of different toys (``table[k]``: a set of k).

    >>> toy_sets_vp([1, 2, 3, 0, 0], (0, 1, 3, 5, 8, 12))  # Kat: 5 + 3 + 1
    9
    """
    return _toy_sets(tuple(sorted((c for c in counts if c > 0), reverse=True)), tuple(table))


@lru_cache(maxsize=4096)
def _toy_sets(counts: tuple[int, ...], table: tuple[int, ...]) -> int:
    if not counts:
        return 0
    # With a convex table (the printed 1/3/5/8/12 is) the greedy "all distinct toys in one set"
    # is optimal; the search below stays exact for any table a data file might give.
    best = 0
    n = len(counts)
    for size in range(1, min(n, len(table) - 1) + 1):
        # Taking one of each of the `size` most plentiful types is never worse than other
        # choices of the same size (it keeps the counts as even as possible).
        rest = [c - 1 if i < size else c for i, c in enumerate(counts)]
        rest_key = tuple(sorted((c for c in rest if c > 0), reverse=True))
        best = max(best, table[size] + _toy_sets(rest_key, table))
    return best


def starting_effects(t: Tableau, edition: Edition) -> dict[str, Any]:
    """What the solitaire starting cards ``t.starting_cards`` add up to."""
    totals: dict[str, Any] = {}
    if not t.starting_cards or edition.solitaire is None:
        return totals
    by_name = {c.name: c for c in edition.solitaire.starting_cards}
    for name in t.starting_cards:
        for effect, value in by_name[name].effect.items():
            if effect == "food":
                food = totals.setdefault("food", {})
                for token, n in value.items():
                    food[token] = food.get(token, 0) + n
            else:
                totals[effect] = totals.get(effect, 0) + value
    return totals


def with_starting_cards(t: Tableau, edition: Edition) -> Tableau:
    """The cat player's holdings with its starting cards' VP tokens, catnip, costumes, food
    and wild toys added (an extra stray is already among its cats)."""
    effects = starting_effects(t, edition)
    if not effects:
        return t
    food = dict(t.food)
    for token, n in effects.get("food", {}).items():
        food[token] = food.get(token, 0) + n
    return replace(
        t,
        food=food,
        vp_tokens=t.vp_tokens + effects.get("vp_tokens", 0),
        catnip=t.catnip + effects.get("catnip", 0),
        costumes=t.costumes + effects.get("costumes", 0),
        wild_toys=t.wild_toys + effects.get("wild_toys", 0),
        starting_cards=(),
    )


def pays_leftover_penalty(own: int, most_of_others: int, rules: ScoringRules) -> bool:
    """Whether a player with ``own`` leftover food pays the most-leftover-food penalty while
    no other player has more than ``most_of_others``: every player tied for most pays, and
    when nobody has any leftover nobody pays (an open question in the rulebook) unless the
    club's :attr:`ScoringRules.penalty_when_nobody_has_leftover` says so.

    >>> pays_leftover_penalty(2, 2, DEFAULT_RULES), pays_leftover_penalty(0, 0, DEFAULT_RULES)
    (True, False)
    """
    return own >= most_of_others and (own > 0 or rules.penalty_when_nobody_has_leftover)


def ranks(keys: Sequence[Any]) -> list[int]:
    """Each seat's rank: 1 plus the number of seats with a strictly greater key, so tied seats
    share a rank.

    >>> ranks([(10, 2), (12, 1), (10, 2)])
    [2, 1, 2]
    """
    return [1 + sum(1 for other in keys if other > key) for key in keys]


def penalised_seats(leftovers: Sequence[int], rules: ScoringRules) -> list[bool]:
    """:func:`pays_leftover_penalty` for every seat, from each seat's leftover food.

    >>> penalised_seats([1, 3, 3], DEFAULT_RULES)
    [False, True, True]
    """
    most = max(leftovers, default=0)
    return [pays_leftover_penalty(left, most, rules) for left in leftovers]


def settle(
    sizes: Sequence[int], payoff: Callable[[int, int, Sequence[int]], tuple[int, ...]]
) -> tuple[list[int], bool]:
    """The feeding option each player ends up with when the choices depend on each other
    (the leftover-food penalty, Hemingway, costume awards, shared goals).

    ``sizes[i]``: how many options player ``i`` has, best own VP first; ``payoff(i, j,
    pick)``: what option ``j`` is worth to player ``i`` while the others keep ``pick``.
    From everyone's first option, players in seat order switch to their best response
    (only on a strict improvement) until nobody switches; after ``MAX_ROUNDS`` rounds the
    last profile is returned with ``False`` (not settled).

    >>> settle([2, 2], lambda i, j, pick: (j == pick[1 - i],))  # both want to match
    ([0, 0], True)
    """
    pick = [0] * len(sizes)
    if all(n == 1 for n in sizes):
        return pick, True
    for _ in range(MAX_ROUNDS):
        changed = False
        for i, n in enumerate(sizes):
            best, best_key = pick[i], payoff(i, pick[i], pick)
            for j in range(n):
                key = payoff(i, j, pick)
                if key > best_key:
                    best, best_key = j, key
            if best != pick[i]:
                pick[i] = best
                changed = True
        if not changed:
            return pick, True
    return pick, False
