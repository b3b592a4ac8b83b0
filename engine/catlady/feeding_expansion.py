"""One player's feeding options when expansion cards are in play (Premium strays, Box of
Treats). Internal to :mod:`engine.catlady.scoring_expansion`.

The base game keeps its own, faster search (:mod:`engine.catlady.feeding`); this one handles every
ability in :data:`engine.catlady.cards.ABILITY_PARAMS` and every Box of Treats feeding rule, and is
checked against the base search on base tableaux (tests/engine/catlady/test_feeding_expansion_properties.py).

The procedure:

1. Each cat gets its *meals*: hungry; fed its needs (fixed food, "any food", one chosen type
   for Waffle and Truffle, a range for Cow and Calf who then also eat what is left; Ginger
   also eats a catnip); fed a treat instead (any cat, when the player holds a treat). With
   Sherry fed, every non-stray cat's needs are one less, in each way the owner may choose.
2. A depth-first search picks a meal per cat and drops a branch as soon as the food cannot
   pay for it: typed food short of its type is paid by wilds (and Moonbeam's conversions);
   "any food" by whatever is left; treats only by treats; Ginger's catnip by catnip cards or
   a fed Macak.
3. At each complete plan, food that "any food" cats eat is given the types that score best
   (Floopy's sets, "tuna cats", boxes, Truffle), every ability is scored, and the end-of-game
   choices are made for the owner: Little Nicky copies the best other fed cat, Tomasso is the
   toy that scores most, Mr. Zoe takes every spray bottle and lost cat, boxes are filled by
   the best matching. Rules that would be broken are refused here (Ginger left hungry while
   she could eat a catnip).
4. Plans become options (own VP, fed cats, leftover food, costumes, toys, catnip, Hemingway's
   bonus); only Pareto-optimal ones are kept, for the cross-player settling in
   :mod:`engine.catlady.scoring_expansion`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.catlady.cards import BoxRequirement, CatSpec, Edition
from engine.catlady.feeding import colour_sets
from engine.catlady.scorepad import toy_sets_vp

__all__ = ["Holdings", "Option", "Plate", "options_for"]

HUNGRY, FED, TREAT = "hungry", "fed", "treat"
# Abilities that make the types of "any food" matter (step 3).
_TYPE_SENSITIVE = frozenset(
    {"food_sets_used", "per_food_used", "per_food_type_cat", "per_other_fed_cat_eating_food"}
)
# Abilities that change what other cats eat or count: searched first.
_FIRST = frozenset({"reduce_needs", "food_as_wild"})
# Enumerating types for "any food" stops here (a plan then keeps its first allocations).
_MAX_ALLOCATIONS = 4096
# Cats that feeding never makes worse for their owner, whatever else is fed: fed, they score
# at least the unfed -2 and only add to what other abilities count. Leaving one hungry while
# its food is there can never beat feeding it, so that branch is cut (see _dfs). Not here:
# King Fluff (his VP may fall below -2), Ginger and Macak (they change the catnip count),
# Tomasso (a toy costs King Fluff), Sherry (more leftover), and cats whose meal is a choice.
_NEVER_WORSE_FED = frozenset(
    {
        None,
        "per_colour_fed",
        "colour_sets",
        "per_costume",
        "per_toy",
        "most_fed_cats",
        "all_colours",
        "food_as_wild",
        "food_sets_used",
        "borrow_leftover",
        "per_one_food_cat",
        "counts_as_costume",
        "copy_fed_cat_vp",
        "toy_sets_vp",
        "discard_for_vp",
        "take_grid_cards",
        "per_food_type_cat",
        "per_multicoloured_fed",
        "per_food_used",
    }
)


@dataclass(frozen=True)
class Holdings:
    """What a player holds at the end, as the feeding search needs it."""

    cats: tuple[CatSpec, ...]
    food_items: tuple[tuple[str, int], ...]  # chicken / tuna / milk / wild / treat tokens
    toys: tuple[int, ...]  # per edition toy type
    costumes: int = 0
    catnip: int = 0
    lost_cats: int = 0
    spray_bottles: int = 0
    boxes: tuple[BoxRequirement, ...] = ()
    wild_toys: int = 0  # solitaire starting card: the cat player's wild toy
    cat_player: bool = False  # solitaire: all chicken, tuna and milk are wild for it
    # Scrappy's second feeding: cats already fed keep their plate (paid for before).
    fixed: tuple[tuple[int, Plate], ...] = ()

    @property
    def food(self) -> dict[str, int]:
        return dict(self.food_items)


@dataclass(frozen=True, slots=True)
class Plate:
    """What one cat eats in a plan. ``typed`` and ``eaten`` are per food type (edition
    order); ``eaten`` includes the "any food" with the types it was given."""

    mode: str
    typed: tuple[int, ...] = ()
    any: int = 0
    catnip: int = 0
    rest: bool = False  # Cow, Calf: also eats what is left, up to ``cap``
    cap: int | None = None
    reduced: bool = False  # needs lowered by Sherry
    eaten: tuple[int, ...] = ()
    treat: int = 0

    @property
    def amount(self) -> int:
        return sum(self.eaten) if self.eaten else sum(self.typed) + self.any


@dataclass(frozen=True)
class Option:
    """One Pareto-optimal plan for a player."""

    vp: int  # cats + toys + catnip + boxes + items: all that does not depend on others
    fed: int  # fed cats, Aoshima & Friends counting 3
    leftover: int
    bonus: int  # Hemingway: added when the player has strictly the most fed cats
    costumes: int
    toys: int
    catnip: int
    multicoloured_fed: int
    lines: Mapping[str, int]  # fed_cats, toys, catnip, boxes, items
    plates: tuple[Plate, ...]
    cat_vp: tuple[int, ...]
    bonus_cat: int
    leftover_food: Mapping[str, int]
    choices: tuple[str, ...] = ()
    borrowed: Mapping[str, int] = field(default_factory=dict)


def _dominates(a: Option, b: Option) -> bool:
    return (
        a.fed >= b.fed
        and a.leftover <= b.leftover
        and a.vp >= b.vp
        and a.vp + a.bonus >= b.vp + b.bonus
        and a.costumes >= b.costumes
        and a.toys >= b.toys
        and a.catnip >= b.catnip
        and a.multicoloured_fed >= b.multicoloured_fed
    )


@dataclass(frozen=True, slots=True)
class _Cat:
    index: int
    spec: CatSpec
    masks: tuple[int, ...]  # one colour mask per cat shown on the card
    stray: bool
    natural: int | None  # printed food count (None: chosen amount)
    meals: tuple[Plate, ...]
    reduced_meals: tuple[Plate, ...]  # with Sherry fed (non-strays only)
    # Card facts the scoring of every plan reads, computed once (CatSpec derives them).
    cat_count: int = 1
    multicoloured: bool = False
    need_types: frozenset[int] = frozenset()  # food types in the printed needs


def _eating(
    mode: str,
    typed: tuple[int, ...],
    *,
    any: int = 0,
    catnip: int = 0,
    reduced: bool = False,
    treat: int = 0,
) -> Plate:
    """A plate whose food is all typed already says what it eats (``eaten``), so plans that
    use it never work that out again; "any food" is only typed per plan."""
    return Plate(
        mode,
        typed,
        any=any,
        catnip=catnip,
        reduced=reduced,
        eaten=() if any else typed,
        treat=treat,
    )


def _typed(edition: Edition, pairs: Sequence[tuple[str, int]]) -> list[int]:
    typed = [0] * len(edition.foods)
    for food, amount in pairs:
        typed[edition.foods.index(food)] += amount
    return typed


def _meals(cat: CatSpec, edition: Edition, *, reduce: int) -> tuple[Plate, ...]:
    """Every normal meal of ``cat``; ``reduce`` food fewer when Sherry applies."""
    n = len(edition.foods)
    p = cat.params
    catnip = int(str(p["catnip"])) if cat.ability == "eats_catnip" else 0
    reduced = reduce > 0
    if cat.ability == "vp_per_food_fed":
        lo = max(0, int(str(p["min"])) - reduce)
        hi = None if p["max"] is None else max(lo, int(str(p["max"])) - reduce)
        if p["one_type"]:
            meals = []
            top = hi if hi is not None else 30
            for t in range(n):
                for amount in range(max(lo, 1), top + 1):
                    typed = [0] * n
                    typed[t] = amount
                    meals.append(_eating(FED, tuple(typed), reduced=reduced))
            if lo == 0:
                meals.append(_eating(FED, (0,) * n, reduced=reduced))
            return tuple(meals)
        return (Plate(FED, (0,) * n, any=lo, rest=True, cap=hi, reduced=reduced),)
    if cat.ability == "per_other_fed_cat_eating_food":
        amount = max(0, int(str(p["amount"])) - reduce)
        meals = []
        foods = p["foods"]
        assert isinstance(foods, list)  # checked when the card data was loaded
        for food in foods:
            typed = [0] * n
            typed[edition.foods.index(str(food))] = amount
            meals.append(_eating(FED, tuple(typed), reduced=reduced))
        return tuple(dict.fromkeys(meals))
    base = _typed(edition, cat.needs)
    if not reduce:
        return (_eating(FED, tuple(base), any=cat.needs_any, catnip=catnip),)
    # Sherry: one food fewer, of a type the owner chooses (RB-PREM: amount, not type).
    variants = set()
    for t in range(n):
        if base[t]:
            typed = list(base)
            typed[t] -= 1
            variants.add((tuple(typed), cat.needs_any))
    if cat.needs_any:
        variants.add((tuple(base), cat.needs_any - 1))
    if not variants:
        variants.add((tuple(base), cat.needs_any))
    return tuple(
        _eating(FED, typed, any=k, catnip=catnip, reduced=True) for typed, k in sorted(variants)
    )


@lru_cache(maxsize=8192)
def _compile(cat: CatSpec, index: int, edition: Edition) -> _Cat:
    def mask(colours: frozenset[object]) -> int:
        return sum(1 << i for i, c in enumerate(edition.colours) if c in colours)

    masks = tuple(mask(m) for m in cat.members) if cat.members else (mask(cat.colours),)
    meals = _meals(cat, edition, reduce=0)
    reduced = meals if cat.stray else _meals(cat, edition, reduce=1)
    need_types = frozenset(
        t for t, food in enumerate(edition.foods) if any(f == food for f, _ in cat.needs)
    )
    return _Cat(
        index,
        cat,
        masks,
        cat.stray,
        cat.food_count,
        meals,
        reduced,
        cat_count=cat.cat_count,
        multicoloured=cat.multicoloured,
        need_types=need_types,
    )


@dataclass(slots=True)
class _Plan:
    """What the abilities of one complete plan read (see :meth:`_Search._plan`)."""

    plates: list[Plate]
    fed: list[_Cat]  # fed normally or with a treat
    normal: list[_Cat]  # fed normally (abilities work)
    fed_count: int  # Aoshima & Friends counting 3
    colour_counts: list[int]  # fed cats per colour (only when a colour ability reads it)
    masks: list[int]
    multicoloured: int
    costumes: int
    extra_toys: int
    toy_vp: int
    toy_types: tuple[int, ...]
    toys_count: int
    catnip: int
    eaten_by_type: list[int]
    treats_used: int


@dataclass(slots=True)
class _Tally:
    """One plan's VP (see :meth:`_Search._tally`)."""

    plan: _Plan
    cat_vp: list[int]  # per cat, copies included
    copies: list[str]  # Little Nicky's choices, for the score pad
    catnip_vp: int
    boxes_vp: int
    filled: int  # boxes filled
    vp: int  # cats + toys + catnip + boxes


