"""Resource and time limits for one bot in one match."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

CLOCKS = ("cpu", "wall")


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit a match puts on a bot; stored in each match log.

    Time: a move may take ``move_ms``; time beyond that comes out of the match-wide ``bank_ms``
    and a move overruns only when both are spent. Both count the ``clock``: ``"cpu"`` (the
    default) is the CPU time of the bot's whole process tree, so a busy worker does not cost a
    bot its moves, and a move also ends after ``wall_factor`` times its limit in wall-clock
    time (a bot that sleeps or blocks); ``"wall"`` counts wall-clock time only (``wall_factor``
    unused). ``startup_ms`` bounds the start of a bot process (Python start-up, imports) in
    wall-clock time and is not charged to the bank. After ``max_faults`` faults the bot forfeits.

    The rest are kernel limits on the sandboxed process: CPU seconds for the whole match
    (``RLIMIT_CPU`` counts for the life of a process), address space, processes and threads of
    the bot's dedicated uid, size of any file it writes, open files, the size of its private
    ``/tmp``, the longest reply line and the stderr kept for its owner.

    >>> Limits(move_ms=50).with_changes(max_faults=1).max_faults
    1
    """

    move_ms: int = 1000
    bank_ms: int = 10_000
    startup_ms: int = 5000
    max_faults: int = 5
    cpu_seconds: int = 60
    memory_mb: int = 512
    processes: int = 32
    file_size_kb: int = 1024
    open_files: int = 64
    tmp_mb: int = 16
    max_line_bytes: int = 256 * 1024
    stderr_bytes: int = 16 * 1024
    # A person at the table (arena.runner's human seats) has a league-like limit per move.
    human_move_ms: int = 180_000
    clock: str = "cpu"
    wall_factor: int = 3

    def __post_init__(self) -> None:
        if self.clock not in CLOCKS:
            raise ValueError(f"limit clock must be one of {', '.join(CLOCKS)}, got {self.clock!r}")
        for name, value in asdict(self).items():
            if name == "clock":
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"limit {name} must be a non-negative integer, got {value!r}")
        positive = (self.move_ms, self.startup_ms, self.cpu_seconds, self.human_move_ms)
        if 0 in (*positive, self.wall_factor):
            raise ValueError(
                "move_ms, startup_ms, cpu_seconds, human_move_ms and wall_factor must be positive"
            )

    def with_changes(self, **changes: int | str) -> Limits:
        return replace(self, **changes)  # type: ignore[arg-type]  # checked in __post_init__

    def to_json(self) -> dict[str, int | str]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Limits:
        """Limits from a stored dict; unknown keys are refused so typos do not pass silently."""
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise ValueError(f"unknown limits: {', '.join(sorted(unknown))}")
        return cls(**data)
