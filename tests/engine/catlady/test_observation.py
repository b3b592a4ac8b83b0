"""Observations are built incrementally (parts shared while unchanged); they must still be
exactly what the frozen earlier ``observe()`` gave, for every seat of thousands of random
positions, including positions revisited after their successors were observed (branching, as
search bots do)."""

from __future__ import annotations

import json
import random

import pytest

from engine import load_game
from engine.catlady.observation import observe
from tests.engine.catlady import reference_observation

PH = "box-of-treats-placeholder"

SETUPS = [
    ({"players": 2}, range(6)),
    ({"players": 3}, range(6)),
    ({"players": 4}, range(6)),
    ({"players": 3, "edition": PH}, range(3)),
    ({"players": 6, "edition": PH}, range(3)),
    ({"players": 4, "edition": PH, "shared_goals": True}, range(2)),
    ({"players": 2, "edition": PH, "solitaire": True}, range(3)),
]


def _same(state, seat: int) -> None:
    new = observe(state, seat)
    old = reference_observation.observe(state, seat)
    assert new == old
    assert json.loads(json.dumps(new)) == old


@pytest.mark.parametrize(("options", "seeds"), SETUPS, ids=[str(o) for o, _ in SETUPS])
def test_observations_match_the_earlier_observe_at_every_position(options, seeds) -> None:
    game = load_game(options=options)
    compared = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        path = [state]
        while not state.is_terminal():
            for seat in range(game.num_players):
                _same(state, seat)
                compared += 1
            if len(path) > 3 and rng.random() < 0.1:
                # Revisit an earlier state, then branch from it with another move.
                state = rng.choice(path[:-1])
                _same(state, state.current_player)
            state = state.apply(rng.choice(state.legal_actions()))
            path.append(state)
        for seat in range(game.num_players):
            _same(state, seat)
    assert compared > 100 * len(seeds)


def test_sibling_branches_never_see_each_others_parts() -> None:
    game = load_game(options={"players": 4})
    rng = random.Random(7)
    for seed in range(20):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            observe(state, state.current_player)
            children = [state.apply(a) for a in state.legal_actions()]
            for child in rng.sample(children, min(3, len(children))):
                for seat in range(game.num_players):
                    _same(child, seat)
            _same(state, state.current_player)
            state = rng.choice(children)


def _vandalise(value) -> None:
    """Change every list and dict inside an observation, as a careless caller might."""
    if isinstance(value, dict):
        for inner in list(value.values()):
            _vandalise(inner)
        value.clear()
        value["changed"] = True
    elif isinstance(value, list):
        for inner in value:
            _vandalise(inner)
        value.append("changed")


def test_changing_an_observation_changes_no_other() -> None:
    """The arena's replay pops keys from the tableaux it is given: what a caller does to its
    observation must not reach the next one (parts are memoised between states)."""
    for options in ({"players": 4}, {"players": 6, "edition": PH}):
        game = load_game(options=options)
        rng = random.Random(5)
        state = game.new_initial_state(5)
        while not state.is_terminal():
            for seat in range(game.num_players):
                _vandalise(observe(state, seat))
                _same(state, seat)
            state = state.apply(rng.choice(state.legal_actions()))
