"""Match logs: reproducing a match from its seed and actions, and refusing logs that lie."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from engine.catlady.game import State
from engine.errors import ReplayError
from engine.log import LOG_SCHEMA, make_log, replay
from engine.registry import load_game

GOLDEN = Path(__file__).parent / "golden"


def finished_match(players: int = 3, seed: int = 21) -> tuple[State, dict]:
    game = load_game(options={"players": players})
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    return state, make_log(game, seed, state.history)


def test_a_log_holds_what_reproduces_the_match():
    final, log = finished_match()
    assert log["schema"] == LOG_SCHEMA
    assert (log["game"], log["version"], log["data_version"]) == ("cat-lady", "1", "1")
    assert log["options"] == {"players": 3, "edition": "base", "scoring": {}}
    assert log["players"] == 3 and log["seed"] == 21
    assert len(log["actions"]) == len(final.history)
    assert log["result"] == json.loads(json.dumps(final.result().to_json()))
    assert json.loads(json.dumps(log)) == log


def test_turn_summaries_cover_the_placement_and_every_turn():
    final, log = finished_match()
    turns = log["turns"]
    assert turns[0]["turn"] == 0 and turns[0]["seat"] == 2
    assert turns[0]["actions"][0].startswith("place-token")
    assert [t["turn"] for t in turns[1:]] == list(range(1, 28))
    assert [t["seat"] for t in turns[1:4]] == [0, 1, 2]
    assert all(len(t["took"]) == 3 and t["actions"][-1] == "end-turn" for t in turns[1:])
    assert turns[-1]["deck_size"] == 0


def test_replay_reproduces_every_state_and_the_scores():
    final, log = finished_match(players=4, seed=5)
    replayed = replay(json.loads(json.dumps(log)))
    assert replayed == final
    assert replayed.result().to_json() == final.result().to_json()
    game = final.game
    state = game.new_initial_state(5)
    for action in final.history:
        state = state.apply(action)
    assert state == replayed


def test_an_unfinished_match_replays_to_where_it_stopped():
    game = load_game(options={"players": 2})
    state = game.new_initial_state(4)
    for _ in range(10):
        state = state.apply(state.legal_actions()[-1])
    log = make_log(game, 4, state.history)
    assert log["result"] is None
    assert replay(log) == state


def tampered(change) -> dict:
    _, log = finished_match()
    log = copy.deepcopy(log)
    change(log)
    return log


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda log: log.update(schema="catleague.engine-log/0"), "unknown log schema"),
        (lambda log: log.pop("seed"), "lacks seed"),
        (lambda log: log.update(version="99"), "version '99' is not implemented"),
        (lambda log: log.update(game="catan"), "unknown game"),
        (lambda log: log.update(data_version="0"), "card data version '0'"),
        (lambda log: log.update(players=4), "says 4 players"),
        (lambda log: log.update(seed=-3), "bad seed"),
        (lambda log: log.update(seed=22), "does not replay|differs"),
        (
            lambda log: log["actions"].__setitem__(1, {"type": "take", "line": "row 9"}),
            "action 2 .* does not replay",
        ),
        (lambda log: log["actions"].insert(2, {"type": "end-turn"}), "does not replay"),
        (lambda log: log["actions"].pop(), "differs"),
        (lambda log: log["result"]["players"][0].update(total=99), "result differs"),
        (lambda log: log["turns"][3].update(took=["catnip"] * 3), "turn summary 3 differs"),
        (lambda log: log["options"].update(players=9), "cannot set up"),
    ],
)
def test_a_log_that_does_not_replay_is_refused_clearly(change, message):
    with pytest.raises(ReplayError, match=message):
        replay(tampered(change))


def test_a_log_must_be_an_object():
    with pytest.raises(ReplayError, match="JSON object"):
        replay([])  # type: ignore[arg-type]


# -- golden playthrough ---------------------------------------------------------------------


def golden_match() -> dict:
    """A fixed seeded match between the built-in bots; any change to setup, rules, card data
    or scoring shows up as a diff against tests/engine/catlady/golden/."""
    from engine.strategies import get
    from engine.strategies.match import play_match

    game = load_game(options={"players": 3})
    final = play_match(game, [get("random"), get("greedy"), get("random")], seed=2024)
    return make_log(game, 2024, final.history)


def test_the_golden_playthrough_is_unchanged():
    expected = json.loads((GOLDEN / "cat-lady-3p-seed2024.json").read_text(encoding="utf-8"))
    actual = json.loads(json.dumps(golden_match()))
    for key in ("schema", "game", "version", "data_version", "options", "seed", "players"):
        assert actual[key] == expected[key], key
    assert actual["actions"] == expected["actions"]
    assert actual["turns"] == expected["turns"]
    assert actual["result"] == expected["result"]


# The second was played when each house bot drew from one random stream for the whole game
# (before they drew afresh at every move): a stored log of that time must replay as well.
@pytest.mark.parametrize(
    "name", ["cat-lady-3p-seed2024.json", "cat-lady-3p-seed2024-bots-one-stream.json"]
)
def test_the_golden_log_replays(name):
    expected = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    assert replay(expected).is_terminal()


if __name__ == "__main__":
    # Regenerate after an intended change (new rules version, corrected card data):
    #   PYTHONPATH=. .venv/bin/python tests/engine/catlady/test_log.py (the bots' random streams are part
    #   of it too: engine.strategies.match.bot_seed)
    target = GOLDEN / "cat-lady-3p-seed2024.json"
    target.write_text(json.dumps(golden_match(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {target}")
