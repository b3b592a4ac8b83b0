"""The seccomp filter every jailed bot runs under, compiled once to a BPF program.

Denied calls fail with EPERM (the bot sees an ordinary error and the match goes on) except
``clone3``, which fails with ENOSYS: glibc then falls back to ``clone`` and threads keep working
(EPERM would break them). Sockets are refused outright: in the rlimits-seccomp mode there is no
network namespace, and even AF_UNIX would reach the host's database and broker sockets.
"""

from __future__ import annotations

import errno
import functools
import tempfile

# Kernel interfaces a bot never needs and that widen the attack surface or escape the jail.
DENIED_SYSCALLS: tuple[str, ...] = (
    "socket",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "syslog",
    "quotactl",
    "vhangup",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
)
_TIOCSTI = 0x5412  # pushes bytes into a terminal's input: a classic sandbox escape
_CLONE_THREAD = 0x00010000


class SeccompUnavailable(RuntimeError):
    """pyseccomp or libseccomp is missing, so no filter can be built."""


@functools.cache
def seccomp_program(*, forbid_processes: bool = False) -> bytes:
    """The filter as raw BPF bytes, ready for ``bwrap --seccomp FD`` or ``PR_SET_SECCOMP``.

    ``forbid_processes``: also refuse ``fork``, ``vfork`` and a ``clone`` that is not a new
    thread, for bots that share their uid with other processes (the rootless mode), where
    RLIMIT_NPROC cannot bound a fork bomb.

    >>> len(seccomp_program()) % 8  # a sequence of 8-byte BPF instructions
    0
    >>> len(seccomp_program(forbid_processes=True)) > len(seccomp_program())
    True
    """
    try:
        import pyseccomp
    except (ImportError, OSError) as exc:  # OSError: libseccomp.so.2 itself is missing
        raise SeccompUnavailable(f"cannot build the seccomp filter: {exc}") from exc
    sfilter = pyseccomp.SyscallFilter(defaction=pyseccomp.ALLOW)
    for name in DENIED_SYSCALLS:
        try:
            sfilter.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
        except (ValueError, RuntimeError):
            continue  # not a syscall on this architecture
    sfilter.add_rule(pyseccomp.ERRNO(errno.ENOSYS), "clone3")
    if forbid_processes:
        for name in ("fork", "vfork"):
            sfilter.add_rule(pyseccomp.ERRNO(errno.EPERM), name)
        sfilter.add_rule(
            pyseccomp.ERRNO(errno.EPERM),
            "clone",
            pyseccomp.Arg(0, pyseccomp.MASKED_EQ, _CLONE_THREAD, 0),
        )
    sfilter.add_rule(
        pyseccomp.ERRNO(errno.EPERM), "ioctl", pyseccomp.Arg(1, pyseccomp.EQ, _TIOCSTI)
    )
    with tempfile.TemporaryFile() as out:
        sfilter.export_bpf(out)
        out.seek(0)
        return out.read()
