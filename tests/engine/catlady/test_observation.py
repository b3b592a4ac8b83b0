"""What a seat may know. Observations are built incrementally (parts shared while unchanged); they must still be
exactly what the frozen earlier ``observe()`` gave, for every seat of thousands of random
positions, including positions revisited after their successors were observed (branching, as
search bots do)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter

import pytest

from engine import load_game
from engine.catlady.actions import EndTurn
from engine.catlady.game import State
from engine.catlady.observation import observe
from engine.readonly import ReadOnlyDict, ReadOnlyList
from tests.engine.catlady import reference_observation
from tests.engine.catlady.helpers import random_midgame

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


# Read-only parts already seen to go through JSON unchanged, by id; holding them keeps
# their ids from being reused. A part is shared by many observations (memoised between
# states) and cannot change, so one round trip per part says what one per observation did.
_PARTS_SENT_AS_JSON: dict[int, ReadOnlyDict | ReadOnlyList] = {}


def _same(state, seat: int) -> None:
    new = observe(state, seat)
    old = reference_observation.observe(state, seat)
    assert new == old
    # As json.loads(json.dumps(new)) == old, one top-level entry at a time.
    assert all(isinstance(key, str) for key in new)
    for key, part in new.items():
        if part is None or isinstance(part, str | int | float):
            continue  # JSON gives a plain value back as it was, and new == old compared it
        if isinstance(part, ReadOnlyDict | ReadOnlyList):
            if id(part) in _PARTS_SENT_AS_JSON:
                continue
            _PARTS_SENT_AS_JSON[id(part)] = part
        assert json.loads(json.dumps(part)) == old[key]


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


def _vandalise(value) -> int:
    """Try to change every list and dict inside an observation, as a careless caller might;
    how many refused."""
    refused = 0
    if isinstance(value, dict):
        for inner in list(value.values()):
            refused += _vandalise(inner)
        for change in (value.clear, lambda: value.update(changed=True), lambda: value.pop("x")):
            with pytest.raises(TypeError, match="read-only"):
                change()
            refused += 1
    elif isinstance(value, list):
        for inner in value:
            refused += _vandalise(inner)
        for change in (lambda: value.append("changed"), value.clear, value.sort):
            with pytest.raises(TypeError, match="read-only"):
                change()
            refused += 1
    return refused


def test_an_observations_parts_are_read_only_and_its_copies_are_the_callers() -> None:
    """Parts are shared between observations (memoised between states), so every list and
    dict inside one refuses changes, and stays as it was; the observation dict itself and
    copies of its parts are the caller's (the arena's replay trims tableaux it is given)."""
    for options in ({"players": 4}, {"players": 6, "edition": PH}):
        game = load_game(options=options)
        rng = random.Random(5)
        state = game.new_initial_state(5)
        while not state.is_terminal():
            for seat in range(game.num_players):
                obs = observe(state, seat)
                assert sum(_vandalise(part) for part in obs.values()) > 10
                _same(state, seat)
                obs["seat"] = "mine"
                hand = obs["tableaux"][seat]["hand"].copy()
                hand.append("changed")
                trimmed = copy.deepcopy(obs["tableaux"])
                trimmed[0].pop("cats")
                trimmed[0]["food"]["wild"] = 99
                _same(state, seat)
            state = state.apply(rng.choice(state.legal_actions()))


# ==========================================================================================
# engine.catlady.observation: the full view (for replays of finished matches) holds exactly the
# hidden part that observations leave out.
# ==========================================================================================


def test_full_view_holds_the_unseen_cards_in_draw_order_and_the_face_down_strays() -> None:
    game = load_game(options={"players": 3})
    state = game.new_initial_state(11)
    rng = random.Random(11)
    while not state.is_terminal():
        view = state.full_view()
        obs = state.observation(0)
        assert view["seat"] is None
        assert len(view["deck"]) == obs["deck_size"]
        assert len(view["removed"]) == obs["removed_unseen"]
        assert Counter(view["deck"] + view["removed"]) == Counter(obs["unseen"])
        shown = set(obs["strays"]) | {s for t in obs["tableaux"] for s in t["strays"]}
        assert not shown & set(view["strays_face_down"])
        assert "deck" not in obs and "strays_face_down" not in obs
        before = view["deck"]
        state = state.apply(rng.choice(state.legal_actions()))
        drawn = len(before) - state.observation(0)["deck_size"]
        # The cards drawn are the ones the full view said came next, and the grid shows them.
        if drawn:
            grid = Counter(k for k in state.observation(0)["grid"] if k)
            assert not Counter(before[:drawn]) - grid


def test_observation_is_json_and_shows_the_public_position():
    state = random_midgame(4, seed=3, moves=20)
    obs = state.observation(2)
    assert json.loads(json.dumps(obs)) == obs
    assert obs["seat"] == 2 and obs["players"] == 4
    assert obs["deck_size"] == state.deck_size
    assert len(obs["grid"]) == 9 and len(obs["tableaux"]) == 4
    assert obs["strays"] == list(state.face_up_strays)
    assert obs["token"] == str(state.token)
    mover = state.current_player
    assert state.observation(mover)["legal_actions"] == [str(a) for a in state.legal_actions()]
    assert state.observation((mover + 1) % 4)["legal_actions"] == []


def test_observation_counts_unseen_cards_without_their_order():
    state = random_midgame(2, seed=5, moves=12)
    obs = state.observation(0)
    assert sum(obs["unseen"].values()) == state.deck_size + 2
    on_table = (
        len([c for c in obs["grid"] if c])
        + sum(obs["discard"].values())
        + sum(len(t["cats"]) + len(t["hand"]) for t in obs["tableaux"])
    )
    assert on_table + sum(obs["unseen"].values()) == 74


def hidden_twin(state: State, rng: random.Random) -> State:
    """The same state with the hidden cards (deck order, removed cards, stray deck) shuffled."""
    twin = state._successor(EndTurn())
    twin._history = state._history
    hidden = list(state._deck[state._pos :] + state._removed)
    rng.shuffle(hidden)
    cut = len(hidden) - len(state._removed)
    twin._deck = state._deck[: state._pos] + tuple(hidden[:cut])
    twin._removed = tuple(hidden[cut:])
    strays = list(state._strays_hidden)
    rng.shuffle(strays)
    twin._strays_hidden = tuple(strays)
    return twin


@pytest.mark.parametrize(("players", "moves"), [(2, 0), (2, 15), (3, 30), (4, 45)])
def test_observation_never_reveals_deck_order_removed_cards_or_hidden_strays(players, moves):
    state = random_midgame(players, seed=players + moves, moves=moves)
    rng = random.Random(1)
    for _ in range(5):
        twin = hidden_twin(state, rng)
        assert twin._deck != state._deck or twin._removed != state._removed or players == 4
        for seat in range(players):
            assert twin.observation(seat) == state.observation(seat)
    text = json.dumps(state.observation(0))
    for stray in state._strays_hidden:
        assert state.game.edition.strays[stray].name not in text