def _is_food_cat(cat: _Cat, plate: Plate, t: int) -> bool:
    """RB-BOT: a "tuna cat" has tuna in its needs or was fed tuna; an "any food" cat only if
    fed tuna; a treat-fed cat keeps the types of its needs."""
    return t in cat.need_types or (plate.mode == FED and plate.eaten[t] > 0)


# What the cats decided so far on a path of the search tell the bound: their most VP as
# decided, the cats fed and left hungry (by cat count: a treat may still feed the hungry),
# the multicoloured cats left hungry, the catnip, costumes and toys the decisions took off
# the most, and the food fed "any food" eaters may still eat on top (what is left).
_Decided = tuple[int, int, int, int, int, int, int, int]

# Searches over fewer cats than this go without the bound: its tables cost more than
# searching a handful of cats does.
_BOUND_FROM_CATS = 5


@dataclass(frozen=True, slots=True)
class _Bound:
    """An optimistic bound on every plan below a node of the search (branch and bound).

    A node is cut when an option already found is at least as good, in every way
    :func:`_dominates` compares, as the bound: every plan below would then be refused, so
    the options found are the same. Each cat is counted at the most it can be worth fed
    (its ability at the largest count it could read: every cat of its colour, every token,
    every toy...), and at ``hungry_best`` unfed; the treats add what they gain over hunger
    for as many hungry cats as there are treats; toys, catnip and boxes at their most. The
    cats still to decide share the tokens left: ``vp_later[d][left]`` is their most VP (a
    0/1 knapsack of what feeding each gains over unfed, weighed by the least food it can
    eat, food types ignored) and ``fed_later[d][left]`` the most of them that could be fed.
    Costumes, toys, catnip and multicoloured cats are counted as if every cat not left
    hungry were fed (and the hungry got treats), and the leftover as if the cats still to
    decide ate all they could."""

    fed_best: tuple[int, ...]  # per cat index: the most it is worth fed normally
    hungry_best: tuple[int, ...]  # per cat index: hungry (the treats are in vp_later)
    vp_later: tuple[tuple[int, ...], ...]  # [depth][tokens left], toys/catnip/boxes included
    fed_later: tuple[tuple[int, ...], ...]  # [depth][tokens left]
    count_later: tuple[int, ...]  # [depth]: the cats from there on, by cat count
    treat_fed: int  # the most cat count the treats can feed
    treat_vp: int  # what a cat fed a treat is worth
    bonus: int  # the largest Hemingway bonus (0 without one)
    multicoloured: int
    treats: int
    catnip: int  # the most catnip (held, plus every cat that counts as catnip)
    costumes: int
    toys: int
    catnip_added: tuple[int, ...]  # per cat index: catnip it adds when fed normally
    costumes_added: tuple[int, ...]
    toys_added: tuple[int, ...]
    total: int  # food tokens and wilds held
    tokens: int  # everything held that can be left over, less the treats (always used)
    later_eaten: tuple[int, ...]  # per depth: the most the cats from there on can eat

    @classmethod
    def of(cls, search: _Search) -> _Bound:
        s = search.scoring
        cats = search.cats
        order = search.order
        width = search.total + 1
        weight = _least_food(search)
        fed_later = _knapsack(order, weight, [0] * len(cats), [c.cat_count for c in cats], 0, width)
        most = _Most.of(search, fed_later[0][search.total])
        fed_best = [most.fed_value(c) for c in cats]
        hungry_best = [s.unfed_cat_vp * c.cat_count for c in cats]
        # A treat feeds a cat the search left hungry: the treats add at most the largest
        # gains over hunger, one cat each.
        treat_gains = sorted((s.treat_fed_vp - unfed for unfed in hungry_best), reverse=True)
        treat_bonus = sum(g for g in treat_gains[: search.treats] if g > 0)
        # Little Nicky adds the VP of the best other fed cat that copies nobody (fed normally
        # or with a treat).
        copied = max(
            [0, s.treat_fed_vp if search.treats else 0]
            + [
                fed
                for c, fed in zip(cats, fed_best, strict=True)
                if c.spec.ability != "copy_fed_cat_vp"
            ]
        )
        fed_best = [
            v + copied if c.spec.ability == "copy_fed_cat_vp" else v
            for c, v in zip(cats, fed_best, strict=True)
        ]
        unfed = list(hungry_best)
        gains = [fed - hungry for fed, hungry in zip(fed_best, hungry_best, strict=True)]
        for i, plate in search.fixed.items():  # kept from Scrappy's first feeding, as it was
            unfed[i] = {FED: fed_best[i], TREAT: s.treat_fed_vp}.get(plate.mode, hungry_best[i])
            gains[i] = 0
        vp_later = _knapsack(order, weight, unfed, gains, most.extras + treat_bonus, width)
        bonus = max(
            [0]
            + [
                int(str(c.spec.params["vp_most"])) - int(str(c.spec.params["vp_otherwise"]))
                for c in search.hemingways
            ]
        )
        count_later = [0] * (len(order) + 1)
        later = [0] * (len(order) + 1)
        for d in range(len(order) - 1, -1, -1):
            count_later[d] = count_later[d + 1] + order[d].cat_count
            later[d] = sum(search.later_typed[d]) + search.later_any[d]
        adds = {what: dict(pairs) for what, pairs in search.adds.items()}
        return cls(
            fed_best=tuple(fed_best),
            hungry_best=tuple(hungry_best),
            vp_later=vp_later,
            fed_later=fed_later,
            count_later=tuple(count_later),
            treat_fed=most.treat_fed,
            treat_vp=s.treat_fed_vp,
            bonus=bonus,
            multicoloured=most.multicoloured,
            treats=search.treats,
            catnip=most.catnip,
            costumes=most.costumes,
            toys=most.toys,
            catnip_added=tuple(adds["catnip"].get(c.index, 0) for c in cats),
            costumes_added=tuple(adds["costumes"].get(c.index, 0) for c in cats),
            toys_added=tuple(adds["toys"].get(c.index, 0) for c in cats),
            total=search.total,
            tokens=search.tokens - search.treats,
            later_eaten=tuple(later),
        )

    def decide(self, decided: _Decided, cat: _Cat, plate: Plate) -> _Decided:
        """``decided`` once ``cat`` gets ``plate``: fed normally, hungry for now, or fed a
        treat already (a plate kept from Scrappy's first feeding)."""
        vp, fed, hungry, multi, catnip, costumes, toys, rest = decided
        i = cat.index
        if plate.mode == FED:
            vp += self.fed_best[i]
            fed += cat.cat_count
            catnip += plate.catnip
            if plate.rest:
                rest += self.tokens if plate.cap is None else plate.cap - plate.any
        elif plate.mode == TREAT:
            vp += self.treat_vp
            fed += cat.cat_count
            catnip += self.catnip_added[i]
            costumes += self.costumes_added[i]
            toys += self.toys_added[i]
        else:
            vp += self.hungry_best[i]
            hungry += cat.cat_count
            multi += cat.multicoloured
            catnip += self.catnip_added[i]
            costumes += self.costumes_added[i]
            toys += self.toys_added[i]
        return vp, fed, hungry, multi, catnip, costumes, toys, rest

    def beaten(self, options: Sequence[Option], decided: _Decided, depth: int, eaten: int) -> bool:
        """Whether an option in ``options`` is at least as good as every plan below the
        node at ``depth`` where ``decided`` holds and ``eaten`` food is eaten."""
        vp, fed, hungry, multi, catnip, costumes, toys, rest = decided
        left = self.total - eaten
        if left < 0:
            return False  # (infeasible: the search drops it anyway)
        vp += self.vp_later[depth][left]
        with_bonus = vp + self.bonus
        fed_later = self.fed_later[depth][left]
        # The treats feed hungry cats: those left hungry so far, or later ones.
        fed += fed_later + min(self.treat_fed, hungry + self.count_later[depth] - fed_later)
        treats = self.treats
        multicoloured = self.multicoloured - multi + min(treats, multi)
        catnip = self.catnip - catnip
        costumes = self.costumes - costumes
        toys = self.toys - toys
        least_left = max(0, self.tokens - (eaten + rest + self.later_eaten[depth]))
        for old in options:
            if (
                old.vp >= vp
                and old.vp + old.bonus >= with_bonus
                and old.fed >= fed
                and old.costumes >= costumes
                and old.toys >= toys
                and old.catnip >= catnip
                and old.multicoloured_fed >= multicoloured
                and old.leftover <= least_left
            ):
                return True
        return False


