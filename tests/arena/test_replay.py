"""The replay builder: a pure function from a stored match log to the viewer's frames."""

from __future__ import annotations

import copy
import json

import pytest

import engine
from arena.replay import build_replay, expand_frames, move_text
from arena.runner import run_match
from engine.catlady.frames import NEXT_CARDS_SHOWN


@pytest.fixture(scope="module")
def log4():
    return run_match(seed=21, bots=["greedy", "random", "greedy", "random"])


@pytest.fixture(scope="module")
def replay4(log4):
    return build_replay(log4)


def engine_states(log):
    engine_log = log["engine_log"]
    game = engine.load_game(
        engine_log["game"], version=engine_log["version"], options=engine_log["options"]
    )
    states = [game.new_initial_state(engine_log["seed"])]
    for action in engine_log["actions"]:
        states.append(states[-1].apply(game.action_from_json(action)))
    return states


def test_one_frame_per_position_and_one_move_per_step(log4, replay4):
    assert replay4["renderer"] == "cat-lady" and replay4["problem"] == ""
    assert len(replay4["moves"]) == len(log4["steps"])
    assert len(replay4["frames"]) == len(log4["steps"]) + 1
    assert [m["seat"] for m in replay4["moves"]] == [s["seat"] for s in log4["steps"]]
    assert replay4["moves"][0]["text"].startswith("place-token ")
    assert replay4["frames"][-1]["phase"] == "over"
    assert replay4["frames"][-1]["scores"] == log4["result"]["scores"]


def test_each_seat_view_is_exactly_its_engine_observation(log4, replay4):
    states = engine_states(log4)
    for frame, state in zip(expand_frames(replay4), states, strict=True):
        for seat in range(4):
            observation = state.observation(seat)
            view = {**frame["public"], **frame["own"][seat]}
            for key, value in view.items():
                if key == "tableaux":
                    for shown, real in zip(value, observation["tableaux"], strict=True):
                        assert shown.items() <= real.items()
                else:
                    assert observation[key] == value, key
            assert (frame["turn"], frame["phase"], frame["to_move"]) == (
                observation["turn"],
                observation["phase"],
                observation["current_player"],
            )


def test_hidden_cards_are_only_in_the_full_view_part(log4, replay4):
    states = engine_states(log4)
    first = replay4["frames"][0]
    assert len(first["hidden"]["next_cards"]) == NEXT_CARDS_SHOWN
    # The deck's next cards are the ones the next refill deals.
    take_index = next(i for i, m in enumerate(replay4["moves"]) if m["text"].startswith("take"))
    before, after = states[take_index], states[take_index + 1]
    line = engine.Line.parse(replay4["moves"][take_index]["text"].split(" ", 1)[1])
    refilled = [after.game.edition.deck[after.grid[s]].key for s in line.slots]
    assert refilled == replay4["frames"][take_index]["hidden"]["next_cards"][:3]
    assert before.deck_size - 3 == after.deck_size
    for frame in expand_frames(replay4):
        seat_parts = json.dumps([frame["public"], frame["own"]])
        assert "next_cards" not in seat_parts and "strays_face_down" not in seat_parts
        for stray in frame["hidden"]["strays_face_down"]:
            assert stray not in frame["public"]["strays"]


def test_the_current_seat_alone_sees_its_legal_moves(replay4):
    frame = replay4["frames"][5]
    mover = frame["to_move"]
    assert frame["own"][mover]["legal_actions"]
    assert all(
        not own.get("legal_actions") for seat, own in enumerate(frame["own"]) if seat != mover
    )


def test_the_card_catalogue_names_every_card_shown(replay4):
    cards = replay4["meta"]["cards"]
    for frame in expand_frames(replay4):
        shown = [k for k in frame["public"]["grid"] if k] + frame["hidden"]["next_cards"]
        for tableau in frame["public"]["tableaux"]:
            shown += tableau["cats"] + tableau["hand"]
        assert set(shown) <= set(cards)
    assert all(card["name"] for card in cards.values())


def test_stderr_never_reaches_a_replay(log4):
    log = copy.deepcopy(log4)
    log["stderr"] = ["SECRET-OF-SEAT-0", "", "", ""]
    assert "SECRET-OF-SEAT-0" not in json.dumps(build_replay(log))


def test_an_unknown_game_keeps_its_moves_and_result(log4):
    log = copy.deepcopy(log4)
    log["game"] = log["engine_log"]["game"] = "mystery-cats"
    replay = build_replay(log)
    assert replay["frames"] is None and replay["renderer"] is None
    assert "mystery-cats" in replay["problem"]
    assert len(replay["moves"]) == len(log4["steps"])
    assert replay["moves"][0]["text"] == move_text(log4["steps"][0]["action"])
    assert replay["result"]["scores"] == log4["result"]["scores"]


def test_a_log_that_does_not_replay_says_so(log4):
    log = copy.deepcopy(log4)
    log["engine_log"]["result"]["players"][0]["total"] += 5
    replay = build_replay(log)
    assert replay["frames"] is None and "cannot be replayed" in replay["problem"]
    assert replay["moves"]


def test_not_a_match_log_is_refused():
    with pytest.raises(ValueError, match="not an arena match log"):
        build_replay({"schema": "something else"})


def test_faults_show_in_the_move_status(log4):
    log = copy.deepcopy(log4)
    log["steps"][3]["status"] = "timeout"
    replay = build_replay(log)
    assert replay["moves"][3]["status"] == "timeout"
    assert "reason" not in replay["moves"][3]


def test_frames_after_the_first_hold_only_what_changed(replay4):
    first, *later = replay4["frames"]
    assert {"grid", "tableaux", "unseen", "strays"} <= set(first["public"])
    assert isinstance(first["public"]["tableaux"], list)
    end_turns = [i + 1 for i, m in enumerate(replay4["moves"]) if m["text"] == "end-turn"]
    # Ending a turn moves no card: nothing public changes (but the last one ends the game).
    assert all(replay4["frames"][i]["public"] == {} for i in end_turns[:-1])
    takes = [i + 1 for i, m in enumerate(replay4["moves"]) if m["text"].startswith("take")]
    for i in takes:
        changed = replay4["frames"][i]["public"]["tableaux"]
        assert list(changed) == [str(replay4["moves"][i - 1]["seat"])]
    whole = expand_frames(replay4)[1:]
    assert len(json.dumps(later)) < len(json.dumps(whole)) / 2


def test_running_scores_are_dropped_when_scoring_is_too_slow(log4, monkeypatch):
    from engine.catlady import frames

    monkeypatch.setattr(frames, "RUNNING_SCORE_BUDGET_S", 0.0)
    replay = build_replay(log4)
    assert all(frame["scores"] is None for frame in replay["frames"][:-1])
    assert replay["frames"][-1]["scores"] == log4["result"]["scores"]
