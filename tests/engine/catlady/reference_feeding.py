"""FROZEN ORACLE: engine/catlady/feeding.py as it was before the speed work (commit 2b5d642).

Do not edit or optimise. tests/engine/catlady/test_feeding.py checks that the current
engine/catlady/feeding.py returns exactly what this copy returns (same options, same meals, same
order), so the chosen feeding shown on the score pad cannot drift.

The original module docstring follows.

One player's feeding options: every Pareto-optimal way to feed their cats.

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

__all__ = ["FeedingOption", "Meal", "dominates", "feeding_options", "allocate_tokens"]

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
        )
    return _Cat(index, _FIXED, tuple(needs), base_vp, colour_mask, cat.ability, params)


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


def _colour_sets(masks: Sequence[int], full: int) -> int:
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
        self.cats = [_compile(c, i, edition) for i, c in enumerate(cats)]
        self.catnip_cards = catnip
        self.toys = toys
        self.costumes = costumes
        self.macak_optional = macak_optional
        self.scoring = edition.scoring
        self.full_mask = (1 << len(edition.colours)) - 1

        # Search order: wild-makers first (they change what is feasible for everyone after),
        # then fixed eaters, chosen-type eaters, one-type ranges; "any food" eaters at the end.
        # Plain cats with the same needs come together, the most valuable first.
        def order(c: _Cat) -> tuple[int, tuple[int, ...], int, int]:
            first = 0 if c.ability == "food_as_wild" else 1
            group = first if c.model == _FIXED else 2 + c.model
            return (group, c.needs if c.ability is None else (), -c.vp, c.index)

        self.order = sorted(self.cats, key=order)
        self.searched = [c for c in self.order if c.model != _ANY]
        # twin[d]: depth of an earlier plain cat with the same needs that is worth at least as
        # much (and, if any ability looks at colours, has the same colours). Feeding this cat
        # while that one goes hungry is never better than swapping them, so it is skipped.
        colour_blind = not any(c.ability in ("per_colour_fed", "colour_sets") for c in self.cats)
        self.twin = [-1] * len(self.searched)
        for d, cat in enumerate(self.searched):
            if d and cat.ability is None and cat.model == _FIXED:
                prev = self.searched[d - 1]
                if (
                    prev.ability is None
                    and prev.model == _FIXED
                    and prev.needs == cat.needs
                    and prev.vp >= cat.vp
                    and (colour_blind or prev.colour_mask == cat.colour_mask)
                ):
                    self.twin[d] = d - 1
        self.eaters_any = [c for c in self.order if c.model == _ANY]
        self.monotone = self._is_monotone()
        # Maximal plans only, and the pruning that relies on it, need more than monotone VP: an
        # "any food" eater (Cow) turns a hungry cat's food into VP, so with one present a plan
        # that could feed one more cat is not dominated (Cow + Alvin + 2 wilds: Cow eats both).
        self.maximal_only = self.monotone and not self.eaters_any
        self.options: list[FeedingOption] = []
        # suffix[d]: per food type, the most the cats searched from depth d on could eat. If a
        # cat could still be fed on top of that, leaving it hungry never gives a maximal plan.
        n_foods = len(self.foods)
        self.suffix = [[0] * n_foods for _ in range(len(self.searched) + 1)]
        for d in range(len(self.searched) - 1, -1, -1):
            cat = self.searched[d]
            if cat.model == _FIXED:
                most = list(cat.needs)
            else:
                top = cat.hi if cat.hi is not None else self.total
                most = [top if t in cat.choices else 0 for t in range(n_foods)]
            self.suffix[d] = [a + b for a, b in zip(self.suffix[d + 1], most, strict=True)]

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
        self._dfs(0, [0] * len(self.foods), [None] * n, 0)
        return self.options

    def _dfs(self, depth: int, demand: list[int], meals: list[Meal | None], convert: int) -> None:
        if depth == len(self.searched):
            self._leaf(demand, meals, convert)
            return
        cat = self.searched[depth]
        i = cat.index
        later = self.suffix[depth + 1]
        if cat.model == _FIXED:
            add_convert = int(str(cat.params["count"])) if cat.ability == "food_as_wild" else 0
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
                meals[c.index] = Meal((0,) * len(self.foods), rest=True)
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
                    extra = int(str(cat.params["count"])) if cat.ability == "food_as_wild" else 0
                    trial = [d + n for d, n in zip(demand, cat.needs, strict=True)]
                    if _feasible(trial, self.have, self.wild, convert + extra):
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
        for c in fed:
            for k in range(len(colour_count)):
                if c.colour_mask >> k & 1:
                    colour_count[k] += 1
        any_fed = [c for c in fed if c.model == _ANY]
        # how much each "any food" cat eats: minimums first, then the rest in order
        share: dict[int, int] = {c.index: c.lo for c in any_fed}
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
            p = c.params
            if ability == "per_colour_fed":
                colour = self.edition.colours.index(p["colour"])  # type: ignore[arg-type]
                vp += int(str(p["vp_each"])) * colour_count[colour]
            elif ability == "colour_sets":
                vp += int(str(p["vp_each"])) * _colour_sets(
                    [f.colour_mask for f in fed], self.full_mask
                )
            elif ability == "per_costume":
                vp += int(str(p["vp_each"])) * self.costumes
            elif ability == "per_toy":
                vp += int(str(p["vp_each"])) * self.toys
            elif ability == "counts_as_catnip":
                catnip_extra += int(str(p["catnip"]))
            elif ability == "vp_per_food_fed":
                meal = meals[c.index]
                assert meal is not None
                amount = share[c.index] if c.model == _ANY else sum(meal.amounts)
                vp += c.per_food_vp * amount
            elif ability == "most_fed_cats":
                vp += int(str(p["vp_otherwise"]))
                bonus = int(str(p["vp_most"])) - int(str(p["vp_otherwise"]))
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
                vp += int(str(p["vp_each"])) * count
            cat_vp[c.index] = vp
        best_catnip = self.scoring.catnip_vp(catnip, n_fed)
        if catnip_extra:
            with_extra = self.scoring.catnip_vp(catnip + catnip_extra, n_fed)
            if not self.macak_optional or with_extra >= best_catnip:
                best_catnip = with_extra
                catnip += catnip_extra
        total = sum(cat_vp) + best_catnip
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
    key = (
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
    edition: Edition, key: tuple[object, ...], cats: tuple[CatSpec, ...]
) -> tuple[FeedingOption, ...]:
    _, food_items, catnip, toys, costumes, macak_optional = key
    search = _Search(
        cats,
        dict(food_items),
        edition=edition,
        catnip=catnip,
        toys=toys,  # type: ignore[arg-type]
        costumes=costumes,
        macak_optional=macak_optional,
    )  # type: ignore[arg-type]
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
