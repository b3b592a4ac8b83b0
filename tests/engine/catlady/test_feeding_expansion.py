"""The expansion scorer against its frozen pre-optimisation search (differential tests).

``tests/engine/catlady/reference_feeding_expansion.py`` is engine/catlady/feeding_expansion.py as it was before
the speed work. Positions from random games of the placeholder Box of Treats deck (2 to 6
players, mid-game as the greedy bot sees them, and at the end) are scored twice: with the
current search and with the frozen one patched in. Every score pad must be identical,
feeding plans, choices and notes included.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from unittest import mock

import pytest

from engine import load_game
from engine.catlady import feeding_expansion
from engine.catlady.feeding_expansion import Holdings, options_for
from tests.engine.catlady import reference_feeding_expansion


def positions(players, n_games, seed):
    """Every 7th position of random games, and every final one."""
    game = load_game(options={"players": players, "edition": "box-of-treats-placeholder"})
    rng = random.Random(seed)
    for game_seed in range(seed, seed + n_games):
        state = game.new_initial_state(game_seed)
        step = 0
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_actions()))
            step += 1
            if step % 7 == 0:
                yield state
        yield state


def oracle_score(state):
    with mock.patch(
        "engine.catlady.scoring_expansion.options_for", reference_feeding_expansion.options_for
    ):
        return state.score().to_json()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_placeholder_positions_score_identically(players):
    checked = 0
    for state in positions(players, n_games=4, seed=100 * players):
        feeding_expansion._cached.cache_clear()
        assert state.score().to_json() == oracle_score(state)
        checked += 1
    assert checked > 20


def plain(options):
    return [repr(o) for o in options]


def options_both_ways(holdings, edition):
    """The options of ``holdings`` from the current search and from the frozen one, each
    worked out afresh."""
    feeding_expansion._cached.cache_clear()
    reference_feeding_expansion._cached.cache_clear()
    new = options_for(holdings, edition)
    old = reference_feeding_expansion.options_for(
        reference_feeding_expansion.Holdings(
            **{f: getattr(holdings, f) for f in holdings.__dataclass_fields__}
        ),
        edition,
    )
    return new, old


def test_options_match_for_each_players_holdings():
    """The options themselves (not just the chosen one), for every tableau seen."""
    from engine.catlady.scoring_expansion import _holdings

    seen = 0
    for state in positions(4, n_games=3, seed=7):
        edition = state.game.edition
        for tableau in state.tableaux():
            holdings = _holdings(tableau, edition)
            new, old = options_both_ways(holdings, edition)
            assert plain(new) == plain(old)
            seen += 1
    assert seen > 50
    assert isinstance(holdings, Holdings)


def random_holdings(rng, edition, n_cats):
    """Holdings no random game reaches often: many cats with abilities, scarce or plentiful
    food, treats, toys, costumes, catnip, discards and boxes, sometimes the cat player's."""
    specs = [card.cat for card in edition.deck if card.cat is not None]
    specs += list(edition.strays)
    by_name = {spec.name: spec for spec in specs}
    boxes = [card.box for card in edition.deck if card.box is not None]
    food = {
        "chicken": rng.randint(0, 5),
        "tuna": rng.randint(0, 5),
        "milk": rng.randint(0, 5),
        "wild": rng.randint(0, 2),
        "treat": rng.choice([0, 0, 1, 2, 3]),
    }
    return Holdings(
        cats=tuple(by_name[name] for name in rng.sample(sorted(by_name), n_cats)),
        food_items=tuple(sorted((k, v) for k, v in food.items() if v)),
        toys=tuple(rng.randint(0, 2) for _ in edition.toy_types),
        costumes=rng.randint(0, 3),
        catnip=rng.randint(0, 3),
        lost_cats=rng.randint(0, 2),
        spray_bottles=rng.randint(0, 2),
        boxes=tuple(rng.sample(boxes, rng.randint(0, min(3, len(boxes))))),
        wild_toys=rng.choice([0, 0, 0, 1]),
        cat_player=rng.random() < 0.1,
    )


def test_options_match_on_random_holdings_of_five_to_nine_cats():
    """The branch and bound (engine/catlady/feeding_expansion.py, _Bound) cuts only what
    would be refused: the options found, and the order they are found in, are the frozen
    search's, on holdings with every ability of the placeholder deck."""
    edition = load_game(options={"edition": "box-of-treats-placeholder"}).edition
    rng = random.Random(15)
    abilities = set()
    seconds = 0
    for _ in range(160):
        holdings = random_holdings(rng, edition, rng.randint(5, 9))
        abilities.update(c.ability for c in holdings.cats)
        new, old = options_both_ways(holdings, edition)
        assert plain(new) == plain(old), [c.name for c in holdings.cats]
        if old and any(p.mode == "hungry" for p in old[0].plates):
            # Scrappy's second feeding: the fed keep their plates (treats too), the hungry
            # may eat what is left and what is borrowed.
            again = dataclasses.replace(
                holdings,
                fixed=tuple((k, p) for k, p in enumerate(old[0].plates) if p.mode != "hungry"),
                food_items=tuple(
                    sorted(
                        (
                            Counter(old[0].leftover_food)
                            + Counter({rng.choice(["chicken", "tuna", "milk"]): rng.randint(1, 3)})
                        ).items()
                    )
                ),
            )
            seconds += 1
            new, old = options_both_ways(again, edition)
            assert plain(new) == plain(old), ("again", [c.name for c in holdings.cats])
    assert len(abilities) > 20  # every kind of ability was met
    assert seconds > 40


def test_a_plan_kept_only_for_its_catnip_is_not_cut():
    """Macak counts as a catnip: feeding him instead of Lily is worth less but holds one
    more catnip, so both plans are options (catnip is compared across players). The
    bound must count the catnip a plan below could still hold."""
    edition = load_game(options={"edition": "box-of-treats-placeholder"}).edition
    holdings = Holdings(
        cats=tuple(edition.cat(n) for n in ("Shadow", "Sox", "Lily", "Macak", "Jazz")),
        food_items=(("chicken", 2), ("milk", 1)),
        toys=(0,) * len(edition.toy_types),
    )
    new, old = options_both_ways(holdings, edition)
    assert plain(new) == plain(old)
    assert len({o.catnip for o in new}) == 2
