"""The base feeding search against its frozen pre-optimisation copy (differential tests).

``tests/engine/catlady/reference_feeding.py`` is engine/catlady/feeding.py as it was before the speed work.
Every option must come out identical: the same Pareto set, the same meal chosen for each
option (the first the old search found), the same order. Whole games are compared too, by
scoring them once with the current search and once with the oracle patched in.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import load_game
from engine.catlady import feeding
from engine.catlady.cards import load_edition
from engine.catlady.scoring import ScoringRules, score_game
from scripts.bench_scoring import dealt_end_states
from tests.engine.catlady import reference_feeding

BASE = load_edition()
FOODS = ("chicken", "tuna", "milk")
ALL_CATS = sorted({c.cat.name for c in BASE.deck if c.cat} | {s.name for s in BASE.strays})
HEAVY = ("Cow", "Waffle", "Moonbeam", "Truffle", "LeVar Purrton", "Hemingway", "Macak")


def plain(options):
    """Options as plain tuples, meals included, so two modules' dataclasses compare."""
    return [
        (
            o.vp,
            o.fed,
            o.leftover,
            o.bonus,
            tuple(None if m is None else (m.amounts, m.rest) for m in o.meals),
            o.catnip,
            o.cat_vp,
            o.bonus_cat,
            o.any_eaten,
        )
        for o in options
    ]


def both(cats, food, catnip, toys, costumes, macak_optional):
    specs = [BASE.cat(name) for name in cats]
    kwargs = dict(
        edition=BASE, catnip=catnip, toys=toys, costumes=costumes, macak_optional=macak_optional
    )
    feeding._cached_options.cache_clear()
    new = feeding.feeding_options(specs, food, **kwargs)
    old = reference_feeding._Search(specs, food, **kwargs).run()
    old.sort(key=lambda o: (-o.vp, -o.fed, o.leftover, -o.bonus))
    return plain(new), plain(old)


tableaux = st.fixed_dictionaries(
    {
        "cats": st.lists(st.sampled_from(ALL_CATS), min_size=0, max_size=9, unique=True),
        "food": st.fixed_dictionaries({f: st.integers(0, 5) for f in (*FOODS, "wild")}),
        "catnip": st.integers(0, 5),
        "toys": st.integers(0, 4),
        "costumes": st.integers(0, 3),
        "macak_optional": st.booleans(),
    }
)

# Tableaux built around the cats that switch pruning off or change what is feasible.
heavy_tableaux = st.fixed_dictionaries(
    {
        "cats": st.lists(st.sampled_from(HEAVY), min_size=1, max_size=4, unique=True).flatmap(
            lambda heavy: st.lists(st.sampled_from(ALL_CATS), max_size=5, unique=True).map(
                lambda rest: list(dict.fromkeys([*heavy, *rest]))
            )
        ),
        "food": st.fixed_dictionaries({f: st.integers(0, 4) for f in (*FOODS, "wild")}),
        "catnip": st.integers(0, 5),
        "toys": st.integers(0, 2),
        "costumes": st.integers(0, 2),
        "macak_optional": st.booleans(),
    }
)


@settings(max_examples=1500, deadline=None)
@given(tableaux)
def test_feeding_options_match_the_frozen_search(t):
    new, old = both(**t)
    assert new == old


@settings(max_examples=800, deadline=None)
@given(heavy_tableaux)
def test_feeding_options_match_the_frozen_search_with_ability_cats(t):
    new, old = both(**t)
    assert new == old


def test_known_tricky_tableaux_match():
    cases = [
        # Cow competes with Alvin for the wilds: the only non-maximal case the old search keeps.
        (["Cow", "Alvin"], {"wild": 2}),
        (["Moonbeam", "Bronte", "Pumpkin", "Sox"], {"chicken": 4, "tuna": 1, "wild": 1}),
        (["Waffle", "Truffle", "Cow", "Sir Cuddleface"], {"tuna": 3, "milk": 2, "wild": 1}),
        (["Macak", "Hemingway", "Bronte"], {"milk": 2, "tuna": 1}),
    ]
    for cats, food in cases:
        for macak_optional in (False, True):
            new, old = both(cats, food, catnip=1, toys=1, costumes=1, macak_optional=macak_optional)
            assert new == old, cats


