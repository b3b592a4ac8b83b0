"""Cat Lady's moves in people's words: over many random positions of every playable setup,
every legal move names the cards it takes by their printed names, never by a bare number."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.catlady.actions import Brush, Laser, LostCatsForStray, SwapGoal, Take
from engine.catlady.game import State
from engine.catlady.words import describe_move

SETUPS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5, "edition": "box-of-treats-placeholder"},
    {"players": 3, "edition": "box-of-treats-placeholder", "shared_goals": True},
    {"players": 2, "edition": "box-of-treats-placeholder", "solitaire": True},
]
# What may hold a number in a label once the card names are taken out: a grid line or place.
ALLOWED_NUMBERS = re.compile(r"\b(row|col) [123]\b|\b2-VP\b|\b1 (chicken|tuna|milk)\b")


def positions(options: dict[str, object], games: int = 6) -> list[State]:
    game = engine.load_game("cat-lady", options=options)
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return found


def names_in(state: State) -> set[str]:
    return {state.game.card_name(card) for card in state.grid if card is not None}


@pytest.mark.parametrize("options", SETUPS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_every_legal_move_names_its_cards_and_holds_no_bare_number(options):
    described = 0
    for state in positions(options):
        cards = names_in(state)
        for action in state.legal_actions():
            words = describe_move(state, action)
            label = words["label"]
            assert words["rule"], action
            stripped = label
            if isinstance(action, LostCatsForStray):
                stripped = stripped.replace(action.stray, "")
            if isinstance(action, Brush):
                stripped = stripped.replace(action.cat, "")
            if isinstance(action, SwapGoal):  # a goal's name from the card data
                stripped = stripped.replace(action.goal, "")
            for name in sorted(cards, key=len, reverse=True):
                stripped = stripped.replace(name, "")
            stripped = ALLOWED_NUMBERS.sub("", stripped)
            assert not re.search(r"\d", stripped), f"bare number in {label!r} ({action})"
            if isinstance(action, Take):
                for slot in action.line.slots:
                    card = state.grid[slot]
                    if card is not None:
                        assert state.game.card_name(card) in label
                assert words["picks"] == [f"line:{action.line}"]
            if isinstance(action, Laser):
                assert len(words["picks"]) == 3
            described += 1
    assert described > 100


def test_a_take_names_the_three_cards_of_its_line_in_grid_order():
    game = engine.load_game("cat-lady", options={"players": 2})
    state = game.new_initial_state(1)
    state = state.apply(state.legal_actions()[0])  # the cat token blocks row 1
    take = next(a for a in state.legal_actions() if str(a) == "take row 2")
    names = [game.card_name(state.grid[slot]) for slot in (3, 4, 5)]
    assert describe_move(state, take)["label"] == "Take row 2: " + ", ".join(names)
