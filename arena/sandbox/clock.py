"""Which clock a move's limit counts, and how it is read: the CPU time of a bot's process tree.

A move's limit counts CPU time by default (``Limits.clock == "cpu"``), so a bot's faults do not
depend on how busy the worker is; a wall-clock ceiling of ``wall_factor`` times the limit still
ends a bot that sleeps or blocks. ``clock="wall"`` is the older rule (wall-clock time only).

The CPU time is read live from ``/proc``: the bot is one long-lived process answering many
moves, so the rusage of exited children (``wait4``) comes too late, and cgroups are not usable
on every machine the sandbox runs on (no delegation for a worker that is not root). For each
process, ``/proc/<pid>/stat`` has the user and system time of all its threads (exited ones
included) and of its children that were reaped, so the sum over the tree rooted at the
launched process counts every process and thread the bot started. In ``bwrap`` mode the PID
namespace keeps every process in that tree (orphans go to the bot, its pid 1); without one, a
process whose parent died is adopted outside it and is bounded only by the wall ceiling and
the kernel's per-process CPU limit (docs/sandbox.md, known gaps).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from .limits import Limits

_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
# Fields after the command name in /proc/<pid>/stat: state is field 3, utime field 14.
_PPID, _UTIME, _STIME, _CUTIME, _CSTIME = 1, 11, 12, 13, 14
_HAS_CHILDREN_FILES = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")
# The shortest wait between two readings near the limit (bounds the overshoot per CPU).
MIN_CHECK_S = 0.005


def tree_cpu_seconds(root: int) -> float | None:
    """CPU seconds used so far by ``root`` and every process below it; None when ``root`` is gone.

    >>> tree_cpu_seconds(os.getpid()) > 0
    True
    """
    children_of = _children_from_task_files if _HAS_CHILDREN_FILES else _children_from_scan()
    total = 0
    pending, seen = [root], set()
    while pending:
        pid = pending.pop()
        if pid in seen:
            continue
        seen.add(pid)
        fields = _stat_fields(pid)
        if fields is None:
            if pid == root:
                return None
            continue  # exited between the listing and the reading: its parent has its time
        total += sum(int(fields[i]) for i in (_UTIME, _STIME, _CUTIME, _CSTIME))
        pending.extend(children_of(pid))
    return total / _TICKS_PER_SECOND


def _read_small(path: str) -> bytes:
    """A small /proc file in one read (plain syscalls: this runs twice for every move)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        return os.read(fd, 4096)
    finally:
        os.close(fd)


def _stat_fields(pid: int) -> list[bytes] | None:
    try:
        # The command name may hold spaces and parentheses: split after the last ')'.
        return _read_small(f"/proc/{pid}/stat").rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _children_from_task_files(pid: int) -> list[int]:
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tasks:
        try:
            found.extend(
                int(child) for child in _read_small(f"/proc/{pid}/task/{tid}/children").split()
            )
        except OSError:
            continue
    return found


def _children_from_scan() -> Callable[[int], list[int]]:
    """For kernels without ``/proc/<pid>/task/<tid>/children``: one pass over every process."""
    by_parent: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            by_parent.setdefault(int(fields[_PPID]), []).append(int(entry))
    return lambda pid: by_parent.get(pid, [])


class MoveClock:
    """The limit on one answer: ``limit_ms`` on the limits' clock, timed from construction.

    With the CPU clock the answer may use ``limit_ms`` of CPU time over the whole process tree
    of ``root`` and take at most ``wall_factor`` times as long in wall-clock time. When the CPU
    time cannot be read (not the bot's doing), only the wall ceiling applies: an
    infrastructure problem never counts against a bot.
    """

    def __init__(self, limits: Limits, limit_ms: float, root: int | None) -> None:
        self.counts_cpu = limits.clock == "cpu"
        self.limit_s = limit_ms / 1000
        self.started = time.monotonic()
        factor = limits.wall_factor if self.counts_cpu else 1
        self.deadline = self.started + self.limit_s * factor
        self._root = root if self.counts_cpu else None
        self._cpu_at_start = tree_cpu_seconds(self._root) if self._root is not None else None
        # No reading before the tree could have spent the limit: a quick answer costs two.
        self._next_check = self.started + self._soonest_overrun_s(0.0)
        self.cpu_s: float | None = 0.0 if self._cpu_at_start is not None else None

    @property
    def measures_cpu(self) -> bool:
        return self._cpu_at_start is not None

    def read_cpu(self) -> float | None:
        """CPU seconds the tree has used since the clock started (also kept in ``cpu_s``)."""
        if self._root is None or self._cpu_at_start is None:
            return None
        now = tree_cpu_seconds(self._root)
        if now is not None:  # None: the process is gone; keep the last reading
            # Rounded: both readings are whole ticks, and 0.37 - 0.07 must not exceed 0.30.
            self.cpu_s = round(now - self._cpu_at_start, 6)
        return self.cpu_s

    def cpu_overrun(self, *, now: float | None = None, force: bool = False) -> str | None:
        """The fault reason when the CPU limit is spent, else None; reads ``/proc`` only when due.

        An overrun is confirmed by a second reading: a child reaped between two reads of one
        pass could be counted twice (once itself, once in its parent's reaped time).
        """
        if not self.measures_cpu:
            return None
        now = time.monotonic() if now is None else now
        if not force and now < self._next_check:
            return None
        used = self.read_cpu() or 0.0
        if used > self.limit_s:
            used = self.read_cpu() or 0.0
        if used > self.limit_s:
            return f"used {used:.2f} s of CPU time, limit {self.limit_s:.2f} s"
        self._next_check = now + self._soonest_overrun_s(used)
        return None

    def _soonest_overrun_s(self, used: float) -> float:
        """The tree cannot use CPU faster than the machine has CPUs: no need to look sooner."""
        return max(MIN_CHECK_S, (self.limit_s - used) / (os.cpu_count() or 1))

    def wake_by(self) -> float:
        """When the waiting loop must look again (the next CPU reading or the deadline)."""
        if not self.measures_cpu:
            return self.deadline
        return min(self.deadline, self._next_check)

    def deadline_reason(self) -> str:
        waited = time.monotonic() - self.started
        if self.counts_cpu:
            return f"waited {waited:.1f} s of wall-clock time without answering"
        return f"no answer within {self.limit_s:.2f} s of wall-clock time"

    def charged_ms(self, wall_ms: float) -> float:
        """The time this answer costs on the limits' clock (what the time bank pays for)."""
        if not self.counts_cpu:
            return wall_ms
        return (self.cpu_s or 0.0) * 1000
