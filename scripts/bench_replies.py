#!/usr/bin/env python
"""How long a person waits for the bots' replies at a live table, less the bots' thinking.

Plays ``--games`` live Cat Lady games (a person and two instant ``random`` house bots) in a
live worker (`celery worker -Q <own queue> --pool threads`, as bin/serve runs it),
``--parallel`` at a time. The person is a page emulated through the web views, in this
process with Django's test client: it sends its move the moment it is asked and then reads
the table's state exactly as that tree's static/js/play.js does (a tree whose state carries a
``version`` is long-polled with ``since=``; an older one is polled after 150 ms and then
every 600 ms). The overhead of one move is from sending it to reading the next question; the
bots' own thinking (``random``: microseconds) is left in. Moves that end the game are not
counted. Prints the median and p95 of the overhead, the moves counted and the machine; asserts
nothing. ARENA_LIVE_PACE_MS is each tree's own default unless set.

    nice -n 10 .venv/bin/python scripts/bench_replies.py --baseline cc3e81c --parallel 2
    nice -n 10 .venv/bin/python scripts/bench_replies.py --broker embedded --baseline cc3e81c

Each game in play adds its worker thread and its page to the load: ``--parallel 1`` is one
person's wait on an otherwise idle site, more shows a busier one.

``--broker redis`` (default): PostgreSQL (DATABASE_URL, default postgres://postgres@
127.0.0.1:5432/catleague_bench_replies, DROPPED and re-created here, so its name must contain
"bench"; a baseline gets its own) and Redis (CELERY_BROKER_URL, default
redis://127.0.0.1:6379/15; the run removes what its queue and worker left there:
benchlib.clean_redis). ``--broker embedded``: what bin/serve runs with nothing configured,
SQLite and the filesystem broker in a temporary var/ folder, removed at the end.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/catleague_bench_replies"
# The test client asks for "testserver".
ALLOWED_HOSTS = {"DJANGO_ALLOWED_HOSTS": "testserver,localhost"}
# Old pages (before the long poll): the first look after a move, then one every so often.
OLD_FIRST_LOOK_S = 0.15
OLD_POLL_S = 0.6


class Page:
    """One person's table page: moves as soon as asked, reads the state as play.js does."""

    def __init__(self, match_id: int, user: Any) -> None:
        from django.test import Client

        self.client = Client()
        self.client.force_login(user)
        self.state_url = f"/arena/play/{match_id}/state/"
        self.move_url = f"/arena/play/{match_id}/move/"
        self.overheads: list[float] = []

    def _state(self, since: str | None) -> dict[str, Any]:
        response = self.client.get(self.state_url, {"since": since} if since else {})
        assert response.status_code == 200, response.status_code
        return dict(response.json())

    def _next(self, state: dict[str, Any]) -> dict[str, Any]:
        """The next state the page would read after ``state``."""
        if "version" in state:
            return self._state(state["version"])
        time.sleep(OLD_POLL_S)
        return self._state(None)

    def play(self) -> None:
        state = self._state(None)
        while state["status"] not in ("finished", "failed"):
            if state["asked_step"] is None:
                state = self._next(state)
                continue
            step = state["asked_step"]
            sent = time.monotonic()
            answer = self.client.post(
                self.move_url, {"step": step, "index": 0}, content_type="application/json"
            )
            if answer.status_code != 200:
                state = self._state(None)
                continue
            if "version" not in state:
                time.sleep(OLD_FIRST_LOOK_S)
                state = self._state(None)
            else:
                state = self._next(state)
            while state["status"] not in ("finished", "failed") and (
                state["asked_step"] is None or state["asked_step"] == step
            ):
                state = self._next(state)
            if state["status"] not in ("finished", "failed"):
                self.overheads.append(time.monotonic() - sent)


