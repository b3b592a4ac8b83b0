"""Observations (what each seat may see) and the full view for replay viewers."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError
from tests.engine.cantankerous.helpers import act


def test_observation_shows_own_hand_and_public_table_only(position):
    s = position(3, hands=[[6, 21], [7, 8], [9]], houses=[[1], [], []], points=[2, 0, 0])
    obs = s.observation(1)
    assert obs["hand"] == [7, 8] and obs["seat"] == 1
    assert [cat["hand_size"] for cat in obs["cats"]] == [2, 2, 1]
    assert obs["cats"][0]["house"] == [1] and obs["cats"][0]["mischief"] == 2
    assert obs["cats"][0]["affection"] == 1 and obs["cats"][0]["status"] == "domestic"
    assert obs["legal_actions"] == [] and obs["current_player"] == 0
    assert set(obs["cards"]) == {"1", "7", "8"}  # own hand and the banked card
    assert obs["cards"]["7"]["hearts"] == 2
    text = json.dumps(obs)
    assert '"6"' not in text and '"21"' not in text
    mover = s.observation(0)
    assert mover["legal_actions"][0] == "picky-eater" and "score 21" in mover["legal_actions"]


def test_observation_never_shows_the_food_bowl_order(position):
    one = position(hands=[[6], []], bowl=[1, 2, 3])
    two = position(hands=[[6], []], bowl=[3, 2, 1])
    assert one.observation(0) == two.observation(0)
    assert one.observation(0)["food_bowl"] == two.observation(0)["food_bowl"]


def test_the_table_shows_pending_cards_and_the_pounce_window(position):
    s = act(position(3, hands=[[25], [21], [22]], houses=[[11], [], []]), "score 25")
    obs = s.observation(2)
    assert obs["table"] == [
        {
            "play": 0,
            "seat": 0,
            "card": 25,
            "as": "score",
            "origin": "action",
            "target": None,
            "answers": None,
            "cancelled": False,
        }
    ]
    assert obs["window"] == {
        "kind": "pounce",
        "after_play": 0,
        "after_card": 25,
        "after_seat": 0,
        "last_chance": False,
        "seats": [1, 2],
        "decided": [],
        "my_choice": None,
    }
    assert "25" in obs["cards"]


def test_full_view_shows_every_hand_and_pending_choices(position):
    s = act(
        position(3, hands=[[25], [21], [22]], houses=[[11], [], []]),
        "score 25",
        "pounce attack 0 with 21",
    )
    view = s.full_view()
    assert view["hands"] == [[], [21], [22]] and view["seat"] is None
    assert view["window"]["choices"] == {"1": "pounce attack 0 with 21"}
    assert "choices" not in s.observation(2)["window"]


def test_observation_refuses_a_seat_not_in_the_game(position):
    with pytest.raises(EngineError, match="seat must be 0..1"):
        position().observation(2)
