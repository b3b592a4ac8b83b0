"""The command line (and pre-exec step) that starts one bot in a given sandbox mode."""

from __future__ import annotations

import ctypes
import os
import resource
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .engine_lib import ENGINE_LIB_IN_JAIL
from .limits import Limits
from .modes import BOT_PYTHON, Mode
from .slots import SlotUser

BOT_DIR_IN_JAIL = "/bot"
# -S: no site module (stdlib only, faster start); -B: no .pyc writes; -P: the script's directory
# is not put first on sys.path (catbot adds /bot itself, after the stdlib).
PYTHON_FLAGS = ("-S", "-B", "-P")
BOT_ENV = {
    "PATH": "/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
}


@dataclass(frozen=True)
class LaunchPlan:
    argv: list[str]
    env: dict[str, str]
    cwd: str
    preexec_fn: Callable[[], None] | None
    pass_fds: tuple[int, ...]


def _rlimits(limits: Limits, *, with_nproc: bool) -> list[tuple[int, int, int]]:
    # With bwrap --as-pid-1 the soft CPU limit's SIGXCPU is ignored, so hard = soft + 1 kills soon after.
    rl = [
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1),
        (resource.RLIMIT_AS, limits.memory_mb << 20, limits.memory_mb << 20),
        (resource.RLIMIT_FSIZE, limits.file_size_kb << 10, limits.file_size_kb << 10),
        (resource.RLIMIT_NOFILE, limits.open_files, limits.open_files),
        (resource.RLIMIT_CORE, 0, 0),
    ]
    if with_nproc:
        rl.append((resource.RLIMIT_NPROC, limits.processes, limits.processes))
    return rl


def _prlimit_args(limits: Limits, *, with_nproc: bool = True) -> list[str]:
    names = {
        resource.RLIMIT_CPU: "--cpu",
        resource.RLIMIT_AS: "--as",
        resource.RLIMIT_FSIZE: "--fsize",
        resource.RLIMIT_NOFILE: "--nofile",
        resource.RLIMIT_CORE: "--core",
        resource.RLIMIT_NPROC: "--nproc",
    }
    return [
        f"{names[r]}={soft}:{hard}" for r, soft, hard in _rlimits(limits, with_nproc=with_nproc)
    ]


def bwrap_plan(
    stage: Path, user: SlotUser, limits: Limits, seccomp_fd: int, lib: Path
) -> LaunchPlan:
    """setpriv drops to the slot uid, prlimit sets the limits, bwrap builds the jail.

    The jail sees only /usr (read-only), the bot directory (read-only), the engine's copy
    (read-only), a size-capped /tmp, a minimal /dev and its own /proc; the root and /dev are
    remounted read-only last.
    """
    argv = [
        "setpriv",
        f"--reuid={user.uid}",
        f"--regid={user.gid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--",
        "prlimit",
        *_prlimit_args(limits),
        "--",
        *_bwrap_jail(stage, limits, seccomp_fd, lib),
    ]
    return LaunchPlan(argv, {}, "/", None, (seccomp_fd,))


def bwrap_rootless_plan(stage: Path, limits: Limits, seccomp_fd: int, lib: Path) -> LaunchPlan:
    """The same jail started by an ordinary user: no uid to drop to, so no process limit
    (it would count all of that user's processes); the seccomp filter given here refuses to
    create processes instead."""
    argv = [
        "prlimit",
        *_prlimit_args(limits, with_nproc=False),
        "--",
        *_bwrap_jail(stage, limits, seccomp_fd, lib),
    ]
    return LaunchPlan(argv, {}, "/", None, (seccomp_fd,))


