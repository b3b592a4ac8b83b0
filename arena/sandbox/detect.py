"""Which sandbox mode works on this machine: requirements first, then a real probe bot."""

from __future__ import annotations

import logging
import os
import shutil
import time
import warnings

from .modes import BOT_PYTHON, SAFE_MODES, Mode, SandboxUnavailable, UnsafeSandboxWarning
from .probe import probe_round_trip
from .seccomp_policy import SeccompUnavailable, seccomp_program
from .slots import slot_users

logger = logging.getLogger(__name__)


def missing_requirements(mode: Mode) -> list[str]:
    """What this machine lacks for ``mode``: empty when the mode can be tried."""
    missing = []
    if not os.access(BOT_PYTHON, os.X_OK):
        missing.append(f"{BOT_PYTHON} is missing")
    if mode is Mode.UNSAFE:
        return missing
    if mode.jailed and shutil.which("bwrap") is None:
        missing.append("bubblewrap is not installed")
    if mode.needs_slot_user:
        if os.geteuid() != 0:
            missing.append("the worker must start as root to drop each bot to a dedicated uid")
        if not slot_users():
            missing.append("no bot users: run scripts/setup-sandbox.sh as root")
        for tool in ("setpriv", "prlimit"):
            if shutil.which(tool) is None:
                missing.append(f"'{tool}' is not installed")
    elif os.geteuid() == 0:
        # As root an unprivileged namespace maps the bot to uid 0 outside: use ``bwrap``.
        missing.append("the rootless mode is for workers that do not run as root")
    try:
        seccomp_program()
    except SeccompUnavailable as exc:
        missing.append(str(exc))
    return missing


# A mode that failed is probed again after this long: the machine may have been set up since
# (packages installed, users created), and a waiting bot should not need a worker restart.
REPROBE_AFTER_S = float(os.environ.get("ARENA_SANDBOX_REPROBE_S", "30"))
_worked: set[Mode] = set()
_failed: dict[Mode, tuple[float, str]] = {}


def _probe(mode: Mode) -> str | None:
    """Run a trivial bot through ``mode``; None when it answered, else why it failed.

    A success is remembered for the life of the process, a failure for ``REPROBE_AFTER_S``.
    """
    if mode in _worked:
        return None
    failed = _failed.get(mode)
    if failed is not None and time.monotonic() - failed[0] < REPROBE_AFTER_S:
        return failed[1]
    missing = missing_requirements(mode)
    failure = "; ".join(missing) if missing else probe_round_trip(mode)
    if failure is None:
        _worked.add(mode)
        _failed.pop(mode, None)
    else:
        _failed[mode] = (time.monotonic(), failure)
    return failure


def forget_probes() -> None:
    """Probe every mode afresh on the next call (after the machine was set up, and in tests)."""
    _worked.clear()
    _failed.clear()


def _summary(reasons: dict[Mode, str]) -> str:
    """What an owner waiting for their bot needs to know, in one sentence."""
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed on the worker"
    if os.geteuid() == 0 and "no bot users" in reasons.get(Mode.BWRAP, ""):
        return "the worker's bot users are not set up (scripts/setup-sandbox.sh)"
    return "no bot sandbox works on the worker: " + reasons.get(
        Mode.BWRAP if os.geteuid() == 0 else Mode.BWRAP_ROOTLESS, "unknown reason"
    )


def detect_mode() -> Mode:
    """The strongest safe mode that works here (a success is remembered for the process).

    Never returns ``unsafe``: that mode must be asked for by name.
    Raises :class:`SandboxUnavailable` listing why each safe mode failed.
    """
    reasons: dict[Mode, str] = {}
    for mode in SAFE_MODES:
        failure = _probe(mode)
        if failure is None:
            logger.info("bot sandbox mode: %s", mode)
            return mode
        reasons[mode] = failure
    raise SandboxUnavailable(
        "no safe bot sandbox works here ("
        + " | ".join(f"{mode}: {why}" for mode, why in reasons.items())
        + "); "
        "for local development only, ask for --sandbox unsafe",
        summary=_summary(reasons),
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
        raise SandboxUnavailable(
            f"unknown sandbox mode {requested!r}; choose from {choices}"
        ) from None
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
        raise SandboxUnavailable(
            f"sandbox mode {mode} cannot run here: {'; '.join(missing)}",
            summary=f"the {mode} sandbox cannot run on the worker: {'; '.join(missing)}",
        )
    return mode
