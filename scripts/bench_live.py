#!/usr/bin/env python
"""How many live games (a person against bots) one live-worker process holds, and the memory.

A live worker (`celery worker -Q live --pool threads -c N`, as bin/serve and docker compose
run it) holds one live match per thread while the people think. This starts one such worker,
opens N live Cat Lady matches (one person against a sandboxed uploaded bot and a house bot,
so each match also keeps a jailed bot process), and answers for the people from here
through the database, as their pages would, with a think time per move. While all N games
are in progress it samples the memory (RSS, proportional set size where available) of the
worker process and of the sandboxed bot processes, and at the end reports games finished,
the wait from an answer to the next question, and the memory per game. Prints figures;
asserts nothing.

    .venv/bin/python scripts/bench_live.py [--games 1,8,32] [--think-ms 500]

DATABASE_URL names a scratch database (default postgres://postgres@127.0.0.1:5432/
catleague_bench_live), DROPPED and re-created here, so its name must contain "bench", and
dropped at the end, also after an error or Ctrl-C, unless --keep-db. CELERY_BROKER_URL
defaults to redis://127.0.0.1:6379/15; the benchmark uses a queue of its own and a worker
named after it, and at the end, however it ends, removes from that Redis database what they
left there (the queue, kombu's `_kombu.binding*` entries for it and for the worker's pidbox,
messages a stopped worker left unacknowledged: benchlib.clean_redis), and nothing else: no
other key, no other database, never FLUSHDB or FLUSHALL. Run it as root with bubblewrap so
the bots use the real sandbox.

    .venv/bin/python scripts/bench_live.py --baseline 82beeb7 --rounds 3
    .venv/bin/python scripts/bench_live.py --games 1,2 --think-ms 50 --baseline 82beeb7 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `arena`, `config`, `engine`..., and starting that tree's live worker;
scripts/benchlib.py), then prints the medians of every figure and the machine. Only the waits
(an answer to the next question) are speed and get a ratio; memory and games are counts. The
baseline uses a database of its own: the DATABASE_URL name with `_base_` and the baseline
commit appended, and a queue of its own. Every run builds its database afresh; the comparison
drops both databases when it ends, however it ends, unless --keep-db. The baseline can be no
older than 82beeb7, where live matches (`arena.live`) begin: 6375dd5, main when the engine
work began, has none.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/catleague_bench_live"
UPLOADED_BOT = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"


def _uploaded_version():
    import hashlib

    from django.contrib.auth import get_user_model

    from arena.models import Bot, BotVersion

    owner = get_user_model().objects.create_user("bench-owner", password=None)
    bot = Bot.objects.create(owner=owner, name="last-legal")
    version = BotVersion.objects.create(
        bot=bot,
        number=1,
        source=UPLOADED_BOT,
        size=len(UPLOADED_BOT),
        author=owner,
        sha256=hashlib.sha256(UPLOADED_BOT.encode()).hexdigest(),
        status=BotVersion.Status.ACTIVE,
    )
    return version


def _rss_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in KiB of one process; PSS counts shared pages once across processes."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return int(handle.read().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def _bot_pids(worker: int) -> list[int]:
    """The jailed bots (and their bubblewrap launchers) started by ``worker``, not by others."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if b"/bot/catbot.py" not in handle.read():
                    continue
        except OSError:
            continue
        ancestor = int(entry)
        while ancestor > 1 and ancestor != worker:
            ancestor = _parent(ancestor)
        if ancestor == worker:
            found.append(int(entry))
    return found


class People:
    """Answers every live seat's question after ``think_s``, as the people's pages would."""

    def __init__(self, think_s: float) -> None:
        self.think_s = think_s
        self.waits: list[float] = []  # from an answer to the next question at the same seat
        self.stop = threading.Event()
        self._answered: dict[int, float] = {}

    def run(self) -> None:
        from django.db import connection

        from arena.models import LiveSeat

        asked_since: dict[tuple[int, int], float] = {}
        while not self.stop.is_set():
            now = time.monotonic()
            for seat_id, step in LiveSeat.objects.filter(
                asked_step__isnull=False, answer__isnull=True
            ).values_list("pk", "asked_step"):
                key = (seat_id, step)
                if key not in asked_since:
                    asked_since[key] = now
                    if seat_id in self._answered:
                        self.waits.append(now - self._answered.pop(seat_id))
                if now - asked_since[key] >= self.think_s:
                    LiveSeat.objects.filter(pk=seat_id, asked_step=step).update(
                        answer={"step": step, "index": 0}
                    )
                    self._answered[seat_id] = time.monotonic()
            time.sleep(0.05)
        connection.close()


