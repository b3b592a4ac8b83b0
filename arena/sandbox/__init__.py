"""Run untrusted bot programs in a sandbox (no Django here: the runner and tests use it directly).

Public API: :func:`detect_mode`, :func:`resolve_mode`, :func:`allows_ranked`, :class:`Mode`,
:class:`Limits`, :class:`BotProcess`, :class:`Reply`, :class:`Status`. See docs/sandbox.md.
"""

from .cleanup import sweep_stages
from .detect import detect_mode, forget_probes, resolve_mode
from .limits import Limits
from .modes import Mode, SandboxUnavailable, UnsafeSandboxWarning, allows_ranked
from .process import BotProcess, Reply, Status
from .slots import NoFreeSlot

__all__ = [
    "BotProcess",
    "Limits",
    "Mode",
    "NoFreeSlot",
    "Reply",
    "SandboxUnavailable",
    "Status",
    "UnsafeSandboxWarning",
    "allows_ranked",
    "detect_mode",
    "forget_probes",
    "resolve_mode",
    "sweep_stages",
]