def _least_food(search: _Search) -> dict[int, int]:
    """Per cat index: the least food it can be fed with (a fixed plate is paid already)."""
    return {
        c.index: 0
        if c.index in search.fixed
        else min(
            sum(m.typed) + m.any
            for m in ((*c.meals, *c.reduced_meals) if search.sherry else c.meals)
        )
        for c in search.cats
    }


def _knapsack(
    order: Sequence[_Cat],
    weight: Mapping[int, int],
    unfed: Sequence[int],
    gain: Sequence[int],
    start: int,
    width: int,
) -> tuple[tuple[int, ...], ...]:
    """``[depth][left]``: ``start`` plus the most the cats from ``depth`` on add sharing
    ``left`` tokens, each ``unfed[i]`` and ``gain[i]`` more if fed (a 0/1 knapsack by the
    least food each eats, food types ignored). Indexed by cat index."""
    row = [start] * width
    rows = [tuple(row)]
    for cat in reversed(order):
        i = cat.index
        w = weight[i]
        u = unfed[i]
        g = gain[i]
        row = [
            v + u + max(0, g)
            if w == 0
            else (v + u if left < w else max(v + u, row[left - w] + u + g))
            for left, v in enumerate(row)
        ]
        rows.append(tuple(row))
    return tuple(reversed(rows))


