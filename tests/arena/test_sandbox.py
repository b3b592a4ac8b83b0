"""The sandbox on its own: modes, the line protocol, deadlines, output caps, clean-up."""

from __future__ import annotations

import os
import stat
import warnings

import pytest

from arena.sandbox import (
    BotProcess,
    Limits,
    Mode,
    SandboxUnavailable,
    Status,
    UnsafeSandboxWarning,
    allows_ranked,
    detect_mode,
    resolve_mode,
)
from arena.sandbox.seccomp_policy import seccomp_program
from tests.arena.bots import (
    FAST_LIMITS,
    bot_source,
    processes_of_bot_users,
    safe_modes,
    sandbox_missing,
    unavailable_reason,
)

LEGAL = [{"type": "take", "line": "row 1"}, {"type": "take", "line": "row 2"}]
ACT = {"type": "act", "seat": 0, "turn": 0, "observation": {"you": 0}, "legal_actions": LEGAL}
HELLO = {"type": "start", "seat": 0}


def _available(mode: Mode) -> Mode:
    reason = unavailable_reason(mode)
    if reason:
        sandbox_missing(f"sandbox mode {mode} does not work on this machine: {reason}")
    return mode


@pytest.fixture(params=[Mode.BWRAP, Mode.RLIMITS_SECCOMP])
def safe_mode(request: pytest.FixtureRequest) -> Mode:
    return _available(request.param)


@pytest.fixture(params=[Mode.BWRAP, Mode.RLIMITS_SECCOMP, Mode.UNSAFE])
def any_mode(request: pytest.FixtureRequest) -> Mode:
    return _available(request.param)


def started(name: str, mode: Mode, limits: Limits = FAST_LIMITS) -> tuple[BotProcess, Status]:
    bot = BotProcess(bot_source(name), mode=mode, limits=limits)
    bot.start(HELLO)
    return bot, bot.wait_ready().status


# -- modes --------------------------------------------------------------------------------


def test_detected_mode_is_the_strongest_that_works() -> None:
    working = safe_modes()
    if not working:
        with pytest.raises(SandboxUnavailable, match="unsafe"):
            detect_mode()
    else:
        assert detect_mode() is working[0]


def test_unsafe_mode_must_be_asked_for_and_warns_loudly() -> None:
    with pytest.warns(UnsafeSandboxWarning, match="Development only"):
        assert resolve_mode("unsafe") is Mode.UNSAFE
    assert not allows_ranked("unsafe")
    assert allows_ranked("bwrap") and allows_ranked("rlimits-seccomp")


def test_unknown_mode_is_refused_with_the_choices() -> None:
    with pytest.raises(SandboxUnavailable, match="bwrap, bwrap-rootless, rlimits-seccomp, unsafe"):
        resolve_mode("docker")


def test_limits_refuse_bad_values_and_unknown_keys() -> None:
    with pytest.raises(ValueError, match="move_ms"):
        Limits(move_ms=-1)
    with pytest.raises(ValueError, match="move_ms"):
        Limits(move_ms=0)
    with pytest.raises(ValueError, match="unknown limits: move_sec"):
        Limits.from_json({"move_sec": 1})
    assert Limits.from_json(FAST_LIMITS.to_json()) == FAST_LIMITS


def test_seccomp_program_is_whole_bpf_instructions() -> None:
    program = seccomp_program()
    assert program and len(program) % 8 == 0


# -- protocol -------------------------------------------------------------------------------


def test_bot_answers_an_action_and_its_prints_go_to_stderr(any_mode: Mode) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnsafeSandboxWarning)
        bot, status = started("last_legal_by_index", any_mode)
    with bot:
        assert status is Status.OK
        reply = bot.request(ACT, timeout_ms=2000)
        assert reply.status is Status.OK
        assert reply.message is not None and reply.message["index"] == 1
    assert "thinking about 2 actions" in bot.stderr


def test_first_legal_bot_answers_with_the_action_itself(safe_mode: Mode) -> None:
    bot, status = started("first_legal", safe_mode)
    with bot:
        assert status is Status.OK
        for _ in range(3):  # one process answers many requests
            reply = bot.request(ACT, timeout_ms=2000)
            assert reply.status is Status.OK and reply.message is not None
            assert reply.message["action"] == LEGAL[0]
        assert bot.starts == 1


