"""One player's feeding options: every Pareto-optimal way to feed their cats.

Internal to :mod:`engine.catlady.scoring`. The procedure (also in docs/scoring.md):

1. Each cat gets an *eating model* from its data: fixed needs, one chosen type in a range
   (Waffle), a fixed amount of one chosen type (Truffle), or "any food" (Cow).
2. A depth-first search picks, cat by cat, "unfed" or one meal. A set of meals is feasible when
   the wilds (plus, with Moonbeam fed, up to her count of converted tokens from surplus types)
   cover every type's shortfall: ``sum(max(0, need - have)) <= wild + min(k, surplus)``. That
   test is exact for any wild assignment, so wilds are never enumerated one by one. Cats that
   eat "any food" (Cow) come last and eat everything that is left (more food is more VP and
   less leftover, so eating it all dominates).
3. When every ability is monotone (feeding one more cat never lowers VP, which holds for the
   whole base game) and no "any food" cat competes for leftovers, only *maximal* plans are kept: a plan that could feed one more cat, or give
   Waffle one more food, is dominated by the plan that does.
4. Each surviving plan yields an option ``(vp, fed, leftover, bonus)`` where ``vp`` is the
   fed-cat VP (abilities included, hungry cats -2) plus catnip, and ``bonus`` is what Hemingway
   adds if the player ends up with strictly the most fed cats. Options are Pareto-filtered:
   more VP, more fed cats, less leftover food, with the bonus weighed as in
   :func:`dominates`. Which option is finally used depends on the other players (the leftover
   food penalty and Hemingway), and is settled in :mod:`engine.catlady.scoring`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.catlady.cards import CatSpec, Edition

__all__ = [
    "FeedingOption",
    "Meal",
    "allocate_tokens",
    "colour_sets",
    "dominates",
    "feeding_options",
]

# Searches over this many cats or more use the branch and bound (see _Search._bounds).
_BOUND_FROM_CATS = 5

# Eating models.
_FIXED, _CHOICE, _ONE_TYPE, _ANY = range(4)


@dataclass(frozen=True, slots=True)
class Meal:
    """What one fed cat eats, by food type (before deciding which tokens pay for it).

    ``amounts`` is indexed like ``Edition.foods``. For an "any food" cat (Cow) ``rest`` is
    True: she also eats everything left after the other cats, and ``amounts`` holds only the
    food she must include (one of Truffle's type when that makes her count for Truffle).
    """

    amounts: tuple[int, ...]
    rest: bool = False


@dataclass(frozen=True, slots=True)
class FeedingOption:
    """One Pareto-optimal outcome of feeding a player's cats."""

    vp: int  # fed-cat VP (abilities, hungry cats) + catnip VP; no cross-player terms
    fed: int
    leftover: int
    bonus: int  # extra VP if this player has strictly the most fed cats (Hemingway)
    meals: tuple[Meal | None, ...]  # per cat, in the player's order
    catnip: int  # catnip counted (cards + Macak when it counts)
    cat_vp: tuple[int, ...]  # per cat VP excluding the bonus
    bonus_cat: int  # index of the cat that earns the bonus, -1 if none
    any_eaten: int  # food eaten by "any food" cats beyond their reserved amounts


def dominates(a: FeedingOption, b: FeedingOption) -> bool:
    """Whether ``a`` is at least as good as ``b`` for its owner whatever the others do.

    More fed cats can only win the Hemingway bonus more often, so with ``a.fed >= b.fed``
    it is enough that ``a`` is no worse both with and without the bonus.
    """
    return (
        a.fed >= b.fed
        and a.leftover <= b.leftover
        and a.vp >= b.vp
        and a.vp + a.bonus >= b.vp + b.bonus
    )


@dataclass(frozen=True, slots=True)
class _Cat:
    index: int
    model: int
    needs: tuple[int, ...]  # fixed needs per food type
    vp: int
    colour_mask: int
    ability: str | None
    params: Mapping[str, object]
    lo: int = 0
    hi: int | None = None
    choices: tuple[int, ...] = ()  # food type indices a chosen-type cat may eat
    per_food_vp: int = 0
    add_convert: int = 0  # wilds this cat's feeding brings (Moonbeam)
    meal: Meal | None = None  # a fixed eater's only meal
    # The ability's numbers, read from ``params`` once (every leaf of the search uses them):
    # vp_each, or Macak's catnip, or Hemingway's VP when he has not the most fed cats;
    # the colour counted (per_colour_fed); Hemingway's bonus for strictly the most.
    each: int = 0
    colour: int = -1
    most_bonus: int = 0


@lru_cache(maxsize=8192)
def _compile(cat: CatSpec, index: int, edition: Edition) -> _Cat:
    foods = edition.foods
    colour_mask = sum(1 << edition.colours.index(c) for c in cat.colours)
    needs = [0] * len(foods)
    for food, amount in cat.needs:
        needs[foods.index(food)] = amount
    base_vp = cat.vp or 0
    params = cat.params
    if cat.ability == "vp_per_food_fed":
        one_type = bool(params["one_type"])
        hi = params["max"]
        return _Cat(
            index,
            _ONE_TYPE if one_type else _ANY,
            tuple(needs),
            base_vp,
            colour_mask,
            cat.ability,
            params,
            lo=int(str(params["min"])),
            hi=None if hi is None else int(str(hi)),
            choices=tuple(range(len(foods))),
            per_food_vp=int(str(params["vp_each"])),
        )
    if cat.ability == "per_other_fed_cat_eating_food":
        allowed = params["foods"]
        assert isinstance(allowed, list)
        return _Cat(
            index,
            _CHOICE,
            tuple(needs),
            base_vp,
            colour_mask,
            cat.ability,
            params,
            lo=int(str(params["amount"])),
            hi=int(str(params["amount"])),
            choices=tuple(foods.index(f) for f in allowed),
            each=int(str(params["vp_each"])),
        )
    add_convert = int(str(params["count"])) if cat.ability == "food_as_wild" else 0
    each = colour = most_bonus = 0
    if cat.ability == "counts_as_catnip":
        each = int(str(params["catnip"]))
    elif cat.ability == "most_fed_cats":
        each = int(str(params["vp_otherwise"]))
        most_bonus = int(str(params["vp_most"])) - each
    elif "vp_each" in params:
        each = int(str(params["vp_each"]))
    if cat.ability == "per_colour_fed":
        colour = edition.colours.index(params["colour"])
    return _Cat(
        index,
        _FIXED,
        tuple(needs),
        base_vp,
        colour_mask,
        cat.ability,
        params,
        add_convert=add_convert,
        meal=Meal(tuple(needs)),
        each=each,
        colour=colour,
        most_bonus=most_bonus,
    )


def _feasible(demand: Sequence[int], have: Sequence[int], wild: int, convert: int) -> bool:
    short = 0
    spare = 0
    for need, got in zip(demand, have):  # noqa: B905 - hot path; lengths match by construction
        if need > got:
            short += need - got
        else:
            spare += got - need
    if short <= wild:
        return True
    return short <= wild + (convert if convert < spare else spare)


def colour_sets(masks: Sequence[int], full: int) -> int:
    """Most disjoint groups of cats whose colours together cover ``full`` (LeVar's sets)."""
    counts: dict[int, int] = {}
    for mask in masks:
        mask &= full
        if mask:
            counts[mask] = counts.get(mask, 0) + 1
    return _best_sets(tuple(sorted(counts.items())), full)


@lru_cache(maxsize=4096)
def _best_sets(counts: tuple[tuple[int, int], ...], full: int) -> int:
    # A cat covering every colour is a set alone; take those first (never worse).
    pool = dict(counts)
    alone = pool.pop(full, 0)
    items = tuple(sorted((m, n) for m, n in pool.items() if n))
    return alone + _sets_rest(items, full)


@lru_cache(maxsize=16384)
def _sets_rest(items: tuple[tuple[int, int], ...], full: int) -> int:
    if not items:
        return 0
    # Either the first mask's cats are never used again, or one of them starts a group that is
    # completed by a minimal combination of the other masks.
    (first, n), rest = items[0], items[1:]
    best = _sets_rest(rest, full)
    pool = dict(items)
    pool[first] = n - 1
    for group in _completions(first, tuple(m for m, k in pool.items() if k), full):
        trial = dict(pool)
        ok = True
        for m in group:
            trial[m] = trial.get(m, 0) - 1
            if trial[m] < 0:
                ok = False
        if ok:
            remaining = tuple(sorted((m, k) for m, k in trial.items() if k))
            best = max(best, 1 + _sets_rest(remaining, full))
    return best


@lru_cache(maxsize=4096)
def _completions(start: int, masks: tuple[int, ...], full: int) -> tuple[tuple[int, ...], ...]:
    """Minimal multisets of ``masks`` that together with ``start`` cover ``full``."""
    found: list[tuple[int, ...]] = []

    def grow(covered: int, chosen: tuple[int, ...], lowest: int) -> None:
        if covered == full:
            found.append(chosen)
            return
        for i in range(lowest, len(masks)):
            if masks[i] & ~covered & full:
                grow(covered | masks[i], (*chosen, masks[i]), i)

    grow(start, (), 0)
    return tuple(found)


@dataclass(frozen=True, slots=True)
class _Layout:
    """The parts of a search that depend only on the cats (cached per list of cats).

    ``twin[d]``: depth of an earlier plain cat with the same needs that is worth at least as
    much (and, if any ability looks at colours, has the same colours). Feeding the cat at
    depth ``d`` while that one goes hungry is never better than swapping them, so it is
    skipped.
    """

    cats: tuple[_Cat, ...]
    searched: tuple[_Cat, ...]  # in search order, "any food" eaters left out
    eaters_any: tuple[_Cat, ...]
    twin: tuple[int, ...]
    count_colours: bool  # an ability counts fed cats of a colour
    # _Search.suffix when every searched cat has fixed needs (it then depends on nothing else)
    fixed_suffix: tuple[tuple[int, ...], ...] | None


def _search_order(c: _Cat) -> tuple[int, tuple[int, ...], int, int]:
    """Wild-makers first (they change what is feasible for everyone after), then fixed
    eaters, chosen-type eaters, one-type ranges; "any food" eaters at the end. Plain cats
    with the same needs come together, the most valuable first."""
    first = 0 if c.ability == "food_as_wild" else 1
    group = first if c.model == _FIXED else 2 + c.model
    return (group, c.needs if c.ability is None else (), -c.vp, c.index)


@lru_cache(maxsize=4096)
def _layout(edition: Edition, cats: tuple[CatSpec, ...]) -> _Layout:
    compiled = tuple(_compile(c, i, edition) for i, c in enumerate(cats))

    ordered = sorted(compiled, key=_search_order)
    searched = tuple(c for c in ordered if c.model != _ANY)
    colour_blind = not any(c.ability in ("per_colour_fed", "colour_sets") for c in compiled)
    twin = [-1] * len(searched)
    for d, cat in enumerate(searched):
        if d and cat.ability is None and cat.model == _FIXED:
            prev = searched[d - 1]
            if (
                prev.ability is None
                and prev.model == _FIXED
                and prev.needs == cat.needs
                and prev.vp >= cat.vp
                and (colour_blind or prev.colour_mask == cat.colour_mask)
            ):
                twin[d] = d - 1
    fixed_suffix = None
    if all(c.model == _FIXED for c in searched):
        rows = [(0,) * len(edition.foods)]
        if len(edition.foods) == 3:  # every edition so far: written out, it runs per tableau
            s0 = s1 = s2 = 0
            for cat in reversed(searched):
                n0, n1, n2 = cat.needs
                s0 += n0
                s1 += n1
                s2 += n2
                rows.append((s0, s1, s2))
        else:
            for cat in reversed(searched):
                rows.append(tuple(a + b for a, b in zip(rows[-1], cat.needs, strict=True)))
        fixed_suffix = tuple(reversed(rows))
    return _Layout(
        compiled,
        searched,
        tuple(c for c in ordered if c.model == _ANY),
        tuple(twin),
        any(c.ability == "per_colour_fed" for c in compiled),
        fixed_suffix,
    )


@dataclass(frozen=True, slots=True)
class _Bound:
    """What the plans below a node of the search could be worth at most (branch and bound).

    A cat is counted at its most: fed with its ability at its largest (every cat of its
    colour fed, every toy...) plus the catnip VP a fed cat can add, or hungry at ``unfed``,
    whichever is more; catnip's ``flat`` part is counted once. ``prefix[d]``: the cats
    searched before depth ``d`` all counted so (``loss[d]``: what the cat at depth ``d``
    loses when left hungry). As the search decides cats, it takes off what it then knows
    they cannot be worth: a ranged cat (Waffle) fed less than her most loses ``per_food``
    per food short, and a fed ``counters`` cat (Alvin) loses his VP for each cat of his
    colour left hungry. ``later[d][left]``: the most the cats from depth ``d`` on add
    sharing ``left`` tokens (a 0/1 knapsack, food types ignored), each fed one less the VP
    its food would be worth to the one uncapped "any food" eater (``price`` per food, 0 if
    none), who is then counted at ``price`` per food left; other ``eaters`` (base VP, VP per
    food, most food) are counted eating everything left; ``bonus``: the largest bonus
    (Hemingway); ``most[d]``: the most tokens the cats from depth ``d`` on can eat (so the
    least that can be left); ``can_feed[d][left]``: the most of them ``left`` tokens could
    feed. Only their sums are kept, per depth and tokens left: ``vp_top`` (prefix, later,
    flat, the leftover's price and the eaters), ``fed_top`` (every cat searched so far,
    the most of the later ones that could be fed, and the eaters) and ``least_left``."""

    bonus: int
    price: int
    has_eaters: bool
    vp_top: tuple[tuple[int, ...], ...]  # [depth][left]: the most VP, less what ``lost`` says
    fed_top: tuple[tuple[int, ...], ...]  # [depth][left]: the most fed, less the hungry
    least_left: tuple[tuple[int, ...], ...]  # [depth][left]
    loss: tuple[int, ...]
    per_food: tuple[int, ...]  # per depth: the VP per food of a ranged cat counted at its most
    # Searched cats paid per fed cat of a colour: (depth, colour bit, VP each), each > 0.
    counters: tuple[tuple[int, int, int], ...]


class _Search:
    """Depth-first search over one player's meals (see the module docstring)."""

    def __init__(
        self,
        cats: Sequence[CatSpec],
        food: Mapping[str, int],
        *,
        edition: Edition,
        catnip: int,
        toys: int,
        costumes: int,
        macak_optional: bool,
    ) -> None:
        self.edition = edition
        self.foods = edition.foods
        self.have = tuple(food.get(f, 0) for f in self.foods)
        self.wild = food.get("wild", 0)
        self.total = sum(self.have) + self.wild
        layout = _layout(edition, tuple(cats))
        self.cats = layout.cats
        self.catnip_cards = catnip
        self.toys = toys
        self.costumes = costumes
        self.macak_optional = macak_optional
        self.scoring = edition.scoring
        self.full_mask = (1 << len(edition.colours)) - 1
        self.searched = layout.searched
        self.twin = layout.twin
        self.eaters_any = layout.eaters_any
        self.count_colours = layout.count_colours
        self.monotone = self._is_monotone()
        # Maximal plans only, and the pruning that relies on it, need more than monotone VP: an
        # "any food" eater (Cow) turns a hungry cat's food into VP, so with one present a plan
        # that could feed one more cat is not dominated (Cow + Alvin + 2 wilds: Cow eats both).
        self.maximal_only = self.monotone and not self.eaters_any
        self.options: list[FeedingOption] = []
        self.rest_meal = Meal((0,) * len(self.foods), rest=True)  # an "any food" cat's
        self.eater_prune = self._eater_pruning()
        self.bound: _Bound | None = None
        # suffix[d]: per food type, the most the cats searched from depth d on could eat. If a
        # cat could still be fed on top of that, leaving it hungry never gives a maximal plan.
        n_foods = len(self.foods)
        self.suffix: Sequence[Sequence[int]]
        if layout.fixed_suffix is not None:  # fixed eaters only: the same for any food
            self.suffix = layout.fixed_suffix
            return
        suffix = [[0] * n_foods for _ in range(len(self.searched) + 1)]
        for d in range(len(self.searched) - 1, -1, -1):
            cat = self.searched[d]
            if cat.model == _FIXED:
                most = list(cat.needs)
            else:
                top = cat.hi if cat.hi is not None else self.total
                most = [top if t in cat.choices else 0 for t in range(n_foods)]
            suffix[d] = [a + b for a, b in zip(suffix[d + 1], most, strict=True)]
        self.suffix = suffix

    # Abilities whose VP never drops when one more cat is fed and never reads what an "any
    # food" eater eats (Truffle's does: feeding one more cat can stop Cow counting for her).
    # Waffle's (vp_per_food_fed) reads only what she eats herself.
    _SAFE_WITH_EATER = frozenset(
        {
            None,
            "all_colours",
            "per_colour_fed",
            "colour_sets",
            "food_as_wild",
            "per_costume",
            "per_toy",
            "most_fed_cats",
            "vp_per_food_fed",
        }
    )

    def _eater_pruning(self) -> tuple[tuple[bool, ...], tuple[int, ...], int] | None:
        """With one "any food" eater (Cow) the "never leave a feedable cat hungry" pruning is
        off: her VP grows with what the others leave. It still holds for a cat ``x`` whose
        worst gain from being fed, ``x.vp - unfed_cat_vp``, pays for the food it takes from
        her, ``per_food_vp * sum(x.needs)``, as long as she keeps at least her minimum: the
        plan feeding ``x`` then has more fed cats, as much VP, the same leftover (none: she
        eats it) and the same bonus, and the depth-first search meets it first, so the
        plans skipped could never be kept. Returns, per search depth, whether the rule
        applies to that cat, per depth the most tokens the cats from there on can eat, and
        the eater's minimum; or None when the rule does not apply at all."""
        eaters = self.eaters_any
        if (
            not self.monotone
            or len(eaters) != 1
            or eaters[0].hi is not None
            or any(c.ability not in self._SAFE_WITH_EATER for c in self.cats if c is not eaters[0])
        ):
            return None
        eater = eaters[0]
        unfed = self.scoring.unfed_cat_vp
        rule = tuple(
            c.model == _FIXED and (c.vp or 0) - unfed >= eater.per_food_vp * sum(c.needs)
            for c in self.searched
        )
        if not any(rule):
            return None
        return rule, tuple(self._most_eaten()), eater.lo

    def _most_eaten(self) -> list[int]:
        """Per search depth, the most tokens the cats from there on can eat."""
        searched = self.searched
        most = [0] * (len(searched) + 1)
        for d in range(len(searched) - 1, -1, -1):
            c = searched[d]
            eats = sum(c.needs) if c.model == _FIXED else (c.hi if c.hi is not None else self.total)
            most[d] = most[d + 1] + eats
        return most

    def _most_worth(self) -> tuple[dict[int, int], dict[int, int], int, int] | None:
        """Per cat (by index) the most it is worth fed; per ranged eater (Waffle, Cow) her VP
        per food; the most a "most fed cats" bonus adds; the catnip Macak counts. None when
        a cat has an ability this module cannot bound."""
        n = len(self.cats)
        colours = self.edition.colours
        top: dict[int, int] = {}
        per_food: dict[int, int] = {}  # per ranged eater: VP per food (Waffle, Cow)
        bonus = 0
        extra_catnip = 0
        for c in self.cats:
            p = c.params
            ability = c.ability
            vp = c.vp
            if ability in (None, "all_colours", "food_as_wild"):
                pass
            elif ability == "counts_as_catnip":
                extra_catnip += int(str(p["catnip"]))
            elif ability == "per_colour_fed":
                bit = 1 << colours.index(p["colour"])
                vp += max(
                    0, int(str(p["vp_each"])) * sum(1 for o in self.cats if o.colour_mask & bit)
                )
            elif ability == "colour_sets":
                vp += max(0, int(str(p["vp_each"])) * n)
            elif ability == "per_costume":
                vp += max(0, int(str(p["vp_each"])) * self.costumes)
            elif ability == "per_toy":
                vp += max(0, int(str(p["vp_each"])) * self.toys)
            elif ability == "most_fed_cats":
                vp += int(str(p["vp_otherwise"]))
                bonus = max(bonus, int(str(p["vp_most"])) - int(str(p["vp_otherwise"])))
            elif ability == "per_other_fed_cat_eating_food":
                vp += max(0, int(str(p["vp_each"])) * (n - 1))
            elif ability == "vp_per_food_fed":
                if c.per_food_vp < 0:
                    return None
                per_food[c.index] = c.per_food_vp
            else:
                return None
            top[c.index] = vp
        return top, per_food, bonus, extra_catnip

    def _catnip_bound(self, extra_catnip: int) -> tuple[int, int]:
        """Catnip VP as a flat part plus a part per fed cat: ``(flat, per_fed)`` with
        ``catnip_vp <= flat + per_fed * fed`` for the counts that can happen (the cards, with
        or without Macak's)."""
        counts = (self.catnip_cards, self.catnip_cards + extra_catnip)
        rows = [self.scoring.catnip_vp(k, 0) for k in counts]
        per_fed = max(
            self.scoring.catnip_vp(k, 1) - row for k, row in zip(counts, rows, strict=True)
        )
        return max(rows), max(0, per_fed)

    def _can_feed(self) -> list[tuple[int, ...]]:
        """``[d][left]``: the most cats from depth d on that ``left`` tokens could feed (the
        smallest meals first; food types ignored, so never too few)."""
        searched = self.searched
        table = []
        for d in range(len(searched) + 1):
            sizes = sorted(sum(c.needs) if c.model == _FIXED else c.lo for c in searched[d:])
            row = []
            for left in range(self.total + 1):
                count = eaten = 0
                for size in sizes:
                    if eaten + size > left:
                        break
                    eaten += size
                    count += 1
                row.append(count)
            table.append(tuple(row))
        return table

    def _bounds(self) -> _Bound | None:
        """The most each cat could be worth, for :meth:`_dfs3`'s branch and bound; None when a
        cat has an ability this module cannot bound."""
        worths = self._most_worth()
        if worths is None:
            return None
        top, per_food, bonus, extra_catnip = worths
        flat, per_fed = self._catnip_bound(extra_catnip)
        unfed = self.scoring.unfed_cat_vp
        eaters = self.eaters_any
        # One uncapped "any food" eater (Cow) is worth her VP per food for everything left:
        # a later cat fed is then worth its VP less what its food would have given her.
        single = len(eaters) == 1 and eaters[0].hi is None
        price = per_food[eaters[0].index] if single else 0

        def worth(c: _Cat) -> int:
            """The most cat ``c`` adds to a plan, fed or hungry."""
            if c.index in per_food:
                most = c.hi if c.hi is not None else self.total
                gain = c.vp + max((per_food[c.index] - price) * amount for amount in (c.lo, most))
            else:
                gain = top[c.index] - price * sum(c.needs)
            return max(gain + per_fed, unfed)

        searched = self.searched
        depth_count = len(searched)
        prefix = [0] * (depth_count + 1)
        most = self._most_eaten()
        loss = []
        for d, c in enumerate(searched):
            cat_top = per_fed + (
                top[c.index]
                if c.index not in per_food
                else c.vp + per_food[c.index] * (c.hi if c.hi is not None else self.total)
            )
            prefix[d + 1] = prefix[d] + max(cat_top, unfed)
            loss.append(max(cat_top, unfed) - unfed)
        # later[d][left]: the cats from depth d on with ``left`` tokens to share. Each is
        # hungry (``unfed``) unless fed, which gains ``worth - unfed`` for its meal's tokens:
        # the best choice of cats whose meals fit in ``left`` tokens (food types ignored, a
        # 0/1 knapsack filled from the last cat back) bounds what they add. Cats with a
        # range of meals (Waffle) are counted at their most, whatever is left.
        width = self.total + 1
        row = [0] * width
        knapsack = [tuple(row)]
        for c in reversed(searched):
            if c.model == _FIXED:
                weight = sum(c.needs)
                gain = max(0, worth(c) - unfed)
                row = [
                    unfed
                    + (max(row[left], row[left - weight] + gain) if weight <= left else row[left])
                    for left in range(width)
                ]
            else:
                row = [worth(c) + value for value in row]
            knapsack.append(tuple(row))
        later = knapsack[::-1]
        can_feed = self._can_feed()
        # Per depth and tokens left, the tables above summed once, so that each node of
        # the search reads its bound in two lookups.
        vp_top = []
        fed_top = []
        least_left = []
        for d in range(depth_count + 1):
            vp_row = []
            for left in range(self.total + 1):
                vp = prefix[d] + later[d][left] + flat + price * left
                for c in eaters:
                    if price:
                        vp += max(c.vp + per_fed, unfed)
                    else:
                        eats = left if c.hi is None or c.hi > left else c.hi
                        vp += max(c.vp + per_fed + per_food[c.index] * eats, unfed)
                vp_row.append(vp)
            vp_top.append(tuple(vp_row))
            fed_top.append(tuple(d + fed + len(eaters) for fed in can_feed[d]))
            least_left.append(
                tuple(0 if eaters else left - most[d] for left in range(self.total + 1))
            )
        return _Bound(
            bonus=bonus,
            price=price,
            has_eaters=bool(eaters),
            vp_top=tuple(vp_top),
            fed_top=tuple(fed_top),
            least_left=tuple(least_left),
            loss=tuple(loss),
            per_food=tuple(per_food.get(c.index, 0) for c in searched),
            counters=tuple(
                (d, 1 << c.colour, c.each)
                for d, c in enumerate(searched)
                if c.ability == "per_colour_fed" and c.each > 0
            ),
        )

    def _is_monotone(self) -> bool:
        s = self.scoring
        if s.unfed_cat_vp > 0 or any(row[3] < 0 for row in s.catnip):
            return False
        if not all(c.vp >= 0 and c.vp >= s.unfed_cat_vp for c in self.cats):
            return False
        # Forced extra catnip (Macak) can lower catnip VP (0 -> 1 catnip is -2); feeding him
        # still never hurts when his own gain over being hungry covers the worst such drop.
        for c in self.cats:
            if c.ability == "counts_as_catnip" and not self.macak_optional:
                extra = int(str(c.params["catnip"]))
                drop = max(
                    s.catnip_vp(k, f) - s.catnip_vp(k + extra, f + 1)
                    for k in range(self.catnip_cards + 1)
                    for f in range(len(self.cats))
                )
                if c.vp - s.unfed_cat_vp < drop:
                    return False
        return True

    def run(self) -> list[FeedingOption]:
        n = len(self.cats)
        if len(self.foods) == 3:
            self._prepare_three()
            # Maximal plans only keep the search small already; the bound pays off when it
            # is exhaustive (an "any food" eater or an ability that can lower VP) and large:
            # its tables cost more than a search over a handful of cats.
            self.bound = (
                self._bounds()
                if not self.maximal_only and len(self.searched) >= _BOUND_FROM_CATS
                else None
            )
            self._dfs3(0, 0, 0, 0, [None] * n, 0, 0, 0)
        else:
            self._dfs(0, [0] * len(self.foods), [None] * n, 0)
        return self.options

    # --- the same search, unrolled for three food types (every edition so far) -------------
    # Same order, same pruning, same leaves as _dfs/_leaf/_maximal: only the arithmetic is
    # written out, so the chosen plans are identical (tests/engine/catlady/test_feeding.py).

    def _prepare_three(self) -> None:
        self.h0, self.h1, self.h2 = self.have
        self.later3 = [tuple(s) for s in self.suffix]  # (already tuples when from the layout)
        self.meal_cache: dict[tuple[int, int], Meal] = {}

    def _fits3(self, x0: int, x1: int, x2: int, convert: int) -> bool:
        """``_feasible`` for three food types. The surplus that Moonbeam's conversions draw
        on is summed only when the wilds alone fall short and she is fed."""
        h0 = self.h0
        h1 = self.h1
        h2 = self.h2
        short = (
            (x0 - h0 if x0 > h0 else 0) + (x1 - h1 if x1 > h1 else 0) + (x2 - h2 if x2 > h2 else 0)
        )
        wild = self.wild
        if short <= wild:
            return True
        if not convert:
            return False
        spare = (
            (h0 - x0 if h0 > x0 else 0) + (h1 - x1 if h1 > x1 else 0) + (h2 - x2 if h2 > x2 else 0)
        )
        return short <= wild + (convert if convert < spare else spare)

    def _meal3(self, t: int, amount: int) -> Meal:
        meal = self.meal_cache.get((t, amount))
        if meal is None:
            amounts = [0, 0, 0]
            amounts[t] = amount
            meal = self.meal_cache[(t, amount)] = Meal(tuple(amounts))
        return meal

    def _dfs3(
        self,
        depth: int,
        d0: int,
        d1: int,
        d2: int,
        meals: list[Meal | None],
        convert: int,
        lost: int,
        hungry: int,
    ) -> bool:
        """``lost``: what the cats decided so far cost at most (see :class:`_Bound`);
        ``hungry``: how many were left hungry. True when the bound cut this node."""
        searched = self.searched
        bound = self.bound
        if bound is not None and self.options:
            # Branch and bound: when an option already found beats the best any plan below
            # could do, every plan below would be refused, so none is searched.
            left = self.total - (d0 + d1 + d2)
            fed_max = bound.fed_top[depth][left] - hungry
            vp_max = bound.vp_top[depth][left] - lost
            least_left = bound.least_left[depth][left]
            best = vp_max + bound.bonus
            for old in self.options:
                if (
                    old.fed >= fed_max
                    and old.leftover <= least_left
                    and old.vp >= vp_max
                    and old.vp + old.bonus >= best
                ):
                    return True
        if depth == len(searched):
            if self.maximal_only and not self._maximal3(d0, d1, d2, meals, convert):
                return False
            if self.eater_prune is not None and self._eater_loses3(d0, d1, d2, meals, convert):
                return False
            self._leaf_plan([d0, d1, d2], meals, convert)
            return False
        cat = searched[depth]
        i = cat.index
        fits = self._fits3
        if cat.model == _FIXED:
            add_convert = cat.add_convert
            n0, n1, n2 = cat.needs
            t0 = d0 + n0
            t1 = d1 + n1
            t2 = d2 + n2
            twin = self.twin[depth]
            if twin >= 0 and meals[searched[twin].index] is None:
                pass  # its twin went hungry: feeding this one instead is a mirror image
            elif fits(t0, t1, t2, convert + add_convert):
                meals[i] = cat.meal
                lost_here = lost
                if bound is not None and bound.counters:
                    lost_here += self._colour_loss(depth, meals)
                self._dfs3(depth + 1, t0, t1, t2, meals, convert + add_convert, lost_here, hungry)
                meals[i] = None
                if self.maximal_only:
                    l0, l1, l2 = self.later3[depth + 1]
                    if fits(t0 + l0, t1 + l1, t2 + l2, convert + add_convert):
                        return False  # hungry here is never maximal, whatever the later cats eat
                elif self.eater_prune is not None:
                    rule, most, eater_lo = self.eater_prune
                    l0, l1, l2 = self.later3[depth + 1]
                    if (
                        rule[depth]
                        and self.total - (t0 + t1 + t2 + most[depth + 1]) >= eater_lo
                        and fits(t0 + l0, t1 + l1, t2 + l2, convert + add_convert)
                    ):
                        return False  # hungry here loses to fed, whatever the later cats eat
        else:
            hi = cat.hi if cat.hi is not None else self.total
            # The last cat searched, eating a range of one type: with maximal plans only, a
            # smaller amount than the largest that fits is never maximal (one more fits), so
            # the old search's leaves below it were all rejected. Skip them.
            largest_only = (
                self.maximal_only
                and cat.model == _ONE_TYPE
                and cat.lo >= 1
                and depth == len(searched) - 1
            )
            # The bound counts a cat paid per food at its most food: one fed less costs the
            # difference (the cat is then counted exactly).
            per_food = bound.per_food[depth] if bound is not None else 0
            # Searched last and worth more per food than the leftover is, the cat's bound
            # only falls with each food less: once it cuts one amount, it cuts the smaller.
            falling = (
                bound is not None
                and depth == len(searched) - 1
                and per_food >= bound.price
                and (bound.price > 0 or not bound.has_eaters)
            )
            for t in cat.choices:
                for amount in range(hi, cat.lo - 1, -1):
                    x0 = d0 + amount if t == 0 else d0
                    x1 = d1 + amount if t == 1 else d1
                    x2 = d2 + amount if t == 2 else d2
                    if fits(x0, x1, x2, convert):
                        meals[i] = self._meal3(t, amount)
                        lost_here = lost + per_food * (hi - amount)
                        cut = self._dfs3(depth + 1, x0, x1, x2, meals, convert, lost_here, hungry)
                        meals[i] = None
                        if largest_only or (cut and falling):
                            break
            if self.maximal_only:
                l0, l1, l2 = self.later3[depth + 1]
                lo = cat.lo
                for t in cat.choices:
                    if fits(
                        d0 + l0 + (lo if t == 0 else 0),
                        d1 + l1 + (lo if t == 1 else 0),
                        d2 + l2 + (lo if t == 2 else 0),
                        convert,
                    ):
                        return False  # hungry here is never maximal
        if bound is not None:
            lost += bound.loss[depth]
            if bound.counters:
                lost += self._colour_loss(depth, meals)
        self._dfs3(depth + 1, d0, d1, d2, meals, convert, lost, hungry + 1)
        return False

    def _colour_loss(self, depth: int, meals: list[Meal | None]) -> int:
        """What the bound stops counting once the cat at ``depth`` is decided (``meals``
        says how): a cat counting fed cats of a colour is counted, fed, as if every cat of
        that colour were fed; each cat of that colour decided hungry takes its part off.
        Only fed counters already decided are corrected (an undecided one may be counted in
        part only, by the knapsack of :class:`_Bound`)."""
        assert self.bound is not None
        searched = self.searched
        cat = searched[depth]
        lost = 0
        if meals[cat.index] is None:  # hungry: off every fed counter of one of its colours
            for where, bit, each in self.bound.counters:
                if (
                    where < depth
                    and cat.colour_mask & bit
                    and meals[searched[where].index] is not None
                ):
                    lost += each
        else:  # a counter fed: off, for every cat of its colour already left hungry
            for where, bit, each in self.bound.counters:
                if where == depth:
                    lost += each * sum(
                        1
                        for other in searched[:depth]
                        if other.colour_mask & bit and meals[other.index] is None
                    )
        return lost

    def _eater_loses3(
        self, d0: int, d1: int, d2: int, meals: list[Meal | None], convert: int
    ) -> bool:
        """Whether a hungry cat the eater rule covers (see :meth:`_eater_pruning`) could be
        fed on top of this complete plan with the eater keeping her minimum: the plan
        feeding it (or its hungry twin, worth as much) was met earlier and is at least as
        good, so this one could never be kept."""
        assert self.eater_prune is not None
        rule, _, eater_lo = self.eater_prune
        left = self.total - (d0 + d1 + d2)
        fits = self._fits3
        for depth, cat in enumerate(self.searched):
            if rule[depth] and meals[cat.index] is None:
                n0, n1, n2 = cat.needs
                if left - (n0 + n1 + n2) >= eater_lo and fits(
                    d0 + n0, d1 + n1, d2 + n2, convert + cat.add_convert
                ):
                    return True
        return False

    def _maximal3(self, d0: int, d1: int, d2: int, meals: list[Meal | None], convert: int) -> bool:
        fits = self._fits3
        for cat in self.searched:
            meal = meals[cat.index]
            if cat.model == _FIXED:
                if meal is None:
                    n0, n1, n2 = cat.needs
                    if fits(d0 + n0, d1 + n1, d2 + n2, convert + cat.add_convert):
                        return False
                continue
            if meal is not None:
                if cat.model != _ONE_TYPE:
                    continue
                amount = max(meal.amounts)
                if cat.hi is not None and amount >= cat.hi:
                    continue
                types: Sequence[int] = (meal.amounts.index(amount),)
                step = 1
            else:
                types = cat.choices
                step = cat.lo
            for t in types:
                if fits(
                    d0 + step if t == 0 else d0,
                    d1 + step if t == 1 else d1,
                    d2 + step if t == 2 else d2,
                    convert,
                ):
                    return False
        return True

    def _dfs(self, depth: int, demand: list[int], meals: list[Meal | None], convert: int) -> None:
        if depth == len(self.searched):
            self._leaf(demand, meals, convert)
            return
        cat = self.searched[depth]
        i = cat.index
        later = self.suffix[depth + 1]
        if cat.model == _FIXED:
            add_convert = cat.add_convert
            trial = [d + n for d, n in zip(demand, cat.needs, strict=True)]
            twin = self.twin[depth]
            if twin >= 0 and meals[self.searched[twin].index] is None:
                pass  # its twin went hungry: feeding this one instead is a mirror image
            elif _feasible(trial, self.have, self.wild, convert + add_convert):
                meals[i] = Meal(cat.needs)
                self._dfs(depth + 1, trial, meals, convert + add_convert)
                meals[i] = None
                if self.maximal_only and _feasible(
                    [a + b for a, b in zip(trial, later, strict=True)],
                    self.have,
                    self.wild,
                    convert + add_convert,
                ):
                    return  # hungry here is never maximal, whatever the later cats eat
        else:
            hi = cat.hi if cat.hi is not None else self.total
            for t in cat.choices:
                for amount in range(hi, cat.lo - 1, -1):
                    trial = list(demand)
                    trial[t] += amount
                    if _feasible(trial, self.have, self.wild, convert):
                        amounts = [0] * len(self.foods)
                        amounts[t] = amount
                        meals[i] = Meal(tuple(amounts))
                        self._dfs(depth + 1, trial, meals, convert)
                        meals[i] = None
            if self.maximal_only:
                for t in cat.choices:
                    bound = [a + b for a, b in zip(demand, later, strict=True)]
                    bound[t] += cat.lo
                    if _feasible(bound, self.have, self.wild, convert):
                        return  # hungry here is never maximal
        self._dfs(depth + 1, demand, meals, convert)

    def _leaf(self, demand: list[int], meals: list[Meal | None], convert: int) -> None:
        eaten = sum(demand)
        left = self.total - eaten
        if self.maximal_only and not self._maximal(demand, meals, convert, left):
            return
        self._leaf_plan(demand, meals, convert)

    def _leaf_plan(self, demand: list[int], meals: list[Meal | None], convert: int) -> None:
        """Evaluate a complete plan of the searched cats (with each "any food" choice)."""
        left = self.total - sum(demand)
        any_cats = self.eaters_any
        if not any_cats:
            self._evaluate(meals, demand, convert, left, 0)
            return
        # Each "any food" cat is unfed or eats (at least its minimum, then) everything left.
        for choice in range(1 << len(any_cats)):
            fed = [c for k, c in enumerate(any_cats) if choice >> k & 1]
            unfed = [c for k, c in enumerate(any_cats) if not choice >> k & 1]
            need = sum(c.lo for c in fed)
            if need > left:
                continue
            if self.monotone and unfed and need + min(c.lo for c in unfed) <= left:
                continue
            cap = sum((c.hi if c.hi is not None else left) for c in fed)
            extra = min(left, cap) - need
            for c in fed:
                meals[c.index] = self.rest_meal
            self._evaluate(meals, demand, convert, left - need - extra, need + extra)
            for c in fed:
                meals[c.index] = None

    def _maximal(
        self, demand: list[int], meals: list[Meal | None], convert: int, left: int
    ) -> bool:
        for cat in self.searched:
            meal = meals[cat.index]
            if cat.model == _FIXED:
                if meal is None:
                    trial = [d + n for d, n in zip(demand, cat.needs, strict=True)]
                    if _feasible(trial, self.have, self.wild, convert + cat.add_convert):
                        return False
                continue
            if meal is not None:
                if cat.model != _ONE_TYPE:
                    continue
                amount = max(meal.amounts)
                if cat.hi is not None and amount >= cat.hi:
                    continue
                types = [meal.amounts.index(amount)]
                step = 1
            else:
                types = list(cat.choices)
                step = cat.lo
            for t in types:
                trial = list(demand)
                trial[t] += step
                if _feasible(trial, self.have, self.wild, convert):
                    return False
        return True

    def _evaluate(
        self,
        meals: list[Meal | None],
        demand: list[int],
        convert: int,
        leftover: int,
        any_eaten: int,
    ) -> None:
        cats = self.cats
        fed = [c for c in cats if meals[c.index] is not None]
        n_fed = len(fed)
        colour_count = [0] * len(self.edition.colours)
        if self.count_colours:
            for c in fed:
                for k in range(len(colour_count)):
                    if c.colour_mask >> k & 1:
                        colour_count[k] += 1
        # how much each "any food" cat eats: minimums first, then the rest in order
        share: dict[int, int] = {}
        if self.eaters_any:
            any_fed = [c for c in fed if c.model == _ANY]
            share = {c.index: c.lo for c in any_fed}
            spare = any_eaten - sum(share.values())
            for c in any_fed:
                room = (c.hi - c.lo) if c.hi is not None else spare
                take = min(room, spare)
                share[c.index] += take
                spare -= take
        cat_vp = [self.scoring.unfed_cat_vp] * len(cats)
        catnip = self.catnip_cards
        catnip_extra = 0
        bonus = 0
        bonus_cat = -1
        final_meals: list[Meal | None] = list(meals)
        for c in fed:
            vp = c.vp
            ability = c.ability
            if ability is None:
                cat_vp[c.index] = vp
                continue
            if ability == "per_colour_fed":
                vp += c.each * colour_count[c.colour]
            elif ability == "colour_sets":
                vp += c.each * colour_sets([f.colour_mask for f in fed], self.full_mask)
            elif ability == "per_costume":
                vp += c.each * self.costumes
            elif ability == "per_toy":
                vp += c.each * self.toys
            elif ability == "counts_as_catnip":
                catnip_extra += c.each
            elif ability == "vp_per_food_fed":
                meal = meals[c.index]
                assert meal is not None
                amount = share[c.index] if c.model == _ANY else sum(meal.amounts)
                vp += c.per_food_vp * amount
            elif ability == "most_fed_cats":
                vp += c.each
                bonus = c.most_bonus
                bonus_cat = c.index
            elif ability == "per_other_fed_cat_eating_food":
                meal = meals[c.index]
                assert meal is not None
                t = max(range(len(meal.amounts)), key=lambda k: meal.amounts[k])
                count = 0
                for other in fed:
                    if other is c:
                        continue
                    other_meal = meals[other.index]
                    assert other_meal is not None
                    if other.model == _ANY:
                        if share[other.index] and self._any_can_eat(demand, convert, t):
                            count += 1
                            final_meals[other.index] = Meal(
                                tuple(1 if k == t else 0 for k in range(len(self.foods))), rest=True
                            )
                    elif other_meal.amounts[t]:
                        count += 1
                vp += c.each * count
            cat_vp[c.index] = vp
        best_catnip = self.scoring.catnip_vp(catnip, n_fed)
        if catnip_extra:
            with_extra = self.scoring.catnip_vp(catnip + catnip_extra, n_fed)
            if not self.macak_optional or with_extra >= best_catnip:
                best_catnip = with_extra
                catnip += catnip_extra
        total = sum(cat_vp) + best_catnip
        for old in self.options:
            # what _add would refuse, checked before the option is built
            if (
                old.fed >= n_fed
                and old.leftover <= leftover
                and old.vp >= total
                and old.vp + old.bonus >= total + bonus
            ):
                return
        option = FeedingOption(
            vp=total,
            fed=n_fed,
            leftover=leftover,
            bonus=bonus,
            meals=tuple(final_meals),
            catnip=catnip,
            cat_vp=tuple(cat_vp),
            bonus_cat=bonus_cat,
            any_eaten=any_eaten
            - sum(1 for m in final_meals if m is not None and m.rest and any(m.amounts)),
        )
        self._add(option)

    def _any_can_eat(self, demand: list[int], convert: int, t: int) -> bool:
        trial = list(demand)
        trial[t] += 1
        return _feasible(trial, self.have, self.wild, convert)

    def _add(self, option: FeedingOption) -> None:
        kept = []
        for old in self.options:
            if dominates(old, option):
                return
            if not dominates(option, old):
                kept.append(old)
        kept.append(option)
        self.options = kept


# What a feeding search depends on besides the edition: cat names, food, catnip, toys,
# costumes, macak_optional (the cache key of _cached_options).
_OptionsKey = tuple[tuple[str, ...], tuple[tuple[str, int], ...], int, int, int, bool]


def feeding_options(
    cats: Sequence[CatSpec],
    food: Mapping[str, int],
    *,
    edition: Edition,
    catnip: int,
    toys: int,
    costumes: int,
    macak_optional: bool = False,
) -> tuple[FeedingOption, ...]:
    """Every Pareto-optimal feeding of ``cats`` with ``food`` (see the module docstring).

    >>> from engine.catlady.cards import load_edition
    >>> base = load_edition()
    >>> [bronte] = feeding_options([base.cat("Bronte")], {"tuna": 1, "wild": 1},
    ...                            edition=base, catnip=0, toys=0, costumes=0)
    >>> bronte.vp, bronte.fed, bronte.leftover
    (3, 1, 0)
    """
    key: _OptionsKey = (
        tuple(c.name for c in cats),
        tuple(sorted(food.items())),
        catnip,
        toys,
        costumes,
        macak_optional,
    )
    return _cached_options(edition, key, tuple(cats))


@lru_cache(maxsize=8192)
def _cached_options(
    edition: Edition, key: _OptionsKey, cats: tuple[CatSpec, ...]
) -> tuple[FeedingOption, ...]:
    _, food_items, catnip, toys, costumes, macak_optional = key
    search = _Search(
        cats,
        dict(food_items),
        edition=edition,
        catnip=catnip,
        toys=toys,
        costumes=costumes,
        macak_optional=macak_optional,
    )
    options = search.run()
    # Deterministic order: best VP first, then more fed cats, then less leftover.
    options.sort(key=lambda o: (-o.vp, -o.fed, o.leftover, -o.bonus))
    return tuple(options)


def allocate_tokens(
    meals: Sequence[Meal | None], food: Mapping[str, int], *, edition: Edition, convert: int
) -> tuple[list[list[tuple[str, str]]], dict[str, int]]:
    """Which token pays for each food each fed cat eats, and what is left over.

    Returns per cat a list of ``(food, token)`` pairs (``token`` is the food itself, ``wild``,
    or another food type turned wild by Moonbeam) and the leftover tokens. Real tokens of the
    right type are used first, then wilds, then converted surplus tokens.
    """
    foods = edition.foods
    pool = {f: food.get(f, 0) for f in foods}
    wild = food.get("wild", 0)
    demand = {f: 0 for f in foods}
    for meal in meals:
        if meal is not None:
            for f, amount in zip(foods, meal.amounts, strict=True):
                demand[f] += amount
    # Decide the sources of each type's food once, then hand them out cat by cat.
    sources: dict[str, list[str]] = {f: [] for f in foods}
    for f in foods:
        real = min(pool[f], demand[f])
        sources[f] += [f] * real
        pool[f] -= real
    for f in foods:
        short = demand[f] - len(sources[f])
        use = min(short, wild)
        sources[f] += ["wild"] * use
        wild -= use
        short -= use
        while short > 0 and convert > 0:
            donor = max(foods, key=lambda g: pool[g])
            if pool[donor] == 0:
                break
            pool[donor] -= 1
            convert -= 1
            short -= 1
            sources[f].append(donor)
    plates: list[list[tuple[str, str]]] = []
    for meal in meals:
        plate: list[tuple[str, str]] = []
        if meal is not None:
            for f, amount in zip(foods, meal.amounts, strict=True):
                for _ in range(amount):
                    plate.append((f, sources[f].pop(0) if sources[f] else "?"))
        plates.append(plate)
    leftover = dict(pool)
    leftover["wild"] = wild
    return plates, leftover
