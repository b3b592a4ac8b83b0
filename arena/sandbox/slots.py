"""Dedicated unprivileged uids for bots, leased one per running bot.

RLIMIT_NPROC counts every process of a real uid across all sandboxes, so bots that shared a
uid could starve each other (one fork bomb and the next bot cannot start). Each running bot
therefore holds its own slot uid, leased with an exclusive ``flock`` on a per-slot lock file;
the kernel drops the lock if the worker dies, so a slot can never leak.
The users are created by ``scripts/setup-sandbox.sh``.
"""

from __future__ import annotations

import fcntl
import os
import pwd
import time
from dataclasses import dataclass

USER_PREFIX = os.environ.get("CATLEAGUE_BOT_USER_PREFIX", "catleague-bot")
LOCK_DIR = "/run/catleague-sandbox"


class NoFreeSlot(RuntimeError):
    """Every bot uid is in use (or none exist): too many concurrent bots for this machine."""


@dataclass(frozen=True, slots=True)
class SlotUser:
    name: str
    uid: int
    gid: int


def slot_users() -> list[SlotUser]:
    """The bot users made by the setup script, in slot order."""
    found = []
    for entry in pwd.getpwall():
        suffix = entry.pw_name.removeprefix(USER_PREFIX)
        if suffix != entry.pw_name and suffix.isdigit():
            found.append((int(suffix), SlotUser(entry.pw_name, entry.pw_uid, entry.pw_gid)))
    return [user for _, user in sorted(found, key=lambda pair: pair[0])]


class SlotLease:
    """One slot uid held by this process until :meth:`release`.

    A lease is only valid for root (the only one who can drop to another uid).
    """

    def __init__(self, user: SlotUser, lock_fd: int) -> None:
        self.user = user
        self._lock_fd: int | None = lock_fd

    @classmethod
    def acquire(cls, *, wait_seconds: float = 10.0) -> SlotLease:
        users = slot_users()
        if not users:
            raise NoFreeSlot(
                f"no '{USER_PREFIX}N' users exist: run scripts/setup-sandbox.sh as root"
            )
        os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
        deadline = time.monotonic() + wait_seconds
        # Start from a pid-dependent slot so concurrent workers rarely collide on the same lock.
        start = os.getpid() % len(users)
        while True:
            for offset in range(len(users)):
                user = users[(start + offset) % len(users)]
                fd = os.open(
                    f"{LOCK_DIR}/{user.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600
                )
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    os.close(fd)
                    continue
                return cls(user, fd)
            if time.monotonic() >= deadline:
                raise NoFreeSlot(
                    f"all {len(users)} bot slots are busy; add slots with setup-sandbox.sh"
                )
            time.sleep(0.02)

    def release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing drops the flock
            self._lock_fd = None