def test_bot_speaking_the_raw_protocol_works(safe_mode: Mode) -> None:
    bot, status = started("raw_protocol", safe_mode)
    with bot:
        assert status is Status.OK
        reply = bot.request(ACT, timeout_ms=2000)
        assert reply.message == {"id": 1, "action": LEGAL[0]}


@pytest.mark.parametrize(
    ("source", "reason"),
    [(b"def choose(:\n", "SyntaxError"), (b"x = 1\n", "defines no choose")],
    ids=["syntax-error", "no-choose"],
)
def test_a_bot_that_cannot_start_is_a_crash_at_start_with_its_reason_kept(
    safe_mode: Mode, source: bytes, reason: str
) -> None:
    bot = BotProcess(source, mode=safe_mode, limits=FAST_LIMITS)
    with bot:
        bot.start(HELLO)
        assert bot.wait_ready().status is Status.CRASH
    assert reason in bot.stderr


# -- deadlines and limits --------------------------------------------------------------------


def test_sleeping_bot_times_out_is_killed_and_can_restart(safe_mode: Mode) -> None:
    bot, status = started("sleep_forever", safe_mode)
    with bot:
        assert status is Status.OK
        reply = bot.request(ACT, timeout_ms=200)
        assert reply.status is Status.TIMEOUT
        assert not bot.alive  # killed first, recorded after
        assert bot.restart().status is Status.OK
        assert bot.starts == 2


def test_bot_that_ignores_sigterm_is_still_ended(safe_mode: Mode) -> None:
    bot, status = started("ignore_sigterm", safe_mode)
    assert status is Status.OK
    bot.notify({"type": "end", "result": {}})
    bot.close(grace_ms=50)
    assert not bot.alive
    assert processes_of_bot_users() == []


def test_an_endless_answer_line_is_an_output_limit(safe_mode: Mode) -> None:
    bot, status = started("print_gigabytes", safe_mode)
    bot.close(grace_ms=0)
    assert status is Status.OUTPUT_LIMIT


def test_stderr_flood_is_truncated_and_costs_only_time(safe_mode: Mode) -> None:
    bot, status = started("print_stderr_gigabytes", safe_mode)
    with bot:
        assert status is Status.OK
        assert bot.request(ACT, timeout_ms=300).status is Status.TIMEOUT
    assert "bytes left out" in bot.stderr
    assert len(bot.stderr) < FAST_LIMITS.stderr_bytes + 200


def test_closed_stdout_is_a_crash_not_a_hang(safe_mode: Mode) -> None:
    bot, status = started("close_stdout", safe_mode)
    bot.close(grace_ms=0)
    assert status is Status.CRASH


def test_cpu_limit_kills_a_spinning_bot_even_with_a_generous_deadline(safe_mode: Mode) -> None:
    limits = FAST_LIMITS.with_changes(cpu_seconds=1)
    bot, status = started("loop_forever", safe_mode, limits)
    with bot:
        assert status is Status.OK
        reply = bot.request(ACT, timeout_ms=20_000)
        assert reply.status is Status.CRASH
        assert "signal" in reply.reason


def test_bot_files_are_readable_only_by_the_bots_own_uid(safe_mode: Mode) -> None:
    bot, status = started("first_legal", safe_mode)
    with bot:
        stage = bot._stage
        assert stage is not None and bot._lease is not None
        for path in (stage, stage / "bot.py", stage / "catbot.py"):
            info = os.stat(path)
            assert info.st_uid == 0 and info.st_gid == bot._lease.user.gid
            assert not info.st_mode & stat.S_IRWXO
    assert not stage.exists()


def test_closing_leaves_no_bot_processes_behind(safe_mode: Mode) -> None:
    bots = [started("first_legal", safe_mode)[0] for _ in range(3)]
    for bot in bots:
        assert bot.request(ACT, timeout_ms=2000).status is Status.OK
        bot.close()
    assert processes_of_bot_users() == []