@dataclass(frozen=True, slots=True)
class _Most:
    """The most of each count the abilities read that any plan of one search can hold
    (the largest counts :class:`_Bound` assumes)."""

    search: _Search
    fed: int  # cats fed at once, by cat count, treats included
    treat_fed: int  # the most cat count the treats can feed
    costumes: int
    toys: int
    toys_least: int
    catnip: int
    multicoloured: int
    masks: tuple[int, ...]
    of_type: tuple[int, ...]  # per food type: its tokens, wilds and Moonbeam's conversions
    extras: int  # toys, catnip and boxes at their most
    toy_vp: int

    @classmethod
    def of(cls, search: _Search, fed_normally: int) -> _Most:
        h = search.h
        s = search.scoring
        cats = search.cats
        adds = {what: sum(n for _, n in pairs) for what, pairs in search.adds.items()}
        extra_toys = h.wild_toys + adds["toys"]
        catnip = h.catnip + adds["catnip"]
        catnip_eaten = sum(
            max((m.catnip for m in (*c.meals, *c.reduced_meals)), default=0) for c in cats
        )
        n_cats = sum(c.cat_count for c in cats)
        treat_fed = search.treats * max((c.cat_count for c in cats), default=0)
        toy_vp = max(
            _best_toys(search.toys_held, extra, s.toy_set_vp)[0] for extra in range(extra_toys + 1)
        )
        catnip_vp = max(
            s.catnip_vp(k, fed)
            for k in range(max(0, h.catnip - catnip_eaten), catnip + 1)
            for fed in range(n_cats + 1)
        )
        can_fill = sum(1 for c in cats if c.spec.can_fill_box)
        converts = sum(
            int(str(c.spec.params["count"])) for c in cats if c.spec.ability == "food_as_wild"
        )
        return cls(
            search=search,
            fed=min(n_cats, fed_normally + treat_fed),
            treat_fed=treat_fed,
            costumes=h.costumes + adds["costumes"],
            toys=search.toy_cards + extra_toys,
            toys_least=search.toy_cards + h.wild_toys,
            catnip=catnip,
            multicoloured=sum(1 for c in cats if c.multicoloured),
            masks=tuple(m for c in cats for m in c.masks),
            of_type=tuple(min(search.total, have + search.wild + converts) for have in search.have),
            extras=toy_vp + catnip_vp + len(h.boxes) * min(len(h.boxes), can_fill),
            toy_vp=toy_vp,
        )

    def fed_value(self, cat: _Cat) -> int:
        """The most ``cat`` can be worth fed normally, its ability at its largest count."""
        search = self.search
        spec = cat.spec
        p = spec.params
        vp = spec.vp or 0
        ability = spec.ability
        if ability is None or ability not in _ABILITY_VP:
            return vp
        if ability == "most_fed_cats":
            return vp + int(str(p["vp_otherwise"]))
        if ability == "toy_sets_vp":
            return vp + self.toy_vp
        each = _each(p)
        if ability == "penalty_per_toy":
            return vp + max(-each * self.toys_least, -each * self.toys)
        others = min(len(search.cats), self.fed) - 1
        foods = search.edition.foods
        if ability == "per_colour_fed":
            bit = 1 << search.edition.colours.index(p["colour"])
            count = min(self.fed, sum(1 for m in self.masks if m & bit))
        elif ability == "per_food_used":
            food = str(p["food"])
            if food == "any":
                count = search.total + search.treats
            else:
                count = self.of_type[foods.index(food)]
        elif ability == "per_food_type_cat":
            count = min(self.fed, self._eaters_of(foods.index(str(p["food"]))))
        elif ability == "vp_per_food_fed":
            hi = p["max"]
            count = search.total if hi is None else min(search.total, int(str(hi)))
        elif ability in ("per_other_fed_cat_eating_food", "per_one_food_cat"):
            count = others
        elif ability == "per_costume":
            count = self.costumes
        elif ability == "per_toy":
            count = self.toys
        elif ability == "food_sets_used":
            count = min([search.total // max(1, search.n), *self.of_type])
        elif ability == "discard_for_vp":
            count = search.h.spray_bottles + search.h.lost_cats
        elif ability == "per_multicoloured_fed":
            count = min(self.multicoloured, self.fed)
        else:
            assert ability == "colour_sets", ability  # every ability of _ABILITY_VP is above
            count = colour_sets(self.masks, search.full_mask)
        return vp + max(0, each * count)

    def _eaters_of(self, t: int) -> int:
        """Cats that can count as eating food type ``t`` (their needs, or a meal)."""
        return sum(
            1
            for c in self.search.cats
            if t in c.need_types
            or any(m.typed[t] or m.any or m.rest for m in (*c.meals, *c.reduced_meals))
        )


def _search_key(c: _Cat) -> tuple[object, ...]:
    """The order cats are decided in: abilities that must come first, then plain cats
    (alike ones next to each other, the most valuable first), cats whose worth varies with
    food last."""
    variable = c.spec.ability in ("vp_per_food_fed", "per_other_fed_cat_eating_food")
    plain = c.spec.ability is None
    return (
        c.spec.ability not in _FIRST,
        variable,
        not plain,
        c.spec.needs if plain else (),
        c.spec.needs_any if plain else 0,
        -(c.spec.vp or 0),
        c.index,
    )


class _Search:
    def __init__(self, holdings: Holdings, edition: Edition) -> None:
        self.h = holdings
        self.edition = edition
        self.scoring = edition.scoring
        foods = edition.foods
        self.n = len(foods)
        food = holdings.food
        have = [int(food.get(f, 0)) for f in foods]
        wild = int(food.get("wild", 0))
        if holdings.cat_player:
            wild += sum(have)  # RB-BOT: every chicken, tuna and milk is wild for the cat player
            have = [0] * self.n
        self.have = tuple(have)
        self.wild = wild
        self.treats = int(food.get("treat", 0))
        self.total = sum(have) + wild
        self.tokens = sum(int(n) for n in food.values())  # food, wilds and treats
        self.cats = [_compile(c, i, edition) for i, c in enumerate(holdings.cats)]
        self.fixed = dict(holdings.fixed)
        self.order = sorted(self.cats, key=_search_key)
        self.later_typed, self.later_any = self._later_bounds()
        self.twin = self._twins()
        self.sherry = [c.index for c in self.cats if c.spec.ability == "reduce_needs"]
        self.full_mask = sum(
            1 << i for i, c in enumerate(edition.colours) if c.value in ("black", "orange", "white")
        )
        self.has_rest = any(m.rest for c in self.cats for m in c.meals)
        self.type_sensitive = bool(holdings.boxes) or any(
            c.spec.ability in _TYPE_SENSITIVE for c in self.cats
        )
        self.allocation_reads = self._allocation_reads()
        # The plates of a cat left hungry or fed a treat: the same for every cat and plan.
        self.hungry = _eating(HUNGRY, (0,) * self.n)
        self.treated = _eating(TREAT, (0,) * self.n, treat=1)
        self.options: list[Option] = []
        self.bound: _Bound | None = None  # set by run() for searches large enough
        self.leftovers: dict[tuple[tuple[int, ...], int], dict[str, int]] = {}
        self.treat_choices: dict[tuple[int, ...], list[tuple[_Cat, ...]]] = {}
        self.eaten_plates: dict[Plate, Plate] = {}
        self.allocations: dict[
            tuple[tuple[tuple[int, int], ...], tuple[int, ...], int, int],
            list[tuple[tuple[int, ...], ...]],
        ] = {}
        self.counts_colours = any(
            c.spec.ability in ("per_colour_fed", "colour_sets") for c in self.cats
        )
        self.treat_reads = self._treat_reads()
        # Cats that add costumes, toys or catnip when fed normally: (index, how many), in order.
        self.adds = {
            what: [
                (c.index, int(str(c.spec.params[what])))
                for c in self.cats
                if c.spec.ability == ability
            ]
            for what, ability in (
                ("costumes", "counts_as_costume"),
                ("toys", "counts_as_toy"),
                ("catnip", "counts_as_catnip"),
            )
        }
        self.toys_held = tuple(holdings.toys)
        self.best_toys: dict[int, tuple[int, tuple[int, ...]]] = {}  # by wild toys
        # The cats a plan's end-of-game steps look at, in seat order (most plans have none).
        self.hemingways = [c for c in self.cats if c.spec.ability == "most_fed_cats"]
        self.discarders = [c for c in self.cats if c.spec.ability == "discard_for_vp"]
        self.catnip_eaters = [
            c.index for c in self.cats if any(m.catnip for m in (*c.meals, *c.reduced_meals))
        ]
        self.toy_cards = sum(holdings.toys)

    def _later_bounds(self) -> tuple[list[list[int]], list[int]]:
        """Upper bounds of what the cats from each depth on could eat (typed, any), for the
        hungry-branch cut: with an unbounded eater (Cow) nothing is ever cut."""
        n = self.n
        later_typed = [[0] * n for _ in range(len(self.order) + 1)]
        later_any = [0] * (len(self.order) + 1)
        for d in range(len(self.order) - 1, -1, -1):
            cat = self.order[d]
            typed = [0] * n
            any_ = 0
            for meal in cat.meals:
                if meal.rest:
                    any_ = max(any_, self.total if meal.cap is None else meal.cap)
                any_ = max(any_, meal.any)
                typed = [max(a, b) for a, b in zip(typed, meal.typed, strict=True)]
            later_typed[d] = [a + b for a, b in zip(later_typed[d + 1], typed, strict=True)]
            later_any[d] = later_any[d + 1] + any_
        return later_typed, later_any

    def _twins(self) -> list[bool]:
        """Per depth: the previous depth holds a plain cat identical in needs, colours and
        cat count and worth at least as much; feeding this one while it starves is a mirror
        image of the other way round, so it is skipped."""
        # Colours only matter to colour abilities, multicoloured counts and coloured boxes.
        colour_blind = not any(
            c.spec.ability in ("per_colour_fed", "colour_sets", "per_multicoloured_fed")
            for c in self.cats
        ) and not any(b.colour is not None for b in self.h.boxes)
        twin = [False] * len(self.order)
        for d in range(1, len(self.order)):
            a, b = self.order[d - 1].spec, self.order[d].spec
            twin[d] = (
                a.ability is None
                and b.ability is None
                and a.needs == b.needs
                and a.needs_any == b.needs_any
                and a.cat_count == b.cat_count
                and a.stray == b.stray
                and a.can_fill_box == b.can_fill_box
                and (colour_blind or (a.colours == b.colours and a.members == b.members))
                and (a.vp or 0) >= (b.vp or 0)
            )
        return twin

    # -- search ---------------------------------------------------------------------------

    def run(self) -> list[Option]:
        plates: list[Plate | None] = [None] * len(self.cats)
        self.bound = _Bound.of(self) if len(self.cats) >= _BOUND_FROM_CATS else None
        self._dfs(0, plates, [0] * self.n, 0, 0, 0, False, (0,) * 8)
        return self.options

    def _alternatives(self, cat: _Cat, sherry_fed: bool) -> list[Plate]:
        if cat.index in self.fixed:
            return [self.fixed[cat.index]]
        # Treats are handed out at the end of a plan, to cats the plan leaves hungry (see
        # _leaf): a cat fed a treat eats no food, so which cats get one does not change what
        # the rest of the plan can pay for.
        alts = list(cat.reduced_meals if sherry_fed else cat.meals)
        alts.append(self.hungry)
        return alts

    def _dfs(
        self,
        depth: int,
        plates: list[Plate | None],
        typed: list[int],
        any_: int,
        treats: int,
        convert: int,
        sherry_fed: bool,
        decided: _Decided,
    ) -> None:
        """``decided``: what the cats decided so far tell the bound (see :class:`_Bound`)."""
        bound = self.bound
        if (
            bound is not None
            and self.options
            and bound.beaten(self.options, decided, depth, sum(typed) + any_)
        ):
            return  # every plan below would be refused: an option found is as good
        if depth == len(self.order):
            self._leaf(plates, typed, any_, treats, convert)
            return
        cat = self.order[depth]
        fixed_here = cat.index in self.fixed
        alternatives = self._alternatives(cat, sherry_fed)
        if not fixed_here and self.twin[depth]:
            prev = plates[self.order[depth - 1].index]
            if prev is not None and prev.mode == HUNGRY:
                alternatives = [a for a in alternatives if a.mode == HUNGRY]
        elif (
            not fixed_here
            and cat.spec.ability in _NEVER_WORSE_FED
            and self._hungry_never_best(depth, cat, alternatives, typed, any_, treats, convert)
        ):
            alternatives = [a for a in alternatives if a.mode != HUNGRY]
        for plate in alternatives:
            fixed = fixed_here
            t2 = typed if fixed else [a + b for a, b in zip(typed, plate.typed, strict=True)]
            a2 = any_ if fixed else any_ + plate.any
            tr2 = treats if fixed else treats + plate.treat
            c2 = convert
            s2 = sherry_fed
            if plate.mode == FED and cat.spec.ability == "food_as_wild":
                c2 += int(str(cat.spec.params["count"]))
            if plate.mode == FED and cat.spec.ability == "reduce_needs":
                s2 = True
            if tr2 > self.treats or not self._feasible(t2, a2, c2):
                continue
            plates[cat.index] = plate
            self._dfs(
                depth + 1,
                plates,
                t2,
                a2,
                tr2,
                c2,
                s2,
                decided if bound is None else bound.decide(decided, cat, plate),
            )
            plates[cat.index] = None

    def _not_maximal(
        self, plates: list[Plate], typed: list[int], any_: int, treats: int, convert: int
    ) -> bool:
        """A hungry never-worse-fed cat that the leftovers (or a treat) could feed: the same
        plan with it fed is better in every way, and is searched too."""
        for cat in self.cats:
            if plates[cat.index].mode != HUNGRY or cat.index in self.fixed:
                continue
            if not self._feeding_beats_a_treat(cat):
                continue
            for meal in cat.reduced_meals if self.sherry_fed(plates) else cat.meals:
                if (
                    meal.mode == FED
                    and not meal.rest
                    and self._feasible(
                        [a + b for a, b in zip(typed, meal.typed, strict=True)],
                        any_ + meal.any,
                        convert,
                    )
                ):
                    return True
        return False

    def _feeding_beats_a_treat(self, cat: _Cat) -> bool:
        # Without treats, feeding a never-worse cat beats hunger. With treats, a plan may
        # rather give it a treat and its food to others; feeding it is then only surely at
        # least as good for a plain cat worth at least what a treat-fed cat is worth.
        if cat.spec.ability not in _NEVER_WORSE_FED:
            return False
        if not self.treats:
            return True
        return cat.spec.ability is None and (cat.spec.vp or 0) >= self.scoring.treat_fed_vp

    def sherry_fed(self, plates: list[Plate]) -> bool:
        return any(plates[k].mode == FED for k in self.sherry)

    def _hungry_never_best(
        self,
        depth: int,
        cat: _Cat,
        alternatives: list[Plate],
        typed: list[int],
        any_: int,
        treats: int,
        convert: int,
    ) -> bool:
        """True when this cat could be fed (its food, or a treat) whatever the later cats
        eat: then a plan leaving it hungry is beaten by the same plan with it fed."""
        if not self._feeding_beats_a_treat(cat):
            return False
        bound_t = self.later_typed[depth + 1]
        bound_a = self.later_any[depth + 1]
        for meal in alternatives:
            if meal.mode != FED or meal.rest:
                continue
            trial = [a + b + c for a, b, c in zip(typed, meal.typed, bound_t, strict=True)]
            if self._feasible(trial, any_ + meal.any + bound_a, convert):
                return True
        return False

    def _feasible(self, typed: Sequence[int], any_: int, convert: int) -> bool:
        short = spare = 0
        for need, got in zip(typed, self.have):  # noqa: B905 - hot path
            if need > got:
                short += need - got
            else:
                spare += got - need
        if short > self.wild + min(convert, spare):
            return False
        return sum(typed) + any_ <= self.total

    # -- a complete plan --------------------------------------------------------------------

    def _leaf(
        self, plates: list[Plate | None], typed: list[int], any_: int, treats: int, convert: int
    ) -> None:
        final = [p for p in plates if p is not None]
        assert len(final) == len(plates)  # a leaf has a plate for every cat
        if not self.has_rest and self._not_maximal(final, typed, any_, treats, convert):
            return
        catnip_supply = self.h.catnip + sum(
            int(str(c.spec.params["catnip"]))
            for c in self.cats
            if c.spec.ability == "counts_as_catnip" and final[c.index].mode == FED
        )
        catnip_eaten = sum(p.catnip for p in final if p is not None and p.mode == FED)
        if catnip_eaten > catnip_supply:
            return
        # Ginger must eat a catnip if she can (RB-PREM): a plan leaving her hungry, or fed a
        # treat, while a catnip and her food are there is not allowed.
        for cat in self.cats:
            if cat.spec.ability != "eats_catnip" or final[cat.index].mode == FED:
                continue
            if cat.index in self.fixed:
                continue
            meal = cat.meals[0]
            if catnip_supply - catnip_eaten >= meal.catnip:
                t2 = [a + b for a, b in zip(typed, meal.typed, strict=True)]
                if self._feasible(t2, any_ + meal.any, convert):
                    return
        hungry = [
            c for c in self.cats if final[c.index].mode == HUNGRY and c.index not in self.fixed
        ]
        for treated in self._treat_choices(hungry):
            plan = list(final)
            for cat in treated:
                plan[cat.index] = self.treated
            self._finish(plan, list(typed), any_, len(treated), convert)

    def _treat_choices(self, hungry: list[_Cat]) -> list[tuple[_Cat, ...]]:
        """Which hungry cats get the treats. A treat is never worse than hunger (1 VP instead
        of -2, one more fed cat, one less leftover), so every treat is used; when there are
        more hungry cats than treats, each different kind of cat is tried."""
        if self.treats >= len(hungry):
            return [tuple(hungry)]
        key = tuple(c.index for c in hungry)
        known = self.treat_choices.get(key)
        if known is None:
            known = self.treat_choices[key] = self._treat_choices_of(hungry)
        return known

    def _treat_choices_of(self, hungry: list[_Cat]) -> list[tuple[_Cat, ...]]:
        kinds: dict[tuple[object, ...], list[_Cat]] = {}
        for cat in hungry:
            spec = cat.spec
            key = (
                cat.masks,
                spec.cat_count,
                tuple(f for f, _ in spec.needs),
                cat.natural,
                spec.multicoloured,
                spec.ability == "eats_catnip",
            )
            kinds.setdefault(key, []).append(cat)
        groups = list(kinds.values())
        choices = []
        for counts in _splits(self.treats, [len(g) for g in groups]):
            choices.append(tuple(c for g, k in zip(groups, counts, strict=True) for c in g[:k]))
            if len(choices) >= 64:
                break
        # Two choices that differ only in what no ability of this player reads score the
        # same in every way an option is compared: the later one would be refused (an equal
        # option, or one at least as good, is kept already). Only the first is tried.
        tried = []
        seen = set()
        for choice in choices:
            scored_as = tuple(sorted(self._read_of_treated(c) for c in choice))
            if scored_as not in seen:
                seen.add(scored_as)
                tried.append(choice)
        return tried

    def _treat_reads(self) -> tuple[bool, bool, bool]:
        """Whether an ability counts fed cats (a treat-fed one too) by their colours, by the
        food types they are "food cats" of, or by their printed food count."""
        abilities = {c.spec.ability for c in self.cats}
        return (
            self.counts_colours,
            bool(abilities & {"per_other_fed_cat_eating_food", "per_food_type_cat"}),
            "per_one_food_cat" in abilities,
        )

    def _read_of_treated(self, cat: _Cat) -> tuple[object, ...]:
        """What the plan's numbers read of a cat fed a treat: it counts as fed (its cat
        count, multicoloured or not) and is worth the treat's VP, its ability unused; its
        colours, food types and printed food count matter only to the abilities that count
        fed cats by them."""
        spec = self.treat_reads
        return (
            cat.spec.cat_count,
            cat.spec.multicoloured,
            cat.spec.ability == "eats_catnip",
            cat.masks if spec[0] else (),
            cat.need_types if spec[1] else frozenset(),
            cat.natural if spec[2] else None,
        )

    def _finish(
        self, final: list[Plate], typed: list[int], any_: int, treats: int, convert: int
    ) -> None:
        # Cow and Calf eat what is left, the cat worth most per food first.
        left = self.total - sum(typed) - any_
        rest = sorted(
            (
                c
                for c in self.cats
                if final[c.index].mode == FED and final[c.index].rest and c.index not in self.fixed
            ),
            key=lambda c: (-int(str(c.spec.params.get("vp_each", 0))), c.index),
        )
        for cat in rest:
            plate = final[cat.index]
            assert plate is not None
            room = left if plate.cap is None else min(left, plate.cap - plate.any)
            if room > 0:
                final[cat.index] = _with_any(plate, plate.any + room)
                left -= room
                any_ += room
        self._allocate_and_score(final, typed, any_, treats, convert)

    def _allocate_and_score(
        self, plates: list[Plate], typed: list[int], any_: int, treats: int, convert: int
    ) -> None:
        # Pay typed food: every type's own tokens first, then wilds, then Moonbeam's
        # conversions of the food no type needs. (Converting while some types were still
        # unpaid took tokens another type needed, which hid allocations that fit: Cow eating
        # tuna beside Moonbeam and Truffle.)
        rem = [have - min(have, need) for have, need in zip(self.have, typed, strict=True)]
        wild = self.wild
        for t in range(self.n):
            short = typed[t] - min(self.have[t], typed[t])
            w = min(wild, short)
            wild -= w
            short -= w
            while short > 0 and convert > 0:
                donor = max(range(self.n), key=lambda k: rem[k])
                if rem[donor] == 0:
                    break
                rem[donor] -= 1
                convert -= 1
                short -= 1
        fixed_any = [
            (c.index, plates[c.index].any)
            for c in self.cats  # noqa: C416
            if plates[c.index].mode == FED and plates[c.index].any and c.index not in self.fixed
        ]
        best: tuple[_Tally, list[Plate]] | None = None
        # Every plate not given "any food" eats the same in each allocation: build it once.
        eating = [p if p.eaten else self._eaten_as_typed(p) for p in plates]
        # Allocations that differ only in what no ability reads tally the same, and only a
        # strictly better one replaces the best: each reading is tallied once.
        # (Not when an eater's own ability reads its meal: Truffle given "any food" counts
        # the type she ate most of, which no card does yet.)
        tallied: set[tuple[object, ...]] = set()
        once = self.type_sensitive and not any(
            index in self.allocation_reads[2] for index, _ in fixed_any
        )
        for allocation in self._allocations(fixed_any, rem, wild, convert):
            if once:
                read = self._read_of_allocation(fixed_any, plates, allocation)
                if read in tallied:
                    continue
                tallied.add(read)
            final = list(eating)
            for (index, _), split in zip(fixed_any, allocation, strict=True):
                p = plates[index]
                final[index] = _eat(p, [a + b for a, b in zip(p.typed, split, strict=True)])
            tally = self._tally(final)
            if best is None or (tally.vp, tally.plan.fed_count) > (
                best[0].vp,
                best[0].plan.fed_count,
            ):
                best = (tally, final)
            if not self.type_sensitive:
                break
        assert best is not None
        # Only the best allocation can become an option, and only when no option found so
        # far is at least as good: its leftover and score pad are built after that check.
        tally, final = best
        used_food = sum(
            sum(p.eaten) for i, p in enumerate(final) if p.mode == FED and i not in self.fixed
        )
        # Every food eaten takes one token (its own, a wild or a converted one), and every
        # treat one treat: what is left is counted without working out which tokens.
        if self._refused(tally, self.tokens - used_food - treats):
            return
        self._add(self._option(tally, self._leftover(final, treats, used_food)))

    def _allocation_reads(self) -> tuple[tuple[int, ...], bool, frozenset[int]]:
        """What the abilities and boxes read of the types "any food" eaters are given: the
        food types whose totals count (per food used, food sets), whether it matters which
        types each eater ate some of (food-type cats, Truffle's "eats that food", boxes that
        want a food), and the cats whose own ability reads their whole meal (Truffle
        counts the type she ate most of)."""
        foods = self.edition.foods
        totals: set[int] = set()
        masks = any(box.food is not None for box in self.h.boxes)
        meals: set[int] = set()
        for c in self.cats:
            ability, p = c.spec.ability, c.spec.params
            if ability == "food_sets_used":
                totals.update(range(self.n))
            elif ability == "per_food_used" and str(p["food"]) != "any":
                totals.add(foods.index(str(p["food"])))
            elif ability == "per_food_type_cat":
                masks = True
            elif ability == "per_other_fed_cat_eating_food":
                masks = True
                meals.add(c.index)
        return tuple(sorted(totals)), masks, frozenset(meals)

    def _read_of_allocation(
        self,
        eaters: list[tuple[int, int]],
        plates: list[Plate],
        allocation: tuple[tuple[int, ...], ...],
    ) -> tuple[object, ...]:
        """What a plan's tally reads of one allocation (see :meth:`_allocation_reads`)."""
        totals, masks, _ = self.allocation_reads
        read: list[object] = [tuple(sum(split[t] for split in allocation) for t in totals)]
        if masks:
            for (index, _), split in zip(eaters, allocation, strict=True):
                typed = plates[index].typed
                read.append(tuple(a + b > 0 for a, b in zip(typed, split, strict=True)))
        return tuple(read)

    def _eaten_as_typed(self, plate: Plate) -> Plate:
        known = self.eaten_plates.get(plate)
        if known is None:
            known = self.eaten_plates[plate] = _eat(plate, list(plate.typed))
        return known

    def _allocations(
        self, eaters: list[tuple[int, int]], rem: list[int], wild: int, convert: int
    ) -> list[tuple[tuple[int, ...], ...]]:
        """Ways to give each "any food" eater types, within the food that is left.

        A type the eaters want more of than is left is paid with wilds, then with Moonbeam's
        unused conversions of food nobody else eats (Cow may eat a milk turned into chicken).
        Many plans of a search leave the same eaters the same food: listed once for them.
        """
        key = (tuple(eaters), tuple(rem), wild, convert)
        known = self.allocations.get(key)
        if known is None:
            known = self.allocations[key] = self._allocations_of(eaters, list(rem), wild, convert)
        return known

    def _allocations_of(
        self, eaters: list[tuple[int, int]], rem: list[int], wild: int, convert: int
    ) -> list[tuple[tuple[int, ...], ...]]:
        if not eaters:
            return [()]
        if not self.type_sensitive:
            return [tuple(_greedy_split(k, rem, wild) for _, k in eaters)]
        result: list[tuple[tuple[int, ...], ...]] = []
        per_cat = [list(_compositions(k, self.n)) for _, k in eaters]
        for combo in itertools.product(*per_cat):
            short = surplus = 0
            for total, have in zip(map(sum, zip(*combo)), rem):  # noqa: B905 - n types each
                if total > have:
                    short += total - have
                else:
                    surplus += have - total
            if short <= wild + min(convert, surplus):
                result.append(combo)
                if len(result) >= _MAX_ALLOCATIONS:
                    break
        return result or [tuple(_greedy_split(k, rem, wild) for _, k in eaters)]

    def _leftover(self, plates: list[Plate], treats: int, used: int) -> dict[str, int]:
        """Leftover tokens: each type's own tokens are used first, then wilds."""
        eaten = [0] * self.n
        for i, p in enumerate(plates):
            if p.mode == FED and i not in self.fixed:
                for t in range(self.n):
                    eaten[t] += p.eaten[t]
        key = (tuple(eaten), treats)
        known = self.leftovers.get(key)
        if known is None:
            known = self.leftovers[key] = self._leftover_of(eaten, treats)
        return dict(known)

    def _leftover_of(self, eaten: list[int], treats: int) -> dict[str, int]:
        tokens = dict(self.h.food)
        if self.h.cat_player:
            tokens = {
                "wild": sum(int(v) for k, v in tokens.items() if k != "treat"),
                "treat": int(tokens.get("treat", 0)),
            }
        for t, food in enumerate(self.edition.foods):
            own = min(int(tokens.get(food, 0)), eaten[t])
            tokens[food] = int(tokens.get(food, 0)) - own
            tokens["wild"] = int(tokens.get("wild", 0)) - (eaten[t] - own)
        # Moonbeam's conversions: a negative wild count is paid from the largest surplus.
        while tokens.get("wild", 0) < 0:
            donor = max(self.edition.foods, key=lambda f: tokens.get(f, 0))
            tokens[donor] -= 1
            tokens["wild"] += 1
        tokens["treat"] = int(tokens.get("treat", 0)) - treats
        return {k: v for k, v in tokens.items() if v}

    # -- scoring one plan ---------------------------------------------------------------------

    def _tally(self, plates: list[Plate]) -> _Tally:
        """The VP of one complete plan, each cat's and in all (what picks the best way to
        give "any food" its types); :meth:`_option` makes the chosen one an option."""
        s = self.scoring
        plan = self._plan(plates)
        cat_vp = [s.unfed_cat_vp * c.cat_count for c in self.cats]
        copiers = []
        for c in plan.fed:
            if plates[c.index].mode == TREAT:
                cat_vp[c.index] = s.treat_fed_vp  # RB-BOT: worth exactly 1 VP, no ability
            elif c.spec.ability == "copy_fed_cat_vp":
                copiers.append(c)
                cat_vp[c.index] = c.spec.vp or 0
            elif c.spec.ability is None:
                cat_vp[c.index] = c.spec.vp or 0
            else:
                vp_of = _ABILITY_VP.get(c.spec.ability, _no_vp)
                cat_vp[c.index] = (c.spec.vp or 0) + vp_of(self, plan, c, c.spec.params)
        copies = self._copies(plan, copiers, cat_vp)
        boxes_vp, filled = self._boxes(plates)
        catnip_vp = s.catnip_vp(plan.catnip, plan.fed_count)
        vp = sum(cat_vp) + plan.toy_vp + catnip_vp + boxes_vp
        return _Tally(plan, cat_vp, copies, catnip_vp, boxes_vp, filled, vp)

    def _option(self, tally: _Tally, leftover: dict[str, int]) -> Option:
        """A plan's option: its numbers, score-pad lines and the choices made."""
        plan = tally.plan
        bonus, bonus_cat = self._hemingway(plan)
        choices = self._toy_choice(plan) + self._discard_choice(plan) + tally.copies
        if self.h.boxes:
            choices.append(f"boxes filled: {tally.filled} of {len(self.h.boxes)}")
        lines = {
            "fed_cats": sum(tally.cat_vp),
            "toys": plan.toy_vp,
            "catnip": tally.catnip_vp,
            "boxes": tally.boxes_vp,
            "items": 0,
        }
        return Option(
            vp=tally.vp,
            fed=plan.fed_count,
            leftover=sum(leftover.values()),
            bonus=bonus,
            costumes=plan.costumes,
            toys=plan.toys_count,
            catnip=plan.catnip,
            multicoloured_fed=plan.multicoloured,
            lines=lines,
            plates=tuple(plan.plates),
            cat_vp=tuple(tally.cat_vp),
            bonus_cat=bonus_cat,
            leftover_food=leftover,
            choices=tuple(choices),
        )

    def _plan(self, plates: list[Plate]) -> _Plan:
        """The counts a plan's abilities read, each worked out once."""
        cats = self.cats
        fed = [c for c in cats if plates[c.index].mode != HUNGRY]
        normal = [c for c in cats if plates[c.index].mode == FED]
        colour_counts = [0] * len(self.edition.colours)
        masks: list[int] = []
        if self.counts_colours:  # only the colour abilities read these
            for c in fed:
                for m in c.masks:
                    masks.append(m)
                    for k in range(len(colour_counts)):
                        if m >> k & 1:
                            colour_counts[k] += 1
        # The few cats that add costumes, toys or catnip are listed once per search (adds).
        adds = self.adds
        costumes = self.h.costumes
        if adds["costumes"]:
            costumes += sum(n for i, n in adds["costumes"] if plates[i].mode == FED)
        extra_toys = self.h.wild_toys
        if adds["toys"]:
            extra_toys += sum(n for i, n in adds["toys"] if plates[i].mode == FED)
        toys = self.best_toys.get(extra_toys)
        if toys is None:  # the same for every plan with as many wild toys
            toys = _best_toys(self.toys_held, extra_toys, self.scoring.toy_set_vp)
            self.best_toys[extra_toys] = toys
        toy_vp, toy_types = toys
        catnip = self.h.catnip
        if adds["catnip"]:
            catnip += sum(n for i, n in adds["catnip"] if plates[i].mode == FED)
        for i in self.catnip_eaters:
            if plates[i].mode == FED:
                catnip -= plates[i].catnip
        eaten = [plates[c.index].eaten for c in normal]
        eaten_by_type = (
            [sum(column) for column in zip(*eaten, strict=True)] if eaten else [0] * self.n
        )
        return _Plan(
            plates=plates,
            fed=fed,
            normal=normal,
            fed_count=sum(c.cat_count for c in fed),
            colour_counts=colour_counts,
            masks=masks,
            multicoloured=sum(1 for c in fed if c.multicoloured),
            costumes=costumes,
            extra_toys=extra_toys,
            toy_vp=toy_vp,
            toy_types=toy_types,
            toys_count=self.toy_cards + extra_toys,
            catnip=catnip,
            eaten_by_type=eaten_by_type,
            treats_used=sum(1 for c in fed if plates[c.index].mode == TREAT),
        )

    def _hemingway(self, plan: _Plan) -> tuple[int, int]:
        """The bonus for strictly the most fed cats and the cat earning it (the last fed
        one with the ability), or ``(0, -1)``."""
        bonus, bonus_cat = 0, -1
        for c in self.hemingways:
            if plan.plates[c.index].mode == FED:
                p = c.spec.params
                bonus = int(str(p["vp_most"])) - int(str(p["vp_otherwise"]))
                bonus_cat = c.index
        return bonus, bonus_cat

    def _toy_choice(self, plan: _Plan) -> list[str]:
        if not plan.extra_toys:
            return []
        names = [self.edition.toy_names[self.edition.toy_types[t]] for t in plan.toy_types]
        who = [c.spec.name for c in plan.normal if c.spec.ability == "counts_as_toy"]
        who += ["the wild toy"] * bool(self.h.wild_toys)
        return [f"toy chosen for {' and '.join(who)}: {', '.join(names)}"]

    def _discard_choice(self, plan: _Plan) -> list[str]:
        if not self.h.spray_bottles + self.h.lost_cats:
            return []
        return [
            f"{c.spec.name}: discards {self.h.spray_bottles} spray bottle(s) "
            f"and {self.h.lost_cats} lost cat(s)"
            for c in self.discarders
            if plan.plates[c.index].mode == FED
        ]

    @staticmethod
    def _copies(plan: _Plan, copiers: list[_Cat], cat_vp: list[int]) -> list[str]:
        """Little Nicky: each copier adds the VP of the best other fed cat that copies
        nobody (written into ``cat_vp``); the choices made, for the score pad."""
        choices = []
        for c in copiers:
            others = [o for o in plan.fed if o is not c and o.spec.ability != "copy_fed_cat_vp"]
            if others:
                chosen = max(others, key=lambda o: (cat_vp[o.index], -o.index))
                cat_vp[c.index] = (c.spec.vp or 0) + cat_vp[chosen.index]
                choices.append(
                    f"{c.spec.name} copies {chosen.spec.name} ({cat_vp[chosen.index]} VP)"
                )
        return choices

    def _one_food(self, cat: _Cat, plate: Plate) -> bool:
        # RB-PREM: a cat that naturally eats 1 food (even if Sherry took it to 0), or Cow or
        # Waffle fed exactly 1; not a cat Sherry brought down from 2. A treat-fed cat keeps
        # its printed needs (RB-BOT), so a printed 1-food cat still counts.
        if cat.natural is not None:
            return cat.natural == 1
        return plate.mode == FED and plate.amount == 1

    def _boxes(self, plates: list[Plate]) -> tuple[int, int]:
        boxes = self.h.boxes
        if not boxes:
            return 0, 0
        # RB-BOT: hungry cats and strays may fill a box; one cat per box; Aoshima cannot.
        candidates = []
        for c in self.cats:
            if not c.spec.can_fill_box:
                continue
            fits = []
            for b, box in enumerate(boxes):
                if box.colour is not None and box.colour not in c.spec.colours:
                    continue
                food = None if box.food is None else self.edition.foods.index(box.food)
                if food is not None and not _is_food_cat(c, plates[c.index], food):
                    continue
                fits.append(b)
            if fits:
                candidates.append(fits)
        filled = _max_matching(candidates, len(boxes))
        return filled * len(boxes), filled

    def _refused(self, tally: _Tally, leftover: int) -> bool:
        """Whether :meth:`_add` would refuse the option of ``tally`` (an option already
        found is at least as good), decided on its numbers before the option is built."""
        plan = tally.plan
        vp = tally.vp
        fed = plan.fed_count
        with_bonus = vp + self._hemingway(plan)[0]
        for old in self.options:
            if (
                old.fed >= fed
                and old.leftover <= leftover
                and old.vp >= vp
                and old.vp + old.bonus >= with_bonus
                and old.costumes >= plan.costumes
                and old.toys >= plan.toys_count
                and old.catnip >= plan.catnip
                and old.multicoloured_fed >= plan.multicoloured
            ):
                return True
        return False

    def _add(self, option: Option) -> None:
        kept = []
        for old in self.options:
            if _dominates(old, option):
                return
            if not _dominates(option, old):
                kept.append(old)
        kept.append(option)
        self.options = kept


def _with_any(plate: Plate, amount: int) -> Plate:
    return Plate(
        plate.mode,
        plate.typed,
        amount,
        plate.catnip,
        plate.rest,
        plate.cap,
        plate.reduced,
        (),
        plate.treat,
    )


def _eat(plate: Plate, eaten: list[int]) -> Plate:
    return Plate(
        plate.mode,
        plate.typed,
        plate.any,
        plate.catnip,
        plate.rest,
        plate.cap,
        plate.reduced,
        tuple(eaten),
        plate.treat,
    )


@lru_cache(maxsize=256)
def _compositions(k: int, n: int) -> tuple[tuple[int, ...], ...]:
    if n == 1:
        return ((k,),)
    return tuple(
        (first, *rest) for first in range(k, -1, -1) for rest in _compositions(k - first, n - 1)
    )


def _greedy_split(k: int, rem: list[int], wild: int) -> tuple[int, ...]:
    split = [0] * len(rem)
    for t in range(len(rem)):
        take = min(k, rem[t])
        split[t] += take
        rem[t] -= take
        k -= take
    if k:
        split[0] += k  # wilds, declared as the first food
    return tuple(split)


def _max_matching(candidates: list[list[int]], n_boxes: int) -> int:
    """Most boxes filled, one cat each (a tiny augmenting-path matching)."""
    owner = [-1] * n_boxes

    def augment(cat: int, seen: set[int]) -> bool:
        for b in candidates[cat]:
            if b in seen:
                continue
            seen.add(b)
            if owner[b] < 0 or augment(owner[b], seen):
                owner[b] = cat
                return True
        return False

    return sum(1 for cat in range(len(candidates)) if augment(cat, set()))


@lru_cache(maxsize=4096)
def _best_toys(
    toys: tuple[int, ...], extra: int, table: tuple[int, ...]
) -> tuple[int, tuple[int, ...]]:
    """Best toy-set VP when ``extra`` toys may be any type (Tomasso, the wild toy), and the
    types chosen. Sets hold different toys, so a 6th unique toy can never be made."""
    if not extra:
        return toy_sets_vp(list(toys), table), ()
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for types in itertools.combinations_with_replacement(range(len(toys)), extra):
        counts = list(toys)
        for t in types:
            counts[t] += 1
        vp = toy_sets_vp(counts, table)
        if vp > best[0]:
            best = (vp, types)
    return best


def options_for(holdings: Holdings, edition: Edition) -> tuple[Option, ...]:
    """Every Pareto-optimal plan for ``holdings`` (best own VP first).

    >>> from engine.catlady.cards import load_edition
    >>> ph = load_edition("box-of-treats-placeholder")
    >>> [best, *_] = options_for(Holdings((ph.cat("Bronte"),), (("treat", 1),), (0,) * 5), ph)
    >>> best.cat_vp, best.fed, best.leftover
    ((1,), 1, 0)
    """
    return _cached(edition, holdings)


@lru_cache(maxsize=4096)
def _cached(edition: Edition, holdings: Holdings) -> tuple[Option, ...]:
    options = _Search(holdings, edition).run()
    options.sort(key=lambda o: (-o.vp, -o.fed, o.leftover, -o.bonus, -o.costumes))
    return tuple(options)


def _splits(total: int, sizes: list[int]) -> list[tuple[int, ...]]:
    """Ways to take exactly ``total`` items from groups of the given sizes."""
    return list(_splits_of(total, tuple(sizes)))


@lru_cache(maxsize=4096)
def _splits_of(total: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    if not sizes:
        return ((),) if total == 0 else ()
    result: list[tuple[int, ...]] = []
    for k in range(min(total, sizes[0]), -1, -1):
        result.extend((k, *rest) for rest in _splits_of(total - k, sizes[1:]))
    return tuple(result)


# What each ability adds to a fed cat's printed VP in one plan: (search, plan, cat, params).
# Hemingway's bonus, Little Nicky's copy and the choices shown on the score pad are worked
# out by the search's own steps; an ability not listed adds nothing to its cat.
_AbilityVp = Callable[["_Search", _Plan, _Cat, Mapping[str, object]], int]


def _no_vp(search: _Search, plan: _Plan, cat: _Cat, p: Mapping[str, object]) -> int:
    return 0


def _each(p: Mapping[str, object]) -> int:
    return int(str(p["vp_each"]))


def _other_fed_eating_own_food(
    search: _Search, plan: _Plan, cat: _Cat, p: Mapping[str, object]
) -> int:
    eaten = plan.plates[cat.index].eaten
    t = max(range(search.n), key=lambda k: eaten[k])
    return _each(p) * sum(
        1 for o in plan.fed if o is not cat and _is_food_cat(o, plan.plates[o.index], t)
    )


def _per_food_used(search: _Search, plan: _Plan, cat: _Cat, p: Mapping[str, object]) -> int:
    food = str(p["food"])
    if food == "any":
        return _each(p) * (sum(plan.eaten_by_type) + plan.treats_used)
    return _each(p) * plan.eaten_by_type[search.edition.foods.index(food)]


_ABILITY_VP: dict[str, _AbilityVp] = {
    "per_colour_fed": lambda search, plan, cat, p: (
        _each(p) * plan.colour_counts[search.edition.colours.index(p["colour"])]
    ),
    "colour_sets": lambda search, plan, cat, p: (
        _each(p) * colour_sets(plan.masks, search.full_mask)
    ),
    "per_costume": lambda search, plan, cat, p: _each(p) * plan.costumes,
    "per_toy": lambda search, plan, cat, p: _each(p) * plan.toys_count,
    "vp_per_food_fed": lambda search, plan, cat, p: _each(p) * plan.plates[cat.index].amount,
    "most_fed_cats": lambda search, plan, cat, p: int(str(p["vp_otherwise"])),
    "per_other_fed_cat_eating_food": _other_fed_eating_own_food,
    "food_sets_used": lambda search, plan, cat, p: _each(p) * min(plan.eaten_by_type),
    "penalty_per_toy": lambda search, plan, cat, p: -_each(p) * plan.toys_count,
    "per_one_food_cat": lambda search, plan, cat, p: (
        _each(p)
        * sum(1 for o in plan.fed if o is not cat and search._one_food(o, plan.plates[o.index]))
    ),
    "toy_sets_vp": lambda search, plan, cat, p: plan.toy_vp,
    "discard_for_vp": lambda search, plan, cat, p: (
        _each(p) * (search.h.spray_bottles + search.h.lost_cats)
    ),
    "per_food_type_cat": lambda search, plan, cat, p: (
        _each(p)
        * sum(
            1
            for o in plan.fed
            if _is_food_cat(o, plan.plates[o.index], search.edition.foods.index(str(p["food"])))
        )
    ),
    "per_multicoloured_fed": lambda search, plan, cat, p: _each(p) * plan.multicoloured,
    "per_food_used": _per_food_used,
}
