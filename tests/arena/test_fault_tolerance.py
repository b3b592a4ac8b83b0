"""The arena under faults, on a private stack (tests/arena/fault_stack.py): the worker killed
mid-match, Redis stopped and restarted empty, PostgreSQL stopped for a few seconds, while
ladders play. Afterwards every match has finished exactly once, every rating chain is whole
and every ladder kept moving. Prints the figures the README's Reliability section quotes."""

from __future__ import annotations

import os
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from arena.sandbox.process import STAGE_PREFIX
from arena.sandbox.slots import LOCK_DIR
from tests.arena.fault_stack import (
    ROOT,
    PrivatePostgres,
    PrivateRedis,
    Worker,
    manage,
    which_or_fail,
)

pytestmark = pytest.mark.integration

STARTER_BOT = ROOT / "arena" / "botkit" / "starter_bot.py"
BOTS = 4
OUTAGE_S = 6

# Slow enough (about 20 ms a move) that faults strike while matches are running and queued.
SLOW_BOT = STARTER_BOT.read_text().replace(
    "def choose(observation, legal_actions):",
    "def choose(observation, legal_actions):\n    __import__('time').sleep(0.02)",
)
_SETUP = f"""
from django.contrib.auth import get_user_model
from arena.submissions.services import bot_create
owner = get_user_model().objects.create_user("faulty", password="unused-password-1")
for n in range({BOTS}):
    bot_create(owner=owner, name=f"sturdy-{{n}}", source={SLOW_BOT!r})
"""


