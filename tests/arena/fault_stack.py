"""A private arena stack for fault tests: its own PostgreSQL cluster and Redis server on spare
ports (never the shared ones), and a Celery worker with beat that can be killed and restarted.

PostgreSQL refuses to run as root, so when the tests run as root the cluster runs as the
``postgres`` system user (Debian's package creates it).
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import psycopg

from tests.workers import CELERY_WORKER

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found[-1]


class PrivatePostgres:
    """A throw-away PostgreSQL cluster in ``directory``, trust authentication, fsync off."""

    def __init__(self, directory: Path) -> None:
        self.data = directory / "pgdata"
        self.port = free_port()
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/catleague"
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            self._as = [
                "setpriv",
                f"--reuid={user.pw_uid}",
                f"--regid={user.pw_gid}",
                "--clear-groups",
                "--",
            ]
            directory.chmod(0o755)
            self.data.mkdir()
            os.chown(self.data, user.pw_uid, user.pw_gid)
        self._run(
            _pg_bin("initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self.start()
        with psycopg.connect(self.dsn("postgres"), autocommit=True) as conn:
            conn.execute("CREATE DATABASE catleague")

    def dsn(self, database: str = "catleague") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *argv: str) -> None:
        subprocess.run([*self._as, *argv], check=True, capture_output=True, cwd="/tmp", timeout=120)

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.data} -c fsync=off "
            "-c full_page_writes=off -c max_connections=60"
        )
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "-l",
            str(self.data / "server.log"),
            "start",
        )

    def stop(self) -> None:
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def close(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()


class PrivateRedis:
    """A Redis server that keeps nothing on disk: a restart starts it empty."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._process: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        self._process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                "/tmp",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("the private Redis did not start")

    def stop(self) -> None:
        if self._process is not None:
            self._process.kill()  # as a crash or a restart would: nothing is saved
            self._process.wait()
            self._process = None

    close = stop


class Worker:
    """``celery worker --beat`` against the private stack, in its own process group."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env = env
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [
                    *CELERY_WORKER,
                    "--beat",
                    "-c",
                    "2",
                    "--without-mingle",
                    "--without-gossip",
                    "-l",
                    "info",
                    "--schedule",
                    str(self.log.parent / "beat-schedule"),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def pids(self) -> list[int]:
        """The worker's main process and its pool children."""
        assert self.process is not None
        found = subprocess.run(
            ["pgrep", "-g", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split()
        return [int(pid) for pid in found]

    def kill(self) -> list[int]:
        """SIGKILL the whole worker (pool children mid-match included); returns their pids."""
        assert self.process is not None
        pids = self.pids()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        return pids

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        text=True,
        capture_output=True,
        timeout=300,
    )
    if done.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{done.stderr[-3000:]}")
    return done.stdout


def which_or_fail(*tools: str) -> list[str]:
    return [tool for tool in tools if shutil.which(tool) is None]
