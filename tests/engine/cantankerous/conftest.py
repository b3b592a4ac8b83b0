"""Fixtures: games and positions on the test deck (see helpers.py for its cards)."""

from __future__ import annotations

import json

import pytest

from engine.cantankerous.position import state_from_position
from engine.registry import load_game
from tests.engine.cantankerous.helpers import deck_data


@pytest.fixture(scope="session")
def deck_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("decks") / "test-deck.json"
    path.write_text(json.dumps(deck_data()))
    return str(path)


@pytest.fixture(scope="session")
def make_game(deck_path):
    def make(players=2, **options):
        return load_game(
            "cantankerous-cats", options={"players": players, "deck": deck_path, **options}
        )

    return make


@pytest.fixture(scope="session")
def position(make_game):
    """position(players=2, variant="standard", **position_keys) -> State on the test deck."""

    def build(players=2, variant="standard", options=None, **keys):
        game = make_game(players, variant=variant, **(options or {}))
        return state_from_position(game, keys)

    return build