def score_with_oracle(tableaux, rules):
    with (
        mock.patch("engine.catlady.scoring.feeding_options", reference_feeding.feeding_options),
        mock.patch("engine.catlady.scoring.allocate_tokens", reference_feeding.allocate_tokens),
    ):
        return score_game(tableaux, edition=BASE, rules=rules, validate=False).to_json()


RULES = [
    ScoringRules(),
    ScoringRules(
        costume_split="down", penalty_when_nobody_has_leftover=True, macak_catnip_optional=True
    ),
]


def test_whole_dealt_end_states_score_identically():
    # The end states the scoring benchmark times: the 4-player deck dealt in threes.
    for n, state in enumerate(dealt_end_states(600, seed=7)):
        rules = RULES[n % 2]
        feeding._cached_options.cache_clear()
        new = score_game(state, edition=BASE, rules=rules, validate=False).to_json()
        assert new == score_with_oracle(state, rules)


def test_random_games_score_identically():
    rng = random.Random(3)
    for players in (2, 3, 4):
        game = load_game(options={"players": players, "edition": "base"})
        for seed in range(150):
            state = game.new_initial_state(seed)
            while not state.is_terminal():
                state = state.apply(rng.choice(state.legal_actions()))
            tableaux = state.tableaux()
            feeding._cached_options.cache_clear()
            new = score_game(tableaux, edition=BASE, validate=False).to_json()
            assert new == score_with_oracle(tableaux, ScoringRules())


MAIN_DECK_CATS = sorted({c.cat.name for c in BASE.deck if c.cat})
STRAYS = sorted(s.name for s in BASE.strays)
# The largest tableau a real game allows (the file says why); scripts/bench_scoring.py times it.
LARGEST = json.loads((Path(__file__).parent / "largest_tableau.json").read_text())


def random_counts(rng):
    """Catnip, toys and costumes for a random large tableau."""
    return {"catnip": rng.randint(0, 4), "toys": rng.randint(0, 2), "costumes": rng.randint(0, 2)}


def test_large_tableaux_with_an_any_food_eater_match():
    """Cow makes the search exhaustive; the branch and bound and the eater rule that cut it
    must keep every option and every first-found meal."""
    rng = random.Random(15)
    for _ in range(60):
        strays = ["Cow", *rng.sample([s for s in STRAYS if s != "Cow"], 2)]
        cats = strays + rng.sample(MAIN_DECK_CATS, rng.randint(4, 7))
        rng.shuffle(cats)
        food = {f: rng.randint(0, 6) for f in (*FOODS, "wild")}
        food["wild"] = min(food["wild"], 3)
        new, old = both(cats, food, **random_counts(rng), macak_optional=rng.random() < 0.5)
        assert new == old, (cats, food)


def test_large_tableaux_with_colour_counters_and_waffle_match():
    """The branch and bound counts Waffle at her most food and Alvin, Dinah and Luna as if
    every cat of their colour were fed, and takes the difference off as cats are decided;
    a correction too large would drop a plan the frozen search keeps."""
    rng = random.Random(21)
    counters = ["Alvin", "Dinah", "Luna"]
    for _ in range(25):
        strays = ["Cow", "Waffle", rng.choice([s for s in STRAYS if s not in ("Cow", "Waffle")])]
        main = [c for c in MAIN_DECK_CATS if c not in counters]
        cats = strays + rng.sample(counters, rng.randint(1, 3)) + rng.sample(main, 6)
        rng.shuffle(cats)
        food = {f: rng.randint(1, 6) for f in FOODS}
        food["wild"] = rng.randint(0, 3)
        new, old = both(cats, food, **random_counts(rng), macak_optional=False)
        assert new == old, (cats, food)


def test_the_largest_real_tableau_matches():
    cats, food = LARGEST["cats"], LARGEST["food"]
    new, old = both(cats, food, catnip=2, toys=1, costumes=1, macak_optional=False)
    assert new == old
