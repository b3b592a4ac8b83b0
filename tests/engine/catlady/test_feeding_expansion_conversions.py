"""Moonbeam's conversions in the expansion search: they pay a type's shortfall only from the
food no type needs, so an "any food" eater (Cow) may still eat a type Moonbeam frees up.

The case below was the "scorer disagreement" of the README: the base search found 7 VP of fed
cats and the expansion search 5, because it converted a tuna into chicken for Moonbeam before
paying the tuna, leaving Cow only milk and Truffle only one other tuna eater.
"""

from __future__ import annotations

from engine.catlady.cards import load_edition
from engine.catlady.feeding import feeding_options
from engine.catlady.feeding_expansion import Holdings, options_for
from engine.catlady.scoring import DEFAULT_RULES, Tableau, score_game
from engine.catlady.scoring_expansion import score_expansion
from tests.engine.catlady import reference_feeding_expansion

BASE = load_edition()
CATS = ("Moonbeam", "Alvin", "Cow", "Truffle")
FOOD = {"tuna": 2, "milk": 2}


def test_both_searches_find_seven_vp_of_fed_cats() -> None:
    cats = tuple(BASE.cat(name) for name in CATS)
    base = feeding_options(cats, FOOD, edition=BASE, catnip=0, toys=0, costumes=0)
    holdings = Holdings(
        cats=cats, food_items=tuple(sorted(FOOD.items())), toys=(0,) * 5, costumes=0, catnip=0
    )
    expansion = options_for(holdings, BASE)
    assert base[0].vp == 7
    assert max(o.lines["fed_cats"] + o.lines["catnip"] for o in expansion) == 7
    # The frozen oracle carries the same rule fix, so the differential tests still hold.
    oracle = reference_feeding_expansion.options_for(holdings, BASE)
    assert [repr(o) for o in oracle] == [repr(o) for o in expansion]


def test_truffle_counts_cow_fed_tuna_that_moonbeam_freed() -> None:
    tableaux = [Tableau("Ann", cats=CATS, food=FOOD)] + [
        Tableau(name, cats=()) for name in ("Bob", "Cy", "Di")
    ]
    base = score_game(tableaux, edition=BASE)
    expansion = score_expansion(tableaux, edition=BASE, rules=DEFAULT_RULES)
    for score in (base, expansion):
        ann = score.players[0]
        assert (ann.fed_cats, ann.total) == (7, 5)
        plates = {f.cat: f for f in ann.feeding}
        assert plates["Truffle"].vp == 4  # Moonbeam and Cow eat tuna too
        assert plates["Alvin"].vp == -2
    assert [f.describe() for f in expansion.players[0].feeding] == [
        "Moonbeam: chicken (tuna), tuna -> 3 VP",
        "Alvin: hungry -> -2 VP",
        "Cow: tuna (milk) -> 2 VP",
        "Truffle: tuna (milk) -> 4 VP",
    ]
