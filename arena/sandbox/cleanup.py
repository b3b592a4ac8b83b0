"""Clearing up after bots: every process of a bot's uid, and the stage directories killed
workers left behind."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time

from .slots import LOCK_DIR

# A stage directory is named after the worker process that made it, so a sweep can tell the
# ones a killed worker left behind (sweep_stages).
STAGE_PREFIX = "catleague-bot-"


def sweep_stages(*, older_than_s: float = 6 * 3600) -> int:
    """Remove the bot files that killed workers left behind; returns how many were removed.

    A stage belongs to the process named in it: it goes when that process is gone, or in any
    case after ``older_than_s`` (a process id may be reused; no match lasts that long).
    """
    removed = 0
    now = time.time()
    for parent in (os.path.join(LOCK_DIR, "stage"), tempfile.gettempdir()):
        try:
            entries = list(os.scandir(parent))
        except OSError:
            continue
        for entry in entries:
            owner = entry.name.removeprefix(STAGE_PREFIX).split("-", 1)[0]
            if (
                entry.name == owner
                or not owner.isdigit()
                or not entry.is_dir(follow_symlinks=False)
            ):
                continue
            try:
                too_old = now - entry.stat(follow_symlinks=False).st_mtime > older_than_s
            except OSError:
                continue
            if too_old or not _process_exists(int(owner)):
                shutil.rmtree(entry.path, ignore_errors=True)
                removed += not os.path.exists(entry.path)
    return removed


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process
    return True


def kill_all_processes_of(uid: int, gid: int, *, wait_seconds: float = 2.0) -> None:
    """SIGKILL every process of ``uid`` and wait (up to ``wait_seconds``) until none is alive.

    kill(-1) from a child that became that uid reaches all of that uid's processes at once,
    which beats a fork bomb; a /proc sweep then catches stragglers and tells when all are gone.
    """
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        try:
            os.setgroups([])
            os.setgid(gid)
            os.setuid(uid)
            with contextlib.suppress(OSError):
                os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    deadline = time.monotonic() + wait_seconds
    while True:
        alive = live_pids_of(uid)
        if not alive or time.monotonic() > deadline:
            return
        for target in alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(target, signal.SIGKILL)
        time.sleep(0.002)


def live_pids_of(uid: int) -> list[int]:
    """Pids of ``uid``'s processes that are not zombies (zombies are their parent's to reap)."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != uid:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                state = handle.read().rsplit(b")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found
