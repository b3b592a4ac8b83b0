"""One bot's sandboxed process for a whole match, spoken to one JSON line at a time.

Deadlines are enforced while waiting: every read and write polls the pipes until the
deadline, and on overrun the whole sandbox is killed first and the fault recorded after. A
move's limit counts the clock the limits name (``clock``: the CPU time of the bot's process
tree by default, with a wall-clock ceiling); see :mod:`.clock`.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from .cleanup import STAGE_PREFIX as STAGE_PREFIX
from .cleanup import kill_all_processes_of
from .clock import MoveClock
from .command import plan_for
from .engine_lib import engine_lib
from .limits import Limits
from .modes import Mode
from .seccomp_policy import seccomp_program
from .slots import LOCK_DIR, SlotLease

BOTKIT_DIR = Path(__file__).resolve().parent.parent / "botkit"
_READ_CHUNK = 65536
_LEFT_OUT = "\n[… {} bytes left out …]\n"


class Status(StrEnum):
    """The closed set of outcomes of asking a bot for a move (free text goes in ``reason``)."""

    OK = "ok"
    TIMEOUT = "timeout"  # over the move's limit (CPU time, or the wall-clock ceiling)
    INVALID = "invalid"  # not JSON, not an object, or not an action
    ILLEGAL = "illegal"  # a well-formed action that is not legal now
    CRASH = "crash"  # the process died, closed stdout or could not start
    OUTPUT_LIMIT = "output_limit"  # an answer line longer than the limit
    FORFEITED = "forfeited"  # the bot was not asked: it forfeited earlier


# After these the protocol stream cannot be trusted, so the process is killed (and restarted
# for the bot's next move).
KILLING_STATUSES = frozenset({Status.TIMEOUT, Status.CRASH, Status.OUTPUT_LIMIT})


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer (or fault). ``ms`` is wall-clock time; ``cpu_ms`` the CPU time of the bot's
    process tree (None when not measured); ``charged_ms`` the time on the limits' clock."""

    status: Status
    message: dict[str, Any] | None = None
    ms: float = 0.0
    reason: str = ""
    cpu_ms: float | None = None
    charged_ms: float = 0.0


@dataclass
class _Pipes:
    stdin: int
    stdout: int
    stderr: int
    open: set[int] = field(default_factory=set)


