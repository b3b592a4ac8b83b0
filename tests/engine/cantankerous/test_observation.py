"""Observations (what each seat may see), the full view, match logs and replays."""

from __future__ import annotations

import json
import random

import pytest

from engine.errors import EngineError, ReplayError
from engine.log import make_log, replay
from engine.registry import load_game
from tests.engine.cantankerous.helpers import act


def played(game, seed, moves=None):
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    count = 0
    while not state.is_terminal() and (moves is None or count < moves):
        state = state.apply(rng.choice(state.legal_actions()))
        count += 1
    return state


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


def test_the_log_replays_and_records_the_deck_and_every_decision():
    game = load_game("cantankerous-cats", options={"players": 3})
    final = played(game, 8)
    log = make_log(game, 8, final.history)
    assert log["game"] == "cantankerous-cats" and log["data_version"] == game.data_version
    assert log["options"]["deck"] == "demo"
    assert log["turns"][0]["turn"] == 0 and log["turns"][0]["steps"][0]["phase"] == "bet"
    assert sum(len(t["steps"]) for t in log["turns"]) == len(final.history)
    phases = {step["phase"] for turn in log["turns"] for step in turn["steps"]}
    assert {"bet", "action", "pounce"} <= phases
    assert replay(json.loads(json.dumps(log))) == final
    assert log["result"]["winner_seats"] == list(final.result().winners)


def test_a_tampered_log_is_refused_with_the_reason():
    game = load_game("cantankerous-cats", options={"players": 2})
    final = played(game, 4)
    log = json.loads(json.dumps(make_log(game, 4, final.history)))
    bad = json.loads(json.dumps(log))
    bad["actions"][0] = {"type": "bet", "card": 999}
    with pytest.raises(ReplayError, match="action 1 .* does not replay: .*no card #999"):
        replay(bad)
    bad = json.loads(json.dumps(log))
    bad["data_version"] = "0+000000000000"
    with pytest.raises(ReplayError, match="card data version '0\\+000000000000'"):
        replay(bad)
    bad = json.loads(json.dumps(log))
    bad["turns"][1]["steps"][0]["events"] = ["something else"]
    with pytest.raises(ReplayError, match="turn summary 1 differs"):
        replay(bad)
    bad = json.loads(json.dumps(log))
    bad["options"]["variant"] = "expert"
    with pytest.raises(ReplayError, match="cannot set up the logged game: option 'variant'"):
        replay(bad)


def test_an_unfinished_match_log_replays_with_no_result():
    game = load_game("cantankerous-cats", options={"players": 4})
    partial = played(game, 2, moves=40)
    log = make_log(game, 2, partial.history)
    assert log["result"] is None and replay(log) == partial
    with pytest.raises(EngineError, match="not over yet"):
        partial.result()
