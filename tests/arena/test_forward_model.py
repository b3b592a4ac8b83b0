"""Bots that think ahead: in the sandbox a bot imports exactly the engine that runs the
match (read-only, nothing else of the project), the house ``mcts`` bot's own file uploaded
as a bot plays the house bot's moves, and the MCTS starter bot plays within its limits."""

from __future__ import annotations

import hashlib
import re
import statistics
from pathlib import Path

import pytest

import engine
from arena.runner import BotSpec, run_match
from arena.sandbox import Limits, Mode
from arena.sandbox.engine_lib import ENGINE_DIR
from engine.catlady.strategies import mcts
from tests.arena.bots import bot_source, first_safe_mode, safe_modes, sandbox_missing

BOTKIT = Path(__file__).resolve().parents[2] / "arena" / "botkit"
ROOMY = Limits(move_ms=20_000, bank_ms=60_000, startup_ms=20_000, cpu_seconds=600)


@pytest.fixture(scope="module")
def mode() -> Mode:
    return first_safe_mode()


def stderr_of(log: dict, seat: int = 0) -> str:
    return log["stderr"][seat]


@pytest.mark.parametrize("wanted", [Mode.BWRAP, Mode.RLIMITS_SECCOMP])
def test_a_bot_imports_exactly_the_running_engine_read_only_and_nothing_else(wanted: Mode) -> None:
    if wanted not in safe_modes():
        sandbox_missing(f"the {wanted} sandbox mode is not available here")
    source = bot_source("engine_probe", IMPORT_ENGINE=True)
    log = run_match(
        seed=1,
        bots=[BotSpec.from_source(source, name="probe.py"), "random"],
        limits=ROOMY,
        mode=wanted,
    )
    err = stderr_of(log)
    running = hashlib.sha256((ENGINE_DIR / "registry.py").read_bytes()).hexdigest()
    assert f"registry-sha256: {running}" in err
    if wanted is Mode.BWRAP:
        assert "engine-at: /engine-lib/engine" in err  # the jail shows the copy, read-only
    assert "engine-writable: no" in err
    assert "importable:" not in err  # no Django, no arena, league, config or accounts
    assert "siblings: engine\n" in err  # the engine alone, not the project around it
    assert log["faults"][0] == []


def test_a_bot_that_does_not_import_the_engine_loads_none_of_it(mode: Mode) -> None:
    log = run_match(
        seed=1,
        bots=[BotSpec.from_source(bot_source("engine_probe"), name="probe.py"), "random"],
        limits=ROOMY,
        mode=mode,
    )
    assert "loaded-before: none" in stderr_of(log)
    assert "engine-at" not in stderr_of(log)


@pytest.mark.parametrize("players", [2, 3])
def test_the_house_mcts_file_uploaded_as_a_bot_plays_the_house_bots_moves(
    mode: Mode, players: int
) -> None:
    """The house bot's source, copied as is into a user bot, searches through the same
    forward model in the sandbox and makes the same choices from the same seed."""
    source = Path(mcts.__file__).read_bytes()
    others = ["greedy", "random"][: players - 1]
    uploaded = run_match(
        seed=4,
        bots=[BotSpec.from_source(source, name="mcts_copy.py"), *others],
        limits=ROOMY,
        mode=mode,
    )
    house = run_match(seed=4, bots=["mcts", *others], limits=ROOMY, mode=mode)
    assert uploaded["faults"][0] == [] and uploaded["stderr"][0] == ""
    assert [s["action"] for s in uploaded["steps"]] == [s["action"] for s in house["steps"]]
    assert uploaded["result"] == house["result"]


def test_the_mcts_starter_bot_stays_inside_its_move_limit(mode: Mode) -> None:
    limits = Limits(move_ms=250, bank_ms=2000)
    source = (BOTKIT / "mcts_starter_bot.py").read_bytes()
    log = run_match(
        seed=2,
        bots=[BotSpec.from_source(source, name="mcts_starter_bot.py"), "greedy"],
        limits=limits,
        mode=mode,
    )
    assert log["faults"][0] == [], log["faults"][0]
    # It budgets each move inside the move limit and does not live off its bank: a machine
    # shared with other work may stretch a move now and then (one took 269 ms of CPU once,
    # the rest about 100), so the bank may lend a little, never most of itself.
    mine = [step["ms"] for step in log["steps"] if step["seat"] == 0 and step.get("ms")]
    assert statistics.median(mine) < 0.6 * limits.move_ms, mine  # it aims at 40%
    assert sum(max(0.0, ms - limits.move_ms) for ms in mine) < limits.bank_ms / 4, mine
    assert engine.replay(log["engine_log"]).is_terminal()


def test_the_starter_bot_plays_cantankerous_cats_too(mode: Mode) -> None:
    limits = Limits(move_ms=100, bank_ms=2000)
    source = (BOTKIT / "mcts_starter_bot.py").read_bytes()
    log = run_match(
        game="cantankerous-cats",
        seed=3,
        bots=[BotSpec.from_source(source, name="mcts_starter_bot.py"), "greedy"],
        limits=limits,
        mode=mode,
    )
    assert log["faults"][0] == [], log["faults"][0]
    assert re.search(r"\S", stderr_of(log)) is None


def test_the_tutorials_searching_bot_runs_as_written(mode: Mode) -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bots-forward-model.md").read_text()
    section = docs[docs.index("## Thinking ahead") :]
    opening = section.index("```python\n") + len("```python\n")
    code = section[opening : section.index("\n```", opening)]
    assert "def choose" in code
    log = run_match(
        seed=6,
        bots=[BotSpec.from_source(code.encode(), name="tutorial.py"), "random"],
        limits=ROOMY,
        mode=mode,
    )
    assert log["faults"][0] == [] and log["stderr"][0] == ""
    assert engine.replay(log["engine_log"]).is_terminal()
