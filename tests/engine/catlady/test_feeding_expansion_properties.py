"""The general feeding search (used with expansion cards) against the base search, which is
itself checked against a brute force: on base tableaux both must find the same outcomes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catlady.cards import load_edition
from engine.catlady.feeding import feeding_options
from engine.catlady.feeding_expansion import Holdings, options_for

BASE = load_edition()
ALL_CATS = sorted({c.cat.name for c in BASE.deck if c.cat} | {s.name for s in BASE.strays})
FOODS = ("chicken", "tuna", "milk", "wild")

tableaux = st.fixed_dictionaries(
    {
        "cats": st.lists(st.sampled_from(ALL_CATS), min_size=0, max_size=5, unique=True),
        "food": st.fixed_dictionaries({f: st.integers(0, 3) for f in FOODS}),
        "catnip": st.integers(0, 4),
        "toys": st.integers(0, 3),
        "costumes": st.integers(0, 2),
    }
)


@settings(max_examples=400, deadline=None)
@given(tableaux)
def test_general_search_finds_what_the_base_search_finds(t):
    cats = tuple(BASE.cat(name) for name in t["cats"])
    base = feeding_options(
        cats, t["food"], edition=BASE, catnip=t["catnip"], toys=t["toys"], costumes=t["costumes"]
    )
    holdings = Holdings(
        cats=cats,
        food_items=tuple(sorted(t["food"].items())),
        toys=(t["toys"], 0, 0, 0, 0),
        costumes=t["costumes"],
        catnip=t["catnip"],
    )
    general = options_for(holdings, BASE)

    def outcome(o):  # fed-cat VP + catnip (the base option's vp), with Hemingway's bonus
        return (o.lines["fed_cats"] + o.lines["catnip"], o.fed, o.leftover, o.bonus)

    general_outcomes = [outcome(o) for o in general]
    assert max(v for v, *_ in general_outcomes) == base[0].vp
    for b in base:
        assert any(
            v >= b.vp and f >= b.fed and left <= b.leftover and v + bonus >= b.vp + b.bonus
            for v, f, left, bonus in general_outcomes
        ), (b, general_outcomes)
    for v, f, left, bonus in general_outcomes:
        assert any(
            b.vp >= v and b.fed >= f and b.leftover <= left and b.vp + b.bonus >= v + bonus
            for b in base
        ), ((v, f, left, bonus), base)


def test_cow_may_eat_food_that_moonbeam_turned_into_another_type():
    # Found by the property above: 1 milk and 3 wilds. Moonbeam turns the milk into a wild, so
    # Moonbeam (chicken + tuna), Cow (1 chicken) and Truffle (chicken) all eat: 3 + 2 + 2x2.
    cats = tuple(BASE.cat(name) for name in ("Moonbeam", "Cow", "Truffle"))
    food = {"chicken": 0, "tuna": 0, "milk": 1, "wild": 3}
    holdings = Holdings(
        cats=cats,
        food_items=tuple(sorted(food.items())),
        toys=(0, 0, 0, 0, 0),
        costumes=0,
        catnip=0,
    )
    best = max(options_for(holdings, BASE), key=lambda o: o.lines["fed_cats"])
    assert best.lines["fed_cats"] == 9
    assert best.cat_vp == (3, 2, 4)
    assert feeding_options(cats, food, edition=BASE, catnip=0, toys=0, costumes=0)[0].vp == 9
