"""A person's seat in the runner (no Django): asked like a bot, with a person's time limit."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from arena.runner import BotSpec, BotSpecError, run_match
from arena.sandbox import Limits


class Scripted:
    """Answers with the last legal move, or not at all after ``answers`` moves."""

    def __init__(self, answers: int = 10_000) -> None:
        self.answers = answers
        self.asked: list[dict[str, Any]] = []

    def ask(self, *, step, observation, legal, labels, timeout_s):
        self.asked.append(
            {
                "step": step,
                "observation": observation,
                "legal": legal,
                "labels": labels,
                "timeout_s": timeout_s,
            }
        )
        if len(self.asked) > self.answers:
            return None
        return {"index": len(legal) - 1}


def test_a_person_plays_a_whole_match_seeing_only_their_seat():
    person = Scripted()
    seen: list[tuple[int, int]] = []
    log = run_match(
        seed=5,
        bots=[BotSpec.human("ada"), "greedy"],
        humans={0: person},
        limits=Limits(human_move_ms=60_000),
        on_step=lambda step, entry, state: seen.append((step, len(state.history))),
    )
    assert person.asked and all(q["observation"]["seat"] == 0 for q in person.asked)
    assert all(q["timeout_s"] == 60 for q in person.asked)
    assert all(len(q["legal"]) == len(q["labels"]) for q in person.asked)
    # Every step of the person's seat is the move they chose, and the log replays.
    mine = [s for s in log["steps"] if s["seat"] == 0]
    assert [s["action"] for s in mine] == [q["legal"][-1] for q in person.asked]
    assert log["faults"][0] == [] and log["players"][0]["kind"] == "human"
    assert engine.replay(log["engine_log"]).result().players[0].total == log["result"]["scores"][0]
    # The observer saw the opening position, then every move as it was made.
    assert seen == [(-1, 0), *[(i, i + 1) for i in range(len(log["steps"]))]]


def test_a_person_who_stops_answering_gets_fallback_moves_then_forfeits():
    person = Scripted(answers=2)
    log = run_match(
        seed=5,
        bots=["random", BotSpec.human("bob")],
        humans={1: person},
        limits=Limits(max_faults=3, human_move_ms=1000),
    )
    faults = log["faults"][1]
    assert [f["status"] for f in faults] == ["timeout"] * 3
    assert log["forfeited"] == [1] and log["result"]["ranks"][1] == 2
    assert len(person.asked) == 2 + 3  # never asked again after forfeiting


def test_a_human_seat_needs_its_answerer():
    with pytest.raises(BotSpecError, match="seat 0"):
        run_match(seed=1, bots=[BotSpec.human("ada"), "random"])


class Resigning(Scripted):
    """Plays ``moves`` moves, then resigns."""

    def __init__(self, moves: int) -> None:
        super().__init__()
        self.moves = moves

    def ask(self, *, step, observation, legal, labels, timeout_s):
        answer = super().ask(
            step=step, observation=observation, legal=legal, labels=labels, timeout_s=timeout_s
        )
        return {"resign": True} if len(self.asked) > self.moves else answer


def test_a_person_who_resigns_is_never_asked_again_and_ranks_last_without_a_fault():
    person = Resigning(moves=2)
    log = run_match(
        seed=5,
        bots=[BotSpec.human("ada"), "greedy", "random"],
        humans={0: person},
        limits=Limits(human_move_ms=60_000),
    )
    assert len(person.asked) == 3
    assert log["forfeited"] == [0] and log["result"]["ranks"][0] == 3
    assert log["faults"][0] == []
    mine = [s for s in log["steps"] if s["seat"] == 0]
    assert [s["status"] for s in mine[:3]] == ["ok", "ok", "forfeited"]
    assert mine[2]["reason"] == "resigned"
    assert engine.replay(log["engine_log"]).result().players[0].total == log["result"]["scores"][0]


class Replaying:
    """Answers from ``answers`` in order (legal indexes), then always the first legal move;
    records the observation of each question."""

    def __init__(self, answers: list[int]) -> None:
        self.answers = list(answers)
        self.asked: list[tuple[int, dict[str, Any]]] = []
        self.choices: list[int] = []

    def ask(self, *, step, observation, legal, labels, timeout_s):
        self.asked.append((step, observation))
        self.choices.append(len(legal))
        index = self.answers.pop(0) if self.answers else 0
        return {"index": min(index, len(legal) - 1)}


def test_a_match_played_again_from_its_recorded_moves_reaches_the_same_position():
    """A takeback plays the match again from the seed with the person's moves up to the one
    taken back: the searching house bot replays its own moves, so the position is the same."""
    bots = [BotSpec.human("ada"), BotSpec.builtin("mcts", params={"iterations": 20})]
    first = Replaying([])
    log = run_match(seed=11, bots=bots, humans={0: first})
    # The move taken back: the person's first from the third on that had a choice.
    taken = next(i for i, count in enumerate(first.choices) if i >= 2 and count > 1)
    taken_back_at, position = first.asked[taken]
    again = Replaying([0] * taken + [1])  # the same moves up to it, then another one
    replayed = run_match(seed=11, bots=bots, humans={0: again})
    assert again.asked[taken] == (taken_back_at, position)

    def moves(steps):
        return [(s["seat"], s["action"], s["status"]) for s in steps]

    assert moves(replayed["steps"][:taken_back_at]) == moves(log["steps"][:taken_back_at])
    assert moves(replayed["steps"]) != moves(log["steps"])  # then the game went another way


def test_a_house_bot_plays_with_its_parameters_and_the_log_says_them():
    log = run_match(seed=2, bots=["random", BotSpec.builtin("mcts", params={"iterations": 5})])
    assert log["players"][1]["params"] == {"iterations": 5}
    assert "params" not in log["players"][0]
    with pytest.raises(engine.EngineError, match="bad parameters"):
        run_match(seed=2, bots=["random", BotSpec.builtin("greedy", params={"depth": 3})])
