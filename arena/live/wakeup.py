"""How the two sides of a live table wake each other instead of polling the database.

The live worker waits for a person's answer; the person's page waits (a long-polled request,
:func:`arena.live.views.table_state`) for the worker's next position. Each waits on a key
(``answer-<live seat id>``, ``board-<live seat id>``), and whoever writes what the other waits
for rings that key once the write is committed (:func:`ring_on_commit`). The database stays
the one truth: a wake-up only says "look now", and a waiter that hears nothing looks anyway
every ``SAFETY_S`` (a wake-up lost to a restarted process costs that much, never a move).

Two ways to ring, chosen by ``ARENA_LIVE_WAKE`` (default: ``redis`` when the broker is Redis,
else ``fifo``):

- ``redis``: a pub/sub channel per key on the broker's Redis, so web and worker may run on
  different machines.
- ``fifo``: the embedded default (``bin/serve`` with no Redis), where web and worker share one
  machine and ``var/``: each waiter makes a named pipe ``var/live/<key>.<random>.fifo`` and
  sleeps in ``select`` on it; ringing writes a byte into every pipe of the key. No server,
  no polling, nothing left behind by a waiter that ends (and a dead waiter's pipe is removed
  by the next ring).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import select
import time
import uuid
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

# A waiter that hears nothing looks at the database this often anyway.
SAFETY_S = 2.0

Wait = Callable[[float], bool]  # wait up to that many seconds; True when rung


def ring(key: str) -> None:
    """Wake every waiter of ``key`` now (a waiter that is not waiting yet misses nothing: it
    looks at the database after it starts listening)."""
    try:
        if settings.ARENA_LIVE_WAKE == "redis":
            _redis().publish(_channel(key), b"1")
        else:
            _ring_fifos(key)
    except (redis.RedisError, OSError) as exc:
        # What was written stands; its waiter sees it within SAFETY_S.
        logger.warning("live table: could not ring %s (%s)", key, exc)


def ring_on_commit(key: str) -> None:
    """Ring ``key`` once the current transaction commits (at once outside one), so the waiter
    that wakes reads what was written."""
    transaction.on_commit(lambda: ring(key))


@contextlib.contextmanager
def listening(key: str) -> Iterator[Wait]:
    """Listen for ``key`` from now on: check the database inside the block, then wait."""
    listen = _redis_listening if settings.ARENA_LIVE_WAKE == "redis" else _fifo_listening
    try:
        context = listen(key)
        wait = context.__enter__()
    except (redis.RedisError, OSError) as exc:
        logger.warning(
            "live table: cannot listen for %s (%s); looking every %ss", key, exc, SAFETY_S
        )
        yield _sleep
        return
    try:
        yield wait
    finally:
        context.__exit__(None, None, None)


def _sleep(timeout_s: float) -> bool:
    time.sleep(max(0.0, timeout_s))
    return False


# --- Redis ----------------------------------------------------------------------------------


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=3)


def _channel(key: str) -> str:
    # Pub/sub channels span every database of a Redis server: the site's own Redis database
    # and its SQL database keep two sites (or test runs) sharing one server apart.
    index = _redis().connection_pool.connection_kwargs.get("db", 0)
    return f"catleague:{index}:{settings.DATABASES['default']['NAME']}:live:{key}"


@contextlib.contextmanager
def _redis_listening(key: str) -> Iterator[Wait]:
    pubsub = _redis().pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
    pubsub.subscribe(_channel(key))
    # The subscription is confirmed before the caller looks at the database, so a ring sent
    # between that look and the wait is not lost.
    pubsub.get_message(timeout=1.0)

    def wait(timeout_s: float) -> bool:
        heard = pubsub.get_message(timeout=max(0.0, timeout_s)) is not None
        while pubsub.get_message(timeout=0.0) is not None:
            pass  # several rings while busy need one look
        return heard

    try:
        yield wait
    finally:
        pubsub.close()


# --- named pipes in var/live/ ---------------------------------------------------------------


def _fifo_dir() -> Path:
    folder = Path(settings.VAR_DIR) / "live"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextlib.contextmanager
def _fifo_listening(key: str) -> Iterator[Wait]:
    folder = _fifo_dir()
    name = f"{key}.{uuid.uuid4().hex}.fifo"
    making = folder / f".{name}"
    os.mkfifo(making, 0o600)
    # Read and write: a pipe that keeps a writer (this one) never reads as closed, so select
    # sleeps until a ring's byte arrives instead of waking on every end of file.
    fd = os.open(making, os.O_RDWR | os.O_NONBLOCK)
    # Renamed only once open, so a ringer that cannot open a pipe of the key knows its waiter
    # is gone and may remove it.
    os.rename(making, folder / name)

    def wait(timeout_s: float) -> bool:
        readable, _, _ = select.select([fd], [], [], max(0.0, timeout_s))
        if not readable:
            return False
        with contextlib.suppress(BlockingIOError):
            os.read(fd, 4096)
        return True

    try:
        yield wait
    finally:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            (folder / name).unlink()


def _ring_fifos(key: str) -> None:
    for path in _fifo_dir().glob(f"{key}.*.fifo"):
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # no reader: its waiter died without cleaning up
                with contextlib.suppress(FileNotFoundError):
                    path.unlink()
                continue
            raise
        try:
            os.write(fd, b"1")
        except BlockingIOError:
            pass  # the pipe is full of rings already: the waiter wakes anyway
        finally:
            os.close(fd)