def _measure(games: int, think_s: float, queue: str, version) -> dict[str, float]:
    from django.contrib.auth import get_user_model

    from arena.common import SeatInput
    from arena.live.services import live_create
    from arena.models import Match

    with benchlib.celery_worker(queue, games, threads=True) as worker:
        people = People(think_s)
        answering = threading.Thread(target=people.run, daemon=True)
        answering.start()
        try:
            time.sleep(3)  # the worker starts and imports Django and the engine
            idle_rss, idle_pss = _rss_kb(worker.pid)
            User = get_user_model()
            match_ids = []
            for index in range(games):
                person = User.objects.create_user(f"person-{games}-{index}", password=None)
                match_ids.append(
                    live_create(
                        user=person,
                        game="cat-lady",
                        seed=index,
                        seats=[None, SeatInput(version=version), SeatInput(builtin="greedy")],
                    ).pk
                )
            samples = []
            deadline = time.monotonic() + 600
            while time.monotonic() < deadline:
                running = Match.objects.filter(pk__in=match_ids, status="running").count()
                if running == games:
                    worker_rss, worker_pss = _rss_kb(worker.pid)
                    bots = [_rss_kb(pid) for pid in _bot_pids(worker.pid)]
                    samples.append(
                        (
                            worker_rss,
                            worker_pss,
                            sum(b[0] for b in bots),
                            sum(b[1] for b in bots),
                            len(bots),
                        )
                    )
                if (
                    not Match.objects.filter(pk__in=match_ids)
                    .exclude(status__in=["finished", "failed"])
                    .exists()
                ):
                    break
                time.sleep(0.5)
            finished = Match.objects.filter(pk__in=match_ids, status="finished").count()
        finally:
            people.stop.set()
            answering.join(timeout=5)
    peak = max(samples, default=(0, 0, 0, 0, 0), key=lambda s: s[0] + s[3])
    return {
        "games": games,
        "finished": finished,
        "idle_rss_mb": idle_rss / 1024,
        "idle_pss_mb": idle_pss / 1024,
        "worker_rss_mb": peak[0] / 1024,
        "worker_pss_mb": peak[1] / 1024,
        "bots_rss_mb": peak[2] / 1024,
        "bots_pss_mb": peak[3] / 1024,
        "bot_processes": peak[4],
        "wait_ms_median": 1000 * statistics.median(people.waits) if people.waits else 0.0,
        "wait_ms_p95": (
            1000 * sorted(people.waits)[int(0.95 * (len(people.waits) - 1))]
            if people.waits
            else 0.0
        ),
    }


def kind(key: str) -> str:
    """The waits are times (smaller is better); memory is not speed, so it and the rest are
    counts."""
    return "time" if "_wait_ms_" in key else "count"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", default="1,8,32", help="comma-separated numbers of simultaneous live games"
    )
    parser.add_argument("--think-ms", type=int, default=500, help="a person's time per move")
    benchlib.add_keep_db_argument(parser)
    benchlib.add_baseline_arguments(parser, default_rounds=3)
    args = parser.parse_args()
    benchlib.run(__file__, args, measure, report, kind, in_tree=True, database=database_url)


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    """Nothing more: ``measure`` prints each row as its games finish."""


def database_url(tree: str | None) -> str:
    """The scratch database of ``tree`` (None: this repository)."""
    return benchlib.scratch_database_url("DATABASE_URL", DEFAULT_DATABASE, tree, fall_back=True)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run, with the tree on ``sys.path`` and its live worker; the rows
    are printed as they come (keys ``g{N}_...`` for N simultaneous games)."""
    counts = [int(n) for n in args.games.split(",") if n.strip()]
    database = database_url(args.tree)
    with benchdjango.celery_run(
        database,
        queue_prefix="bench-live",
        queue_variable="ARENA_LIVE_QUEUE",
        environment={"ARENA_LIVE_PACE_MS": "0"},
        keep=args.keep_db,
    ) as queue:
        return _run(args, counts, queue)


def _run(args: argparse.Namespace, counts: list[int], queue: str) -> dict[str, Any]:
    """Migrate, then one row of figures per number of simultaneous games."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    version = _uploaded_version()
    print(
        f"live games in one worker process (threads), Cat Lady, a person + an uploaded "
        f"sandboxed bot + a house bot each, think time {args.think_ms} ms; "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"{'games':>5} {'done':>5} {'worker RSS':>11} {'(idle)':>7} {'per game':>9} "
        f"{'bots RSS':>9} {'bots PSS':>9} {'wait p50':>9} {'p95':>7}"
    )
    figures: dict[str, Any] = {}
    for games in counts:
        r = _measure(games, args.think_ms / 1000, queue, version)
        figures |= {f"g{games}_{key}": value for key, value in r.items() if key != "games"}
        per_game = (r["worker_rss_mb"] - r["idle_rss_mb"] + r["bots_pss_mb"]) / games
        print(
            f"{r['games']:>5} {r['finished']:>5} {r['worker_rss_mb']:>9.0f}MB "
            f"{r['idle_rss_mb']:>5.0f}MB {per_game:>7.1f}MB {r['bots_rss_mb']:>7.0f}MB "
            f"{r['bots_pss_mb']:>7.0f}MB {r['wait_ms_median']:>7.0f}ms "
            f"{r['wait_ms_p95']:>5.0f}ms  ({r['bot_processes']} sandbox processes)"
        )
    return figures


if __name__ == "__main__":
    main()
