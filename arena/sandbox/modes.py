"""Sandbox modes, strongest first, and detection of the strongest one that works here."""

from __future__ import annotations

import functools
import logging
import os
import shutil
import warnings
from enum import StrEnum

logger = logging.getLogger(__name__)

BOT_PYTHON = "/usr/bin/python3"  # the python on PATH may live in root's 0700 home: unusable once dropped


class Mode(StrEnum):
    """How bots are jailed.

    ``bwrap``: bubblewrap namespaces, minimal read-only filesystem, no network, seccomp,
    rlimits, a dedicated uid per bot. ``rlimits-seccomp``: where user namespaces are blocked;
    dedicated uid + rlimits + seccomp (no network, but world-readable files are visible).
    ``unsafe``: a plain subprocess with rlimits, for development only; ranked matches refuse it.
    """

    BWRAP = "bwrap"
    RLIMITS_SECCOMP = "rlimits-seccomp"
    UNSAFE = "unsafe"


class SandboxUnavailable(RuntimeError):
    """The requested (or any safe) sandbox mode cannot run on this machine."""


class UnsafeSandboxWarning(UserWarning):
    """Bots are running without isolation."""


def allows_ranked(mode: str) -> bool:
    """Whether results played in ``mode`` may count for ratings.

    >>> allows_ranked("bwrap"), allows_ranked("unsafe")
    (True, False)
    """
    return Mode(mode) is not Mode.UNSAFE


def missing_requirements(mode: Mode) -> list[str]:
    """What this machine lacks for ``mode``: empty when the mode can be tried."""
    from .seccomp_policy import SeccompUnavailable, seccomp_program
    from .slots import slot_users

    missing = []
    if not os.access(BOT_PYTHON, os.X_OK):
        missing.append(f"{BOT_PYTHON} is missing")
    if mode is Mode.UNSAFE:
        return missing
    if os.geteuid() != 0:
        missing.append("the worker must start as root to drop each bot to a dedicated uid")
    if not slot_users():
        missing.append("no bot users: run scripts/setup-sandbox.sh as root")
    for tool in ("setpriv", "prlimit") + (("bwrap",) if mode is Mode.BWRAP else ()):
        if shutil.which(tool) is None:
            missing.append(f"'{tool}' is not installed")
    try:
        seccomp_program()
    except SeccompUnavailable as exc:
        missing.append(str(exc))
    return missing


@functools.cache
def _probe(mode: Mode) -> str | None:
    """Run a trivial bot through ``mode``; None when it answered, else why it failed."""
    from .probe import probe_round_trip

    missing = missing_requirements(mode)
    if missing:
        return "; ".join(missing)
    return probe_round_trip(mode)


@functools.cache
def detect_mode() -> Mode:
    """The strongest safe mode that works here, probed once per process.

    Never returns ``unsafe``: that mode must be asked for by name.
    Raises :class:`SandboxUnavailable` listing why each safe mode failed.
    """
    reasons = []
    for mode in (Mode.BWRAP, Mode.RLIMITS_SECCOMP):
        failure = _probe(mode)
        if failure is None:
            logger.info("bot sandbox mode: %s", mode)
            return mode
        reasons.append(f"{mode}: {failure}")
    raise SandboxUnavailable(
        "no safe bot sandbox works here (" + " | ".join(reasons) + "); "
        "for local development only, ask for --sandbox unsafe"
    )


def resolve_mode(requested: str | None) -> Mode:
    """The mode to run: detected when ``requested`` is None, else the named one if it works.

    Asking for ``unsafe`` warns loudly (a :class:`UnsafeSandboxWarning` and a log error).
    """
    if requested is None:
        return detect_mode()
    try:
        mode = Mode(requested)
    except ValueError:
        choices = ", ".join(m.value for m in Mode)
        raise SandboxUnavailable(f"unknown sandbox mode {requested!r}; choose from {choices}") from None
    if mode is Mode.UNSAFE:
        message = (
            "UNSAFE SANDBOX: bots run as plain subprocesses with only rlimits; they can read "
            "your files and use the network. Development only; ranked matches refuse it."
        )
        logger.error(message)
        warnings.warn(message, UnsafeSandboxWarning, stacklevel=2)
        missing = missing_requirements(mode)
    else:
        failure = _probe(mode)
        missing = [failure] if failure else []
    if missing:
        raise SandboxUnavailable(f"sandbox mode {mode} cannot run here: {'; '.join(missing)}")
    return mode
