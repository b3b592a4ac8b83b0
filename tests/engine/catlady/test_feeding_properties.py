"""The feeding optimiser against a brute force on small random tableaux (hypothesis).

The oracle shares no code with engine.catlady.feeding: it enumerates every meal of every cat, checks
each combination by trying every way to spend the wilds (and Moonbeam's conversions) token by
token, and scores it with its own simple evaluation.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catlady.cards import load_edition
from engine.catlady.feeding import feeding_options

BASE = load_edition()
FOODS = ("chicken", "tuna", "milk")
ALL_CATS = sorted({c.cat.name for c in BASE.deck if c.cat} | {s.name for s in BASE.strays})


def meals_of(cat, food_total):
    """Every meal (chicken, tuna, milk) the cat could eat, by its data."""
    if cat.ability == "vp_per_food_fed":
        p = cat.params
        hi = p["max"] if p["max"] is not None else food_total
        if p["one_type"]:
            return [
                tuple(k if i == t else 0 for i in range(3))
                for t in range(3)
                for k in range(p["min"], hi + 1)
            ]
        return [m for m in itertools.product(range(hi + 1), repeat=3) if p["min"] <= sum(m) <= hi]
    if cat.ability == "per_other_fed_cat_eating_food":
        return [
            tuple(cat.params["amount"] if f == food else 0 for f in FOODS)
            for food in cat.params["foods"]
        ]
    needs = dict(cat.needs)
    return [tuple(needs.get(f, 0) for f in FOODS)]


def can_pay(demand, have, wild, conversions):
    for spend in itertools.product(range(wild + 1), repeat=3):
        if sum(spend) > wild:
            continue
        short = [max(0, d - h - s) for d, h, s in zip(demand, have, spend, strict=True)]
        spare = [max(0, h - d) for d, h in zip(demand, have, strict=True)]
        # each converted token comes from a type with spare food
        if sum(short) <= min(conversions, sum(spare)):
            return True
    return False


def colour_sets(colour_sets_of_fed):
    best = 0

    def search(remaining, groups):
        nonlocal best
        best = max(best, groups)
        for size in range(1, len(remaining) + 1):
            for combo in itertools.combinations(range(len(remaining)), size):
                covered = set().union(*(remaining[i] for i in combo))
                if covered >= {"black", "orange", "white"}:
                    rest = [c for i, c in enumerate(remaining) if i not in combo]
                    search(rest, groups + 1)
                    return  # the first member of `remaining` is used in this branch

    # try each cat as the one skipped or used: enumerate subsets by recursion on order
    def outer(remaining, groups):
        if not remaining:
            nonlocal best
            best = max(best, groups)
            return
        outer(remaining[1:], groups)
        head, tail = remaining[0], remaining[1:]
        for size in range(0, len(tail) + 1):
            for combo in itertools.combinations(range(len(tail)), size):
                covered = set(head).union(*(tail[i] for i in combo))
                if covered >= {"black", "orange", "white"}:
                    outer([c for i, c in enumerate(tail) if i not in combo], groups + 1)

    outer(list(colour_sets_of_fed), 0)
    return best


def oracle(cats, food, catnip, toys, costumes):
    """All (vp, fed, leftover) outcomes of every feasible feeding, by brute force."""
    have = tuple(food.get(f, 0) for f in FOODS)
    wild = food.get("wild", 0)
    total = sum(have) + wild
    outcomes = set()
    choices = [[None, *meals_of(cat, total)] for cat in cats]
    for plan in itertools.product(*choices):
        demand = tuple(sum(m[i] for m in plan if m is not None) for i in range(3))
        conversions = sum(
            c.params["count"]
            for c, m in zip(cats, plan, strict=True)
            if m is not None and c.ability == "food_as_wild"
        )
        if sum(demand) > total or not can_pay(demand, have, wild, conversions):
            continue
        fed = [(c, m) for c, m in zip(cats, plan, strict=True) if m is not None]
        vp = -2 * (len(cats) - len(fed))
        extra_catnip = 0
        for cat, meal in fed:
            value = cat.vp or 0
            p = cat.params
            if cat.ability == "per_colour_fed":
                value += p["vp_each"] * sum(1 for c, _ in fed if p["colour"] in c.colours)
            elif cat.ability == "colour_sets":
                value += p["vp_each"] * colour_sets([{str(x) for x in c.colours} for c, _ in fed])
            elif cat.ability == "per_costume":
                value += p["vp_each"] * costumes
            elif cat.ability == "per_toy":
                value += p["vp_each"] * toys
            elif cat.ability == "counts_as_catnip":
                extra_catnip += p["catnip"]
            elif cat.ability == "vp_per_food_fed":
                value += p["vp_each"] * sum(meal)
            elif cat.ability == "most_fed_cats":
                value += p["vp_otherwise"]
            elif cat.ability == "per_other_fed_cat_eating_food":
                t = max(range(3), key=lambda i: meal[i])
                value += p["vp_each"] * sum(1 for c, m in fed if c is not cat and m[t] > 0)
            vp += value
        vp += BASE.scoring.catnip_vp(catnip + extra_catnip, len(fed))
        outcomes.add((vp, len(fed), total - sum(demand)))
    return outcomes


tableaux = st.fixed_dictionaries(
    {
        "cats": st.lists(st.sampled_from(ALL_CATS), min_size=0, max_size=4, unique=True),
        "food": st.fixed_dictionaries({f: st.integers(0, 3) for f in (*FOODS, "wild")}),
        "catnip": st.integers(0, 4),
        "toys": st.integers(0, 3),
        "costumes": st.integers(0, 2),
    }
)


@settings(max_examples=1000, deadline=None)
@given(tableaux)
def test_optimiser_matches_brute_force(t):
    cats = [BASE.cat(name) for name in t["cats"]]
    if sum(t["food"].values()) > 7 and any(c.name == "Cow" for c in cats):
        t["food"] = {"chicken": 1, "tuna": 2, "milk": 1, "wild": 1}  # keep the oracle small
    options = feeding_options(
        cats, t["food"], edition=BASE, catnip=t["catnip"], toys=t["toys"], costumes=t["costumes"]
    )
    outcomes = oracle(cats, t["food"], t["catnip"], t["toys"], t["costumes"])
    assert options, "there is always at least one feeding (nobody fed)"
    # the best VP found is the true best
    assert options[0].vp == max(vp for vp, _, _ in outcomes)
    # every option is achievable...
    for option in options:
        assert (option.vp, option.fed, option.leftover) in outcomes
    # ...and every achievable outcome is matched or beaten by some option
    for vp, fed, left in outcomes:
        assert any(o.vp >= vp and o.fed >= fed and o.leftover <= left for o in options), (
            vp,
            fed,
            left,
            options,
        )
