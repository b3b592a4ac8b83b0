"""Sandbox modes, strongest first, and the errors of choosing one (detection: ``detect``)."""

from __future__ import annotations

from enum import StrEnum

BOT_PYTHON = (
    "/usr/bin/python3"  # the python on PATH may live in root's 0700 home: unusable once dropped
)


class Mode(StrEnum):
    """How bots are jailed.

    ``bwrap``: bubblewrap namespaces, minimal read-only filesystem, no network, seccomp,
    rlimits, a dedicated uid per bot (the worker starts as root). ``bwrap-rootless``: the same
    jail started by an ordinary user through an unprivileged user namespace; the bot keeps
    that user's uid outside the jail, so instead of a per-uid process limit the seccomp filter
    refuses to create processes (threads still work). ``rlimits-seccomp``: where user
    namespaces are blocked; dedicated uid + rlimits + seccomp (no network, but world-readable
    files are visible). ``unsafe``: a plain subprocess with rlimits, for development only;
    ranked matches refuse it.
    """

    BWRAP = "bwrap"
    BWRAP_ROOTLESS = "bwrap-rootless"
    RLIMITS_SECCOMP = "rlimits-seccomp"
    UNSAFE = "unsafe"

    @property
    def jailed(self) -> bool:
        """Runs bubblewrap (a private /tmp, no host files)."""
        return self in (Mode.BWRAP, Mode.BWRAP_ROOTLESS)

    @property
    def needs_slot_user(self) -> bool:
        """Drops each bot to a dedicated uid, which only root can do."""
        return self in (Mode.BWRAP, Mode.RLIMITS_SECCOMP)


SAFE_MODES = (Mode.BWRAP, Mode.BWRAP_ROOTLESS, Mode.RLIMITS_SECCOMP)


class SandboxUnavailable(RuntimeError):
    """The requested (or any safe) sandbox mode cannot run on this machine.

    ``summary`` is one plain sentence for a bot's owner (what the machine lacks); the message
    has every mode's reasons for the operator.
    """

    def __init__(self, message: str, *, summary: str = "") -> None:
        super().__init__(message)
        self.summary = summary or message


class UnsafeSandboxWarning(UserWarning):
    """Bots are running without isolation."""


def allows_ranked(mode: str) -> bool:
    """Whether results played in ``mode`` may count for ratings.

    >>> allows_ranked("bwrap"), allows_ranked("unsafe")
    (True, False)
    """
    return Mode(mode) is not Mode.UNSAFE