def _bwrap_jail(stage: Path, limits: Limits, seccomp_fd: int, lib: Path) -> list[str]:
    return [
        "bwrap",
        "--unshare-all",
        "--unshare-user",
        "--disable-userns",
        "--die-with-parent",
        "--new-session",
        "--as-pid-1",
        "--cap-drop",
        "ALL",
        "--ro-bind",
        "/usr",
        "/usr",
        "--symlink",
        "usr/lib",
        "/lib",
        "--symlink",
        "usr/lib64",
        "/lib64",
        "--symlink",
        "usr/bin",
        "/bin",
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(limits.tmp_mb << 20),
        "--tmpfs",
        "/tmp",
        "--ro-bind",
        str(stage),
        BOT_DIR_IN_JAIL,
        "--ro-bind",
        str(lib),
        ENGINE_LIB_IN_JAIL,
        "--remount-ro",
        "/dev",
        "--remount-ro",
        "/",
        "--clearenv",
        *[arg for key, value in BOT_ENV.items() for arg in ("--setenv", key, value)],
        "--setenv",
        "HOME",
        "/tmp",
        "--setenv",
        "TMPDIR",
        "/tmp",
        "--setenv",
        "CATLEAGUE_ENGINE_LIB",
        ENGINE_LIB_IN_JAIL,
        "--chdir",
        "/tmp",
        "--seccomp",
        str(seccomp_fd),
        "--",
        BOT_PYTHON,
        *PYTHON_FLAGS,
        f"{BOT_DIR_IN_JAIL}/catbot.py",
        f"{BOT_DIR_IN_JAIL}/bot.py",
    ]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


_PR_SET_NO_NEW_PRIVS = 38
_PR_SET_SECCOMP = 22
_SECCOMP_MODE_FILTER = 2


def rlimits_seccomp_plan(
    stage: Path, user: SlotUser, limits: Limits, program: bytes, lib: Path
) -> LaunchPlan:
    """No namespaces: the child sets rlimits, drops to the slot uid, then loads the filter.

    Everything the child needs is built before fork, so the pre-exec step only makes syscalls.
    """
    rlimits = _rlimits(limits, with_nproc=True)
    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = _SockFprog(len(program) // 8, ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)

    def preexec() -> None:
        for which, soft, hard in rlimits:
            resource.setrlimit(which, (soft, hard))
        os.setgroups([])
        os.setgid(user.gid)
        os.setuid(user.uid)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS failed")
        if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "PR_SET_SECCOMP failed")
        preexec.keep = (buffer, fprog)  # type: ignore[attr-defined]  # keep the program alive

    argv = [BOT_PYTHON, *PYTHON_FLAGS, str(stage / "catbot.py"), str(stage / "bot.py")]
    env = dict(
        BOT_ENV, HOME=str(stage / "tmp"), TMPDIR=str(stage / "tmp"), CATLEAGUE_ENGINE_LIB=str(lib)
    )
    return LaunchPlan(argv, env, str(stage / "tmp"), preexec, ())


def unsafe_plan(stage: Path, limits: Limits, lib: Path) -> LaunchPlan:
    """A plain subprocess with rlimits (no NPROC: it would count all of the developer's processes)."""
    rlimits = _rlimits(limits, with_nproc=False)

    def preexec() -> None:
        for which, soft, hard in rlimits:
            resource.setrlimit(which, (soft, hard))

    argv = [BOT_PYTHON, *PYTHON_FLAGS, str(stage / "catbot.py"), str(stage / "bot.py")]
    env = dict(
        BOT_ENV, HOME=str(stage / "tmp"), TMPDIR=str(stage / "tmp"), CATLEAGUE_ENGINE_LIB=str(lib)
    )
    return LaunchPlan(argv, env, str(stage / "tmp"), preexec, ())


def plan_for(
    mode: Mode,
    stage: Path,
    user: SlotUser | None,
    limits: Limits,
    seccomp_fd: int | None,
    program: bytes | None,
    lib: Path,
) -> LaunchPlan:
    if mode is Mode.BWRAP:
        assert user is not None and seccomp_fd is not None
        return bwrap_plan(stage, user, limits, seccomp_fd, lib)
    if mode is Mode.BWRAP_ROOTLESS:
        assert seccomp_fd is not None
        return bwrap_rootless_plan(stage, limits, seccomp_fd, lib)
    if mode is Mode.RLIMITS_SECCOMP:
        assert user is not None and program is not None
        return rlimits_seccomp_plan(stage, user, limits, program, lib)
    return unsafe_plan(stage, limits, lib)
