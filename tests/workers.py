"""A real Celery worker for integration tests: on the test database and Redis, consuming one
queue of its own, in a process group of its own so a test can kill it outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import redis
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app

# The project's Celery worker, run by this virtualenv's Python (options follow).
CELERY_WORKER = (sys.executable, "-m", "celery", "-A", "config", "worker")

ROOT = Path(__file__).resolve().parents[1]


def worker_database_url() -> str:
    """The database the test is using, as a URL a worker process can open."""
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def require_real_services() -> None:
    if connection.vendor != "postgresql" or not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.fail("integration tests need PostgreSQL and Redis: run them through bin/test")


@contextmanager
def own_queue(prefix: str = "test") -> Iterator[str]:
    """A queue name nobody else uses, made this process's default; tasks really go to the
    broker (not eager) until the block ends, and the queue is deleted afterwards."""
    require_real_services()
    name = f"{prefix}-{uuid.uuid4().hex[:8]}"
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_default_queue)
    celery_app.conf.task_always_eager = False
    celery_app.conf.task_default_queue = name
    try:
        yield name
    finally:
        redis.Redis.from_url(settings.CELERY_BROKER_URL).delete(name)
        celery_app.conf.task_always_eager, celery_app.conf.task_default_queue = previous


class Worker:
    """``celery worker`` on ``queue``: prefork (or ``threads``), optionally with beat."""

    def __init__(
        self,
        queue: str,
        *,
        threads: bool = False,
        concurrency: int = 2,
        beat_dir: Path | None = None,
        env: dict[str, str] | None = None,
        keep_env: bool = True,
    ) -> None:
        self.env = {
            **(os.environ if keep_env else {}),
            **(env or {}),
            # Last: whatever else it is given, it works on this test's database and queue.
            "DATABASE_URL": worker_database_url(),
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_TASK_DEFAULT_QUEUE": queue,
        }
        pool = ["--pool", "threads"] if threads else []
        beat = (
            ["--beat", "--schedule", str(beat_dir / f"beat-{uuid.uuid4().hex}")]
            if beat_dir is not None
            else []
        )
        self.command = [
            *CELERY_WORKER,
            *pool,
            *beat,
            "-Q",
            queue,
            "-c",
            str(concurrency),
            "--without-heartbeat",
            "--without-mingle",
            "--without-gossip",
            "-l",
            "warning",
        ]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        self.process = subprocess.Popen(
            self.command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,  # never a pipe nobody reads: a full one stalls the worker
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        return self

    def kill(self) -> None:
        """SIGKILL the worker and its pool, mid-match: nothing is acknowledged or cleaned up."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self, *, grace_s: float = 20) -> None:
        """A warm shutdown (it finishes what it runs), killed after ``grace_s``."""
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            self.kill()
