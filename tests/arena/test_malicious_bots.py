"""Hostile bots, each played through a real match in every safe sandbox mode.

Each attack must be contained and the match must still finish with a replayable log and no
bot process left behind. The rlimits-seccomp fallback has no filesystem namespace, so there a
bot can read world-readable files and write world-writable directories (docs/sandbox.md);
those known gaps are listed per bot and nothing else may escape.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine
from arena.runner import BotSpec, run_match
from arena.sandbox import Mode
from tests.arena.bots import (
    FAST_LIMITS,
    PROJECT_FILE,
    bot_source,
    escapes,
    jailed_bots_of,
    processes_of_bot_users,
    sandbox_missing,
    unavailable_reason,
)
from tests.arena.rootless import run_match_rootless, unprivileged_user

SECRET = "catleague-test-secret-5f2a9c"


@dataclass(frozen=True)
class Attack:
    bot: str
    contained: tuple[str, ...] = ()  # markers the bot must print (proof it really tried)
    statuses: frozenset[str] = frozenset()  # fault statuses expected at the bot's seat
    forfeits: bool = False
    tolerated: frozenset[str] = frozenset()  # may happen on a loaded machine, not required
    fallback_gaps: tuple[str, ...] = ()  # ESCAPED lines tolerated in rlimits-seccomp only
    constants: dict[str, Any] = field(default_factory=dict)
    # In bwrap-rootless, where creating a process is refused outright, when that differs.
    rootless: Attack | None = None


ATTACKS = [
    Attack(
        "open_socket", contained=("tcp-internet", "tcp-localhost-redis", "udp", "unix-postgres")
    ),
    Attack(
        "read_files",
        contained=("root-home", "other-bots-listing"),
        fallback_gaps=("project", "passwd"),
        constants={"PROJECT_FILE": str(PROJECT_FILE)},
    ),
    Attack("read_env", contained=("env-dumped",)),
    Attack(
        "write_outside",
        contained=("/etc/catleague-pwned", "/usr/catleague-pwned", "own-tmp-writable"),
        fallback_gaps=("/dev/shm",),
        constants={"PROJECT_FILE": str(PROJECT_FILE)},
    ),
    Attack(
        "fork_bomb",
        contained=("fork-bomb-started",),
        statuses=frozenset({"timeout"}),
        forfeits=True,
    ),
    Attack("thread_bomb", contained=("thread-bomb after",)),
    # Filling 256 MiB page by page can outlast a 0.5 s move on a busy machine.
    Attack("memory_bomb", contained=("memory-bomb stopped",), tolerated=frozenset({"timeout"})),
    Attack(
        "loop_forever", contained=("loop-started",), statuses=frozenset({"timeout"}), forfeits=True
    ),
    Attack(
        "sleep_forever",
        contained=("sleep-started",),
        statuses=frozenset({"timeout"}),
        forfeits=True,
    ),
    Attack(
        "print_gigabytes",
        contained=("flood-started",),
        statuses=frozenset({"output_limit"}),
        forfeits=True,
    ),
    Attack("print_stderr_gigabytes", statuses=frozenset({"timeout"}), forfeits=True),
    Attack("close_stdout", statuses=frozenset({"crash"}), forfeits=True),
    Attack(
        "hold_stdout",
        contained=("holder-forked",),
        statuses=frozenset({"crash", "timeout"}),
        forfeits=True,
        rootless=Attack("hold_stdout", statuses=frozenset({"crash", "invalid"}), forfeits=True),
    ),
    Attack("kill_parent", contained=("runner",), constants={"RUNNER_PID": os.getpid()}),
    Attack("ignore_sigterm"),
    Attack("malformed", statuses=frozenset({"invalid"}), forfeits=True),
    Attack("illegal", statuses=frozenset({"illegal"}), forfeits=True),
]


@pytest.fixture(params=[Mode.BWRAP, Mode.BWRAP_ROOTLESS, Mode.RLIMITS_SECCOMP])
def mode(request: pytest.FixtureRequest) -> Mode:
    reason = unavailable_reason(request.param)
    if request.param is Mode.BWRAP_ROOTLESS and os.geteuid() == 0:
        # Played by a child that drops to ``nobody`` (tests/arena/rootless.py).
        reason = None if unprivileged_user() else "no 'nobody' user to run a rootless worker as"
    if reason:
        sandbox_missing(f"sandbox mode {request.param} does not work on this machine: {reason}")
    return request.param


@pytest.fixture(autouse=True)
def secret_in_worker_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATLEAGUE_DB_PASSWORD", SECRET)


@pytest.fixture(autouse=True)
def no_leftover_files() -> Any:
    yield
    for path in ("/dev/shm/catleague-pwned", "/tmp/catleague-pwned"):
        if os.path.exists(path):
            os.unlink(path)


@pytest.mark.parametrize("attack", ATTACKS, ids=[a.bot for a in ATTACKS])
def test_hostile_bot_is_contained_and_the_match_finishes(attack: Attack, mode: Mode) -> None:
    if mode is Mode.BWRAP_ROOTLESS and attack.rootless is not None:
        attack = attack.rootless
    hostile = BotSpec.from_source(bot_source(attack.bot, **attack.constants), name=attack.bot)
    # A second sandboxed bot, so the hostile one has a neighbour to read or disturb.
    neighbour = BotSpec.from_source(bot_source("first_legal"), name="first_legal")
    bots = [hostile, neighbour, BotSpec.builtin("random")]
    if mode is Mode.BWRAP_ROOTLESS:
        log = run_match_rootless(seed=21, bots=bots, limits=FAST_LIMITS)
    else:
        log = run_match(seed=21, bots=bots, limits=FAST_LIMITS, mode=mode)

    # The match finished and its log replays to the recorded result.
    assert [p.total for p in engine.replay(log["engine_log"]).result().players] == (
        log["result"]["scores"]
    )
    stderr = log["stderr"][0]
    statuses = {fault["status"] for fault in log["faults"][0]}
    # A tolerated fault (the machine was too busy) may cut the bot off before it reports.
    for marker in attack.contained if not statuses & attack.tolerated else ():
        assert any(
            line.startswith("CONTAINED") and marker in line for line in stderr.splitlines()
        ), f"no 'CONTAINED ... {marker}' line in the bot's stderr:\n{stderr}"
    allowed = attack.fallback_gaps if mode is Mode.RLIMITS_SECCOMP else ()
    assert [line for line in escapes(stderr) if not any(gap in line for gap in allowed)] == []
    assert SECRET not in stderr

    assert statuses <= attack.statuses | attack.tolerated
    assert bool(statuses & attack.statuses) == bool(attack.statuses)
    if attack.forfeits or not statuses:
        assert (log["forfeited"] == [0]) == attack.forfeits
    if attack.forfeits:
        assert log["result"]["ranks"][0] == 3

    # The neighbour was not disturbed, and nothing of either bot survives the match.
    assert log["faults"][1] == []
    assert processes_of_bot_users() == []
    if mode is Mode.BWRAP_ROOTLESS:
        assert jailed_bots_of(unprivileged_user().pw_uid) == []
