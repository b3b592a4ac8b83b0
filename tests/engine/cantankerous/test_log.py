"""Cantankerous Cats match logs: they replay, record the deck and every decision, and refuse
tampering."""

from __future__ import annotations

import json

import pytest

from engine.errors import EngineError, ReplayError
from engine.log import make_log, replay
from engine.registry import load_game
from tests.engine.helpers import played


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
