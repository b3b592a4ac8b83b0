"""Start a trivial bot to check that a sandbox mode really works on this machine."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .limits import Limits
from .modes import Mode
from .process import BotProcess, Status
from .slots import NoFreeSlot

_PROBE_BOT = "def choose(observation, legal_actions):\n    return 0\n"


def probe_round_trip(mode: Mode) -> str | None:
    """None when a bot in ``mode`` started and answered one move, else what went wrong.

    Raises :class:`NoFreeSlot` when every bot uid is busy: that says nothing of the mode (a
    busy machine must not fall back to a weaker one), only that the probe must wait.
    """
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "probe_bot.py"
        source.write_text(_PROBE_BOT)
        try:
            # Generous limits: a start-up slowed by a busy machine must not look like a broken
            # mode (a weaker mode that works would then be remembered for good).
            bot = BotProcess(source, mode=mode, limits=Limits(move_ms=30_000, startup_ms=30_000))
        except OSError as exc:
            return str(exc)
        try:
            bot.start({"type": "start", "seat": 0})
            ready = bot.wait_ready()
            if ready.status is not Status.OK:
                return (
                    f"probe bot did not start ({ready.status}: {ready.reason}) {bot.stderr[-300:]}"
                )
            reply = bot.request(
                {"type": "act", "observation": {}, "legal_actions": [{}]}, timeout_ms=30_000
            )
            if (
                reply.status is not Status.OK
                or reply.message is None
                or reply.message.get("index") != 0
            ):
                return (
                    f"probe bot did not answer ({reply.status}: {reply.reason}) {bot.stderr[-300:]}"
                )
        except NoFreeSlot:
            raise
        except Exception as exc:  # any other failure means: this mode does not work here
            return f"{type(exc).__name__}: {exc}"
        finally:
            bot.close(grace_ms=0)
    return None