def _play(games: int, parallel: int, queue: str) -> dict[str, Any]:
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection

    from arena.common import SeatInput
    from arena.live.services import live_create
    from arena.models import Match

    User = get_user_model()
    overheads: list[float] = []
    failed = 0
    lock = threading.Lock()
    todo = list(range(games))

    def person() -> None:
        nonlocal failed
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    index = todo.pop()
                user = User.objects.create_user(f"person-{index}", password=None)
                match = live_create(
                    user=user,
                    game="cat-lady",
                    seed=index,
                    seats=[None, SeatInput(builtin="random"), SeatInput(builtin="random")],
                )
                page = Page(match.pk, user)
                page.play()
                with lock:
                    overheads.extend(page.overheads)
                    failed += Match.objects.get(pk=match.pk).status != "finished"
        finally:
            connection.close()

    with benchlib.celery_worker(queue, parallel, threads=True):
        time.sleep(3)  # the worker starts and imports Django and the engine
        started = time.monotonic()
        people = [threading.Thread(target=person) for _ in range(parallel)]
        for thread in people:
            thread.start()
        for thread in people:
            thread.join()
        took = time.monotonic() - started
    ordered = sorted(overheads)
    return {
        "games": games,
        "not_finished": failed,
        "moves": len(ordered),
        "overhead_ms_median": 1000 * statistics.median(ordered) if ordered else 0.0,
        "overhead_ms_p95": 1000 * ordered[int(0.95 * (len(ordered) - 1))] if ordered else 0.0,
        "seconds": took,
        "pace_ms": settings.ARENA_LIVE_PACE_MS,
        "wake": getattr(settings, "ARENA_LIVE_WAKE", "none (database polls)"),
    }


def kind(key: str) -> str:
    return "time" if key.startswith("overhead_ms") or key == "seconds" else "count"


def database_url(tree: str | None) -> str:
    return benchlib.scratch_database_url("DATABASE_URL", DEFAULT_DATABASE, tree, fall_back=True)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    if args.broker == "embedded":
        var = tempfile.mkdtemp(prefix="catleague-bench-replies-")
        os.environ["CATLEAGUE_VAR_DIR"] = var
        try:
            queue = f"bench-replies-{uuid.uuid4().hex[:8]}"
            benchdjango.setup_django(
                benchdjango.celery_environment(None, None)
                | {"ARENA_LIVE_QUEUE": queue}
                | ALLOWED_HOSTS
            )
            return _migrate_and_play(args, queue)
        finally:
            shutil.rmtree(var, ignore_errors=True)
    with benchdjango.celery_run(
        database_url(args.tree),
        queue_prefix="bench-replies",
        queue_variable="ARENA_LIVE_QUEUE",
        environment=ALLOWED_HOSTS,
        keep=args.keep_db,
    ) as queue:
        return _migrate_and_play(args, queue)


def _migrate_and_play(args: argparse.Namespace, queue: str) -> dict[str, Any]:
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return _play(args.games, args.parallel, queue)


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    print(f"machine: {benchlib.machine()}")
    print(
        f"{figures['games']} live Cat Lady games ({args.broker}), a person + 2 random bots, "
        f"{args.parallel} at a time, wake-up: {figures['wake']}, pace {figures['pace_ms']} ms"
    )
    print(
        f"overhead from a move to the next question: median "
        f"{figures['overhead_ms_median']:.0f} ms, p95 {figures['overhead_ms_p95']:.0f} ms "
        f"over {figures['moves']} moves; {figures['not_finished']} games not finished; "
        f"{figures['seconds']:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument(
        "--parallel", type=int, default=1, help="games played at once (1: one person's wait)"
    )
    parser.add_argument("--broker", choices=["redis", "embedded"], default="redis")
    benchlib.add_keep_db_argument(parser)
    benchlib.add_baseline_arguments(parser, default_rounds=1)
    args = parser.parse_args()
    database = None if args.broker == "embedded" else database_url
    benchlib.run(__file__, args, measure, report, kind, in_tree=True, database=database)


if __name__ == "__main__":
    main()
