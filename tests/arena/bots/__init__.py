"""Test bots (the other files here) and helpers to load them and inspect what they left behind."""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import NoReturn

import pytest

from arena.sandbox import Limits, Mode
from arena.sandbox.detect import missing_requirements
from arena.sandbox.slots import LOCK_DIR, slot_users

BOTS_DIR = Path(__file__).resolve().parent
PROJECT_FILE = BOTS_DIR.parents[2] / "manage.py"

# Small limits keep every hostile bot quick to contain.
FAST_LIMITS = Limits(
    move_ms=300,
    bank_ms=200,
    startup_ms=4000,
    max_faults=2,
    cpu_seconds=5,
    memory_mb=256,
    processes=16,
    file_size_kb=256,
    open_files=32,
    tmp_mb=4,
    max_line_bytes=64 * 1024,
    stderr_bytes=8 * 1024,
)


def bot_source(name: str, **constants: object) -> bytes:
    """A test bot's code, with ``NAME = None`` lines replaced by the given constants."""
    text = (BOTS_DIR / f"{name}.py").read_text()
    for key, value in constants.items():
        text = text.replace(f"{key} = None", f"{key} = {value!r}")
    return text.encode()


def unavailable_reason(mode: Mode) -> str | None:
    """Why ``mode`` cannot be tested here (not root, no bwrap...), or None.

    Only missing prerequisites skip tests: a mode whose prerequisites are all present but
    whose probe fails is a broken sandbox, and its tests run and fail.
    """
    missing = missing_requirements(mode)
    return "; ".join(missing) if missing else None


def sandbox_missing(reason: str) -> NoReturn:
    """Skip a sandbox test on a machine without the prerequisites, or fail it where they are
    required: bin/test sets CATLEAGUE_REQUIRE_SANDBOX=1 when run as root (as CI is), so a
    broken setup there cannot pass as a skip."""
    if os.geteuid() != 0 and "root" in reason:
        message = f"{reason} (this mode is tested only when the suite runs as root: sudo bin/test)"
    else:
        message = (
            f"{reason} (run once: sudo apt-get install -y bubblewrap libseccomp2 && "
            "sudo scripts/setup-sandbox.sh)"
        )
    if os.environ.get("CATLEAGUE_REQUIRE_SANDBOX") == "1":
        pytest.fail(f"sandbox required but unavailable: {message}", pytrace=False)
    pytest.skip(message)


def safe_modes() -> list[Mode]:
    """The jailing modes this machine has the prerequisites for (CI as root with bwrap: both)."""
    return [
        mode
        for mode in (Mode.BWRAP, Mode.BWRAP_ROOTLESS, Mode.RLIMITS_SECCOMP)
        if unavailable_reason(mode) is None
    ]


def first_safe_mode() -> Mode:
    """The first jailing mode this machine can run bots in; without one, the test is skipped (or
    failed where the sandbox is required, as ``sandbox_missing`` says)."""
    modes = safe_modes()
    if not modes:
        sandbox_missing("no safe sandbox mode works here")
    return modes[0]


def processes_of_bot_users(*, wait_seconds: float = 60.0) -> list[int]:
    """Pids of live (non-zombie) processes left behind by bots: a leak, the match is over.

    Other test runs and workers on the same machine may be running bots right now, under the
    same slot uids. So each slot is checked while holding its lease: a running bot holds its
    slot's lock for its whole life, so while we hold it, any live process of that uid is one
    that outlived its sandbox. Only root runs bots under those uids (and may take their locks).
    """
    found: list[int] = []
    if os.geteuid() != 0:
        return found
    os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
    for user in slot_users():
        fd = os.open(f"{LOCK_DIR}/{user.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            deadline = time.monotonic() + wait_seconds
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise AssertionError(
                            f"slot {user.name} stayed busy for {wait_seconds} s"
                        ) from None
                    time.sleep(0.05)
            found.extend(live_processes_of(user.uid))
        finally:
            os.close(fd)  # drops the lock
    return found


def jailed_bots_of(uid: int) -> list[int]:
    """Pids of ``uid``'s live processes that are jailed bots (a rootless sandbox's leftovers)."""
    found = []
    for pid in live_processes_of(uid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                if b"/bot/catbot.py" in handle.read():
                    found.append(pid)
        except OSError:
            continue
    return found


def live_processes_of(uid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as handle:
                status = handle.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith("Z"):
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            found.append(int(entry))
    return found


def escapes(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("ESCAPED")]