class BotProcess:
    """A bot file running in a sandbox, started once per match (and again after a kill).

    >>> bot = BotProcess("bot.py", mode=Mode.BWRAP, limits=Limits())   # doctest: +SKIP
    >>> bot.start({"type": "start", "seat": 0}); bot.wait_ready().status  # doctest: +SKIP
    <Status.OK: 'ok'>
    >>> bot.request({"type": "act", ...}, timeout_ms=1000).message      # doctest: +SKIP
    {'action': {...}}
    >>> bot.close()                                                      # doctest: +SKIP
    """

    def __init__(self, source: str | Path | bytes, *, mode: Mode, limits: Limits) -> None:
        """``source``: the bot's code, or the path of its file (read now: later edits do not leak in)."""
        self.mode = Mode(mode)
        self.limits = limits
        self._source_bytes = source if isinstance(source, bytes) else Path(source).read_bytes()
        self._lease: SlotLease | None = None
        self._stage: Path | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._pipes: _Pipes | None = None
        self._hello: dict[str, Any] | None = None
        self._stdout = bytearray()
        self._stderr = bytearray()  # the start of stderr, up to half of limits.stderr_bytes
        self._stderr_tail = bytearray()  # its latest bytes, up to the other half
        self._stderr_dropped = 0
        self._started_at = 0.0
        self._request_id = 0
        self.spawn_ms = 0.0
        self.starts = 0
        self.exit_codes: list[int] = []

    # -- life cycle -----------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self, hello: dict[str, Any]) -> None:
        """Spawn the sandbox and send ``hello``; does not wait (start several bots in parallel)."""
        if self._proc is not None:
            self.kill()
        self._hello = hello
        self._prepare()
        self._started_at = time.monotonic()
        self.starts += 1
        seccomp_fd = None
        if self.mode.jailed:
            # bwrap reads the --seccomp fd to its end, so every spawn needs a fresh one.
            seccomp_fd, writer = os.pipe()
            os.write(writer, seccomp_program(forbid_processes=self.mode is Mode.BWRAP_ROOTLESS))
            os.close(writer)
        program = seccomp_program() if self.mode is Mode.RLIMITS_SECCOMP else None
        assert self._stage is not None
        plan = plan_for(
            self.mode,
            self._stage,
            self._lease.user if self._lease else None,
            self.limits,
            seccomp_fd,
            program,
            engine_lib(_stage_parent(self._lease)),
        )
        try:
            self._proc = subprocess.Popen(
                plan.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=plan.env,
                cwd=plan.cwd,
                preexec_fn=plan.preexec_fn,
                pass_fds=plan.pass_fds,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            self._proc = None
            self._append_stderr(f"[sandbox could not start: {exc}]\n".encode())
            return
        finally:
            if seccomp_fd is not None:
                os.close(seccomp_fd)
        assert self._proc.stdin and self._proc.stdout and self._proc.stderr
        fds = (self._proc.stdin.fileno(), self._proc.stdout.fileno(), self._proc.stderr.fileno())
        for fd in fds:
            os.set_blocking(fd, False)
        self._pipes = _Pipes(*fds, open=set(fds))
        self._stdout.clear()
        # The hello is small and the pipe empty, so this write cannot block.
        self._pump(self._encode(hello), want_line=False, deadline=self._started_at + 1.0)

    def wait_ready(self) -> Reply:
        """Wait (up to ``limits.startup_ms`` from :meth:`start`) for the bot's ``{"ready": true}``."""
        deadline = self._started_at + self.limits.startup_ms / 1000
        if self._proc is None:
            reply = Reply(Status.CRASH, reason="the sandbox could not start")
        else:
            reply = self._pump(b"", want_line=True, deadline=deadline)
            if reply.status is Status.OK and not (reply.message or {}).get("ready"):
                reply = Reply(Status.INVALID, reply.message, reason='expected {"ready": true}')
        self.spawn_ms += (time.monotonic() - self._started_at) * 1000
        if reply.status is not Status.OK:
            self.kill()
        return reply

    def restart(self) -> Reply:
        """Start again with the same hello after a kill; the answer to waiting for ready."""
        assert self._hello is not None, "restart() before start()"
        self.start(self._hello)
        return self.wait_ready()

    def request(self, message: dict[str, Any], *, timeout_ms: float) -> Reply:
        """Send one message and wait for one JSON object line, ``timeout_ms`` on the limits' clock.

        With the CPU clock the answer may use ``timeout_ms`` of CPU time (the whole process
        tree, measured from the request) and take ``wall_factor`` times as long in wall-clock
        time; an answer that arrives over its CPU time is late. Returns ok, timeout, invalid,
        crash or output_limit; the last three kinds kill the process.
        """
        if not self.alive or self._proc is None:
            return Reply(Status.CRASH, reason=self._death_reason() or "not running")
        self._request_id += 1
        message = dict(message, id=self._request_id)
        self._stdout.clear()  # lines left over from an earlier answer must not answer this one
        clock = MoveClock(self.limits, timeout_ms, self._proc.pid)
        reply = self._pump(
            self._encode(message), want_line=True, deadline=clock.deadline, clock=clock
        )
        # One more reading: the CPU time up to the answer, for the bank and the log.
        if reply.status is not Status.OK:
            clock.read_cpu()
        elif late := clock.cpu_overrun(force=True):
            reply = Reply(Status.TIMEOUT, reply.message, reason=late)
        ms = (time.monotonic() - clock.started) * 1000
        reason = reply.reason
        if reply.status in KILLING_STATUSES:
            self.kill()
            if reply.status is Status.CRASH:
                reason = self._death_reason() or reply.reason
        cpu_ms = clock.cpu_s * 1000 if clock.cpu_s is not None else None
        return Reply(reply.status, reply.message, ms, reason, cpu_ms, clock.charged_ms(ms))

    def notify(self, message: dict[str, Any], *, timeout_ms: float = 100) -> None:
        """Send a message that needs no answer (the end of the match); failures are ignored."""
        if self.alive:
            self._pump(
                self._encode(message),
                want_line=False,
                deadline=time.monotonic() + timeout_ms / 1000,
            )

    def kill(self) -> None:
        """Kill the whole sandbox now and reap it."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        forced = proc.poll() is None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a D-state process: leave it
            proc.wait(timeout=5)
        if proc.returncode is not None:
            self.exit_codes.append(proc.returncode)
        self._drain_stderr_now()
        # Without a PID namespace, children that called setsid() escape the process group; with
        # one, a killed jail's processes die asynchronously. Either way, sweep the slot uid so
        # the next bot to lease it starts with its whole process allowance.
        if self._lease is not None and (forced or self.mode is Mode.RLIMITS_SECCOMP):
            kill_all_processes_of(self._lease.user.uid, self._lease.user.gid)
        self._close_pipes(proc)

    def end_input(self) -> None:
        """Close the bot's stdin (catbot then exits on its own); lets several bots wind down at once."""
        if self._proc is not None and self._pipes is not None and self._proc.stdin is not None:
            with contextlib.suppress(OSError):
                self._proc.stdin.close()
            self._pipes.open.discard(self._pipes.stdin)

    def close(self, *, grace_ms: float = 200) -> None:
        """End the match for this bot: let it exit on its own briefly, then kill, then clean up."""
        self.end_input()
        if self._proc is not None:
            deadline = time.monotonic() + grace_ms / 1000
            while self._proc.poll() is None and time.monotonic() < deadline:
                self._pump(
                    b"",
                    want_line=False,
                    deadline=min(deadline, time.monotonic() + 0.01),
                    drain_until_deadline=True,
                )
        self.kill()
        if self._lease is not None:
            self._lease.release()
            self._lease = None
        if self._stage is not None:
            shutil.rmtree(self._stage, ignore_errors=True)
            self._stage = None

    def __enter__(self) -> BotProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(grace_ms=0)

    @property
    def stderr(self) -> str:
        """What the bot wrote to stderr (for its owner only), at most ``limits.stderr_bytes``:
        its start and its end (a traceback comes last), with a line saying how much of the
        middle was left out."""
        whole = not self._stderr_dropped  # then one text: no character cut in two at the seam
        parts = [self._stderr + self._stderr_tail] if whole else [self._stderr, self._stderr_tail]
        text = (part.decode("utf-8", errors="replace") for part in parts)
        return _LEFT_OUT.format(self._stderr_dropped).join(text)

    # -- internals ------------------------------------------------------------------------

    def _prepare(self) -> None:
        if self.mode.needs_slot_user and self._lease is None:
            self._lease = SlotLease.acquire()
        if self._stage is not None:
            return
        stage = Path(
            tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=_stage_parent(self._lease))
        )
        (stage / "bot.py").write_bytes(self._source_bytes)
        shutil.copyfile(BOTKIT_DIR / "catbot.py", stage / "catbot.py")
        if not self.mode.jailed:
            (stage / "tmp").mkdir(mode=0o700)  # scratch space (bwrap gives a tmpfs instead)
        if self._lease is not None:
            # Readable by this bot's uid only: other bots (other uids) cannot read its source.
            user = self._lease.user
            for path, mode in (
                (stage / "bot.py", 0o640),
                (stage / "catbot.py", 0o640),
                (stage, 0o750),
            ):
                os.chown(path, 0, user.gid)
                os.chmod(path, mode)
            if not self.mode.jailed:
                os.chown(stage / "tmp", user.uid, user.gid)
        self._stage = stage

    def _encode(self, message: dict[str, Any]) -> bytes:
        return json.dumps(message, separators=(",", ":")).encode() + b"\n"

    def _pump(
        self,
        outgoing: bytes,
        *,
        want_line: bool,
        deadline: float,
        drain_until_deadline: bool = False,
        clock: MoveClock | None = None,
    ) -> Reply:
        """Write ``outgoing`` and/or wait for one line, serving stderr all along, until ``deadline``
        (or until ``clock`` says the bot's CPU time is spent)."""
        pipes = self._pipes
        if pipes is None:
            return Reply(Status.CRASH, reason="not running")
        pending = memoryview(outgoing)
        poller = select.poll()
        while True:
            if want_line:
                line_reply = self._take_line()
                if line_reply is not None and not pending:
                    return line_reply
            elif not pending and not drain_until_deadline:
                return Reply(Status.OK)
            now = time.monotonic()
            if clock is not None and (overrun := clock.cpu_overrun(now=now)):
                return Reply(Status.TIMEOUT, reason=overrun)
            remaining = (clock.wake_by() if clock is not None else deadline) - now
            if now >= deadline:
                if want_line and not pending and (answer := self._answer_already_sent()):
                    return answer
                if clock is not None:
                    return Reply(Status.TIMEOUT, reason=clock.deadline_reason())
                what = "answer" if want_line else "read its input"
                return Reply(Status.TIMEOUT, reason=f"did not {what} within the time limit")
            for fd in (pipes.stdin, pipes.stdout, pipes.stderr):
                with contextlib.suppress(KeyError):
                    poller.unregister(fd)
            if pending and pipes.stdin in pipes.open:
                poller.register(pipes.stdin, select.POLLOUT)
            if pipes.stdout in pipes.open:
                poller.register(pipes.stdout, select.POLLIN)
            if pipes.stderr in pipes.open:
                poller.register(pipes.stderr, select.POLLIN)
            events = poller.poll(max(1, int(remaining * 1000) + 1) if remaining > 0 else 0)
            for fd, event in events:
                if fd == pipes.stdin:
                    try:
                        written = os.write(fd, pending)
                    except BlockingIOError:
                        continue
                    except (BrokenPipeError, OSError):
                        return Reply(Status.CRASH, reason="stopped reading its input")
                    pending = pending[written:]
                elif fd == pipes.stdout:
                    chunk = self._read(fd)
                    if chunk is None:
                        continue
                    if chunk == b"":
                        pipes.open.discard(fd)
                        if want_line and self._take_line() is None:
                            return Reply(Status.CRASH, reason="closed its output")
                    else:
                        self._stdout += chunk
                elif fd == pipes.stderr:
                    chunk = self._read(fd)
                    if chunk == b"":
                        pipes.open.discard(fd)
                    elif chunk:
                        self._append_stderr(chunk)
                if event & select.POLLNVAL:
                    pipes.open.discard(fd)
            if pending and pipes.stdin not in pipes.open:
                return Reply(Status.CRASH, reason="stopped reading its input")
            if not pipes.open - {pipes.stdin} and drain_until_deadline:
                return Reply(Status.OK)

    def _answer_already_sent(self) -> Reply | None:
        """An answer waiting in the pipe at the deadline: the worker, not the bot, was late to
        read it (a stalled worker), so it counts as in time."""
        pipes = self._pipes
        if pipes is None or pipes.stdout not in pipes.open:
            return None
        for _ in range(self.limits.max_line_bytes // _READ_CHUNK + 2):  # a flood cannot hold us
            chunk = self._read(pipes.stdout)
            if not chunk:
                break
            self._stdout += chunk
        return self._take_line()

    def _take_line(self) -> Reply | None:
        """The next complete answer in the stdout buffer, or None if there is none yet."""
        limit = self.limits.max_line_bytes
        while True:
            newline = self._stdout.find(b"\n", 0, limit + 1)
            if newline < 0:
                if len(self._stdout) > limit:
                    return Reply(Status.OUTPUT_LIMIT, reason=f"an answer line over {limit} bytes")
                return None
            line = bytes(self._stdout[:newline])
            del self._stdout[: newline + 1]
            if not line.strip():
                continue  # blank lines are harmless
            try:
                message = json.loads(line)
            except (ValueError, UnicodeDecodeError):
                return Reply(Status.INVALID, reason=f"not JSON: {line[:80]!r}")
            if not isinstance(message, dict):
                return Reply(Status.INVALID, reason=f"not a JSON object: {line[:80]!r}")
            if "id" in message and message["id"] != self._request_id:
                continue  # a late answer to an earlier request
            return Reply(Status.OK, message)

    def _read(self, fd: int) -> bytes | None:
        try:
            return os.read(fd, _READ_CHUNK)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def _append_stderr(self, chunk: bytes) -> None:
        # Half the allowance keeps the start, half the latest bytes (a traceback comes last).
        room = max(self.limits.stderr_bytes // 2 - len(self._stderr), 0)
        self._stderr += chunk[:room]
        tail = self._stderr_tail + chunk[room:]
        cut = max(len(tail) - (self.limits.stderr_bytes - self.limits.stderr_bytes // 2), 0)
        self._stderr_dropped += cut
        self._stderr_tail = tail[cut:]

    def _drain_stderr_now(self) -> None:
        if self._pipes is None or self._pipes.stderr not in self._pipes.open:
            return
        # Only what is already there: a surviving grandchild could hold the pipe open forever.
        for _ in range(64):
            chunk = self._read(self._pipes.stderr)
            if not chunk:
                break
            self._append_stderr(chunk)

    def _close_pipes(self, proc: subprocess.Popen[bytes]) -> None:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._pipes = None

    def _death_reason(self) -> str:
        if not self.exit_codes:
            return ""
        code = self.exit_codes[-1]
        if code < 0:
            return f"killed by signal {-code}"
        if code > 128:  # bwrap reports a signal as 128 + N
            return f"exited with code {code} (signal {code - 128}?)"
        return f"exited with code {code}"


def _stage_parent(lease: SlotLease | None) -> str | None:
    """Where bot files are staged: for jailed bots, a root directory others may cross but not
    list (mode 0711), so a stage left by a killed worker cannot be found by a later bot."""
    if lease is None:
        return None
    parent = os.path.join(LOCK_DIR, "stage")
    os.makedirs(parent, mode=0o711, exist_ok=True)
    for path in (LOCK_DIR, parent):
        os.chmod(path, 0o711)
    return parent