class Stack:
    def __init__(self, directory: Path) -> None:
        self.pg = PrivatePostgres(directory)
        self.redis = PrivateRedis()
        keep = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DATABASE_URL", "CELERY_", "CACHE_URL", "ARENA_"))
        }
        self.env = {
            **keep,
            "DATABASE_URL": self.pg.url,
            "CELERY_BROKER_URL": self.redis.url,
            "CELERY_RESULT_BACKEND": self.redis.url,
            "CELERY_VISIBILITY_TIMEOUT": "10",
            "ARENA_LADDER_TICK_S": "1",
            "ARENA_REAP_EVERY_S": "2",
            "ARENA_MATCH_DEADLINE_S": "20",
            "ARENA_QUEUED_DEADLINE_S": "8",
            "ARENA_INFRA_RETRY_S": "3",
        }
        self.worker = Worker(self.env, directory / "worker.log")

    def query(self, sql: str, *params: object) -> list[tuple]:
        with psycopg.connect(self.pg.dsn(), connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()

    def finished_ladder_matches(self) -> int:
        return self.query(
            "SELECT count(*) FROM arena_match WHERE kind = 'ladder' AND status = 'finished'"
        )[0][0]

    def wait_for_more_matches(self, what: str, more: int = 6, timeout: float = 120) -> float:
        """Seconds until ``more`` further ladder matches finished."""
        start = self.finished_ladder_matches()
        begun = time.monotonic()
        while time.monotonic() - begun < timeout:
            try:
                if self.finished_ladder_matches() >= start + more:
                    return time.monotonic() - begun
            except psycopg.OperationalError:
                pass
            time.sleep(0.5)
        pytest.fail(f"the ladders stopped moving {what}:\n{self.worker.log.read_text()[-4000:]}")

    def close(self) -> None:
        self.worker.stop()
        self.redis.close()
        self.pg.close()


@pytest.fixture
def stack() -> Iterator[Stack]:
    missing = which_or_fail("redis-server", "pgrep", "setpriv")
    assert not missing, f"the fault tests need {', '.join(missing)}"
    with tempfile.TemporaryDirectory(prefix="catleague-faults-") as directory:
        stack = Stack(Path(directory))
        try:
            manage(stack.env, "migrate", "--noinput", "-v", "0")
            manage({**stack.env, "CELERY_TASK_ALWAYS_EAGER": "1"}, "shell", "-c", _SETUP)
            yield stack
        finally:
            stack.close()


def _stages_of(pids: list[int]) -> list[str]:
    names = {f"{STAGE_PREFIX}{pid}-" for pid in pids}
    found = []
    for parent in (os.path.join(LOCK_DIR, "stage"), tempfile.gettempdir()):
        if os.path.isdir(parent):
            found += [e for e in os.listdir(parent) if any(e.startswith(n) for n in names)]
    return found


def _one_path(steps: list[tuple[float, float]], *, start: float, end: float) -> bool:
    """Whether the (before, after) steps chain into one path from ``start`` to ``end`` using
    each step once (an Euler path: ratings may come back to a value they had before). A
    match rated twice, or rated from a stale rating, leaves a value with two ways out."""
    balance = Counter[float]()
    for before, after in steps:
        balance[before] += 1
        balance[after] -= 1
    balance[start] -= 1
    balance[end] += 1
    if any(balance.values()):
        return False
    reached, frontier = {start}, [start]
    while frontier:
        value = frontier.pop()
        for before, after in steps:
            if before == value and after not in reached:
                reached.add(after)
                frontier.append(after)
    return all(before in reached for before, _ in steps)


def test_matches_finish_exactly_once_and_ladders_keep_moving_through_faults(stack: Stack):
    active = stack.query("SELECT count(*) FROM arena_botversion WHERE status = 'active'")[0][0]
    assert active == BOTS, "the bots were not validated in the sandbox"
    figures: dict[str, float] = {}
    stack.worker.start()
    stack.wait_for_more_matches("at the start", timeout=180)

    # 1. kill -9 the worker and its pool mid-match, and start a new one.
    killed: list[int] = []
    for _ in range(3):
        time.sleep(1.5)
        killed += stack.worker.kill()
        stack.worker.start()
    figures["after 3 worker kills"] = stack.wait_for_more_matches("after the worker kills")

    # 2. Redis stops, and comes back empty: every queued message is lost.
    stack.redis.stop()
    time.sleep(OUTAGE_S)
    stack.redis.start()
    figures["after Redis restarted empty"] = stack.wait_for_more_matches("after Redis restarted")

    # 3. PostgreSQL stops for a few seconds with matches queued and running.
    stack.pg.stop()
    time.sleep(OUTAGE_S)
    stack.pg.start()
    figures["after PostgreSQL came back"] = stack.wait_for_more_matches(
        "after PostgreSQL restarted"
    )

    # No new matches: everything already queued or running must settle by itself.
    stack.query("UPDATE arena_ladder SET active = false RETURNING id")
    deadline = time.monotonic() + 180
    while (
        stack.query("SELECT count(*) FROM arena_match WHERE status IN ('queued', 'running')")[0][0]
        and time.monotonic() < deadline
    ):
        time.sleep(1)
    statuses = dict(stack.query("SELECT status, count(*) FROM arena_match GROUP BY status"))
    replayed, resent = stack.query(
        "SELECT count(*) FILTER (WHERE attempts > 1), "
        "count(*) FILTER (WHERE dispatch > 1) FROM arena_match"
    )[0]
    print(
        f"\nfault suite: {statuses}, played again after a lost worker: {replayed}, "
        f"resent by the reaper: {resent}, worker processes killed: {len(killed)}, "
        f"outages: Redis {OUTAGE_S} s, PostgreSQL {OUTAGE_S} s; seconds until 6 more "
        f"ladder matches finished: " + ", ".join(f"{k}: {v:.1f}" for k, v in figures.items())
    )
    assert set(statuses) == {"finished"}, f"matches not finished: {statuses}"

    # Each rated seat applied exactly once: every entry's ratings form one chain from the
    # initial rating through each of its matches once, ending at its current rating.
    entries = stack.query("SELECT ladder_id, version_id, rating, games FROM arena_ladderentry")
    assert entries
    for ladder, version, rating, games in entries:
        steps = stack.query(
            "SELECT s.rating_before, s.rating_after FROM arena_matchseat s "
            "JOIN arena_match m ON m.id = s.match_id WHERE m.ladder_id = %s AND "
            "s.version_id = %s AND m.status = 'finished'",
            ladder,
            version,
        )
        assert len(steps) == games
        assert _one_path(steps, start=1500.0, end=rating), "the rating chain is broken"

    # Bot files of the killed workers were swept when the new worker started.
    assert _stages_of(killed) == []
