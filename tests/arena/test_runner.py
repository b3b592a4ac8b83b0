"""run_match: the match log, faults and fallbacks, forfeits, determinism, replays."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

import engine
from arena.runner import SCHEMA, BotSpec, BotSpecError, run_match
from arena.sandbox import Mode, SandboxUnavailable
from engine.errors import EngineError
from engine.strategies.match import bot_seed
from tests.arena.bots import (
    BOTS_DIR,
    FAST_LIMITS,
    bot_source,
    first_safe_mode,
    processes_of_bot_users,
)


@pytest.fixture(scope="module")
def mode() -> Mode:
    return first_safe_mode()


def bot(name: str, **constants: object) -> BotSpec:
    return BotSpec.from_source(bot_source(name, **constants), name=f"{name}.py")


def replay_states(log: dict[str, Any]) -> list[Any]:
    """The state before each step, rebuilt from the engine log."""
    game = engine.load_game(log["game"], version=log["version"], options=log["options"])
    state = game.new_initial_state(log["seed"])
    states = []
    for step in log["steps"]:
        states.append(state)
        state = state.apply(game.action_from_json(step["action"]))
    assert state.is_terminal()
    return states


def test_match_log_has_the_versioned_schema_and_replays(mode: Mode) -> None:
    log = run_match(
        seed=11,
        bots=[bot("first_legal"), "random", bot("last_legal_by_index")],
        limits=FAST_LIMITS,
        mode=mode,
    )
    assert log["schema"] == SCHEMA
    assert (log["game"], log["seed"], log["sandbox_mode"]) == ("cat-lady", 11, str(mode))
    assert log["options"]["players"] == 3
    assert [p["kind"] for p in log["players"]] == ["file", "builtin", "file"]
    assert log["players"][0]["sha256"] == hashlib.sha256(bot_source("first_legal")).hexdigest()
    assert log["faults"] == [[], [], []] and log["forfeited"] == []
    assert {step["status"] for step in log["steps"]} == {"ok"}
    replayed = engine.replay(log["engine_log"])
    assert [p.total for p in replayed.result().players] == log["result"]["scores"]
    assert [engine.load_game().action_from_json(s["action"]) for s in log["steps"]] == list(
        replayed.history
    )
    assert set(log["timing"]) >= {"sandbox_start_ms", "bot_think_ms", "engine_ms"}
    assert "thinking about" in log["stderr"][2] and log["stderr"][1] == ""
    assert processes_of_bot_users() == []


def test_same_seed_and_deterministic_bots_give_the_same_match(mode: Mode) -> None:
    def essence(log: dict[str, Any]) -> Any:
        return ([(s["seat"], s["action"], s["status"]) for s in log["steps"]], log["result"])

    bots = [bot("first_legal"), "random", "greedy", bot("last_legal_by_index")]
    first = run_match(seed=3, bots=bots, limits=FAST_LIMITS, mode=mode)
    again = run_match(seed=3, bots=bots, limits=FAST_LIMITS, mode=mode)
    other = run_match(seed=4, bots=bots, limits=FAST_LIMITS, mode=mode)
    assert essence(first) == essence(again)
    assert essence(first) != essence(other)


def test_each_bot_is_sent_exactly_its_own_seats_observation_and_not_the_deals_seed(
    mode: Mode,
) -> None:
    log = run_match(
        seed=8, bots=["random", bot("observation_digest")], limits=FAST_LIMITS, mode=mode
    )
    states = replay_states(log)
    expected = [
        hashlib.sha256(
            json.dumps(states[i].observation(1), sort_keys=True, separators=(",", ":")).encode()
        ).hexdigest()[:16]
        for i, step in enumerate(log["steps"])
        if step["seat"] == 1
    ]
    lines = log["stderr"][1].splitlines()
    assert [line.split()[1] for line in lines if line.startswith("OBS")] == expected
    hello = next(line for line in lines if line.startswith("HELLO"))
    # The bot's own generator seed is a one-way hash of the deal's: never the deal's seed.
    assert "'seat'" in hello and "'seed'" not in hello
    assert f"RNG {bot_seed(8, 1)}" in lines


def test_faulty_answers_play_the_first_legal_action_and_are_recorded(mode: Mode) -> None:
    limits = FAST_LIMITS.with_changes(max_faults=100)
    log = run_match(seed=5, bots=[bot("malformed"), "random"], limits=limits, mode=mode)
    states = replay_states(log)
    faulted = [(i, s) for i, s in enumerate(log["steps"]) if s["status"] != "ok"]
    assert faulted, "the malformed bot never faulted"
    for index, step in faulted:
        assert step["seat"] == 0 and step["status"] == "invalid" and step["reason"]
        assert step["action"] == states[index].legal_actions()[0].to_json()
    assert [f["step"] for f in log["faults"][0]] == [i for i, _ in faulted]
    assert "out of bad ideas" in log["stderr"][0]  # the bot's traceback, for its owner


def test_illegal_answers_are_told_apart_from_malformed_ones(mode: Mode) -> None:
    limits = FAST_LIMITS.with_changes(max_faults=100)
    log = run_match(seed=5, bots=["random", bot("illegal")], limits=limits, mode=mode)
    statuses = {s["status"] for s in log["steps"] if s["seat"] == 1}
    assert statuses <= {"illegal", "ok"} and "illegal" in statuses


def test_a_bot_that_keeps_timing_out_forfeits_and_ranks_last(mode: Mode) -> None:
    log = run_match(
        seed=2, bots=["random", bot("sleep_forever"), "greedy"], limits=FAST_LIMITS, mode=mode
    )
    assert log["forfeited"] == [1]
    assert [f["status"] for f in log["faults"][1]] == ["timeout"] * FAST_LIMITS.max_faults
    mine = [s["status"] for s in log["steps"] if s["seat"] == 1]
    assert mine[: FAST_LIMITS.max_faults] == ["timeout"] * FAST_LIMITS.max_faults
    assert set(mine[FAST_LIMITS.max_faults :]) == {"forfeited"}
    assert log["result"]["ranks"][1] == 3 and 1 not in log["result"]["winners"]
    assert log["starts"][1] == FAST_LIMITS.max_faults  # restarted after each kill
    assert processes_of_bot_users() == []


def test_two_forfeits_rank_below_everyone_and_among_themselves_by_score(mode: Mode) -> None:
    log = run_match(
        seed=9,
        bots=[bot("close_stdout"), "random", bot("loop_forever"), "random"],
        limits=FAST_LIMITS,
        mode=mode,
    )
    assert log["forfeited"] == [0, 2]
    ranks, engine_ranks = log["result"]["ranks"], log["result"]["engine_ranks"]
    assert sorted([ranks[0], ranks[2]]) in ([3, 4], [3, 3])
    assert (ranks[0] < ranks[2]) == (engine_ranks[0] < engine_ranks[2])
    assert max(ranks[1], ranks[3]) <= 2
    assert {f["status"] for f in log["faults"][0]} == {"crash"}


def test_builtins_only_need_no_sandbox() -> None:
    log = run_match(seed=1, bots=["random", "greedy"])
    assert log["sandbox_mode"] is None
    with pytest.raises(SandboxUnavailable, match="unknown sandbox mode"):
        run_match(seed=1, bots=["random", "greedy"], mode="no-such-mode")
    assert log["players"][0] == {"seat": 0, "bot": "random", "kind": "builtin", "sha256": None}


def test_bot_specs_refuse_what_cannot_be_played(tmp_path: Any) -> None:
    with pytest.raises(BotSpecError, match="no built-in strategy 'alphacat'"):
        BotSpec.parse("alphacat")
    with pytest.raises(BotSpecError, match="cannot read bot file"):
        BotSpec.parse(str(tmp_path / "missing.py"))
    with pytest.raises(BotSpecError, match="not UTF-8"):
        BotSpec.from_source(b"x = '\xff'\n")
    with pytest.raises(BotSpecError, match="at most"):
        BotSpec.from_source(b"#" * (300 * 1024))
    assert BotSpec.parse(str(BOTS_DIR / "first_legal.py")).kind == "file"


def test_player_count_option_must_match_the_bots() -> None:
    with pytest.raises(EngineError, match="3 players but 2 bots"):
        run_match(seed=1, bots=["random", "random"], options={"players": 3})


def test_a_bot_that_raises_loses_the_move_and_its_owner_sees_the_traceback(mode: Mode) -> None:
    source = (
        b"import catbot\n\ndef helper(observation):\n    return 1 // 0\n\n"
        b"def choose(observation, legal_actions):\n    return helper(observation)\n"
    )
    log = run_match(
        seed=5,
        bots=[BotSpec.from_source(source, name="raiser.py"), "random"],
        limits=FAST_LIMITS,
        mode=mode,
    )
    faults = log["faults"][0]
    assert faults and "ZeroDivisionError" in faults[0]["reason"]
    stderr = log["stderr"][0]
    # The traceback names the bot's own file and line, and the bot module is importable.
    assert "Traceback" in stderr and 'bot.py", line 4, in helper' in stderr
    assert {step["status"] for step in log["steps"] if step["seat"] == 0} != {"ok"}


def test_a_chatty_bot_keeps_the_start_and_the_end_of_its_stderr(mode: Mode) -> None:
    """100 KB of chatter, then a traceback: the owner sees the first half of the allowance,
    a line saying how much was left out, and the last half, which ends with the traceback."""
    log = run_match(
        seed=5, bots=[bot("chatty_then_raises"), "random"], limits=FAST_LIMITS, mode=mode
    )
    stderr = log["stderr"][0]
    half = FAST_LIMITS.stderr_bytes // 2
    assert stderr.startswith("chatter 0000 ")
    head, marker, tail = re.split(r"\n(\[… \d+ bytes left out …\])\n", stderr)
    assert len(head.encode()) == half and len(tail.encode()) == half
    left_out = int(marker.split()[1])
    assert left_out > 100_000 - 2 * half  # at least the first move's chatter
    assert tail.rstrip().endswith("RuntimeError: the real problem, said last")
    assert "Traceback" in tail and 'chatty_then_raises.py", line' not in head
