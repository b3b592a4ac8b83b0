#!/usr/bin/env python
"""Sandboxed 4-bot matches per second through real Celery workers, Redis and PostgreSQL.

Everything a ladder match goes through is real: `arena.services.match_create` queues the task
on commit, a Celery worker (prefork, one process per core by default) claims the match, runs
the four bots in the sandbox through `arena.runner.run_match`, and `match_record`
stores the log. The bots are trivial (first legal action), so the figure is the arena's own
overhead, not the bots' thinking. Prints figures; asserts nothing.

    .venv/bin/python scripts/bench_celery.py [--matches 200] [--concurrency 2]

DATABASE_URL names the server and a scratch database (default
postgres://postgres@127.0.0.1:5432/catleague_bench_celery), DROPPED and re-created here, so its
name must contain "bench", and dropped at the end, also after an error or Ctrl-C, unless
--keep-db. CELERY_BROKER_URL defaults to redis://127.0.0.1:6379/15; the benchmark uses a queue
of its own and a worker named after it, and at the end, however it ends, removes from that
Redis database what they left there (the queue, kombu's `_kombu.binding*` entries for it and
for the worker's pidbox, messages a killed worker left unacknowledged: benchlib.clean_redis),
and nothing else: no other key, no other database, never FLUSHDB or FLUSHALL. Run it as root
on a machine with bubblewrap (or set ARENA_SANDBOX_MODE) so the workers use the real sandbox.

    .venv/bin/python scripts/bench_celery.py --baseline 6375dd5 --rounds 3
    .venv/bin/python scripts/bench_celery.py --matches 20 --baseline 6375dd5 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `arena`, `config`, `engine`..., and starting that tree's Celery worker;
scripts/benchlib.py), then prints the medians of every figure, the speed-ups and the machine.
The baseline uses a database of its own: the DATABASE_URL name with `_base_` and the
baseline commit appended, and a queue of its own on the same broker. Every run builds its
database afresh; the comparison drops both databases when it ends, however it ends, unless
--keep-db. 6375dd5 (main when the engine work began) is the baseline for the README.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/catleague_bench_celery"
TRIVIAL_BOT = "def choose(observation, legal_actions):\n    return 0\n"
TARGET_MATCHES_PER_S = 10.0
TIMING_PARTS = ("sandbox_start_ms", "bot_think_ms", "engine_ms", "teardown_ms")


def _bench_bots(count: int):
    """Four active versions of the trivial bot. Validation is skipped: it is not what is timed."""
    import hashlib

    from django.contrib.auth import get_user_model

    from arena.models import Bot, BotVersion

    owner = get_user_model().objects.create_user("bench-owner", password=None)
    versions = []
    for index in range(count):
        source = f"{TRIVIAL_BOT}# trivial bot {index}\n"
        bot = Bot.objects.create(owner=owner, name=f"trivial-{index}")
        version = BotVersion.objects.create(
            bot=bot,
            number=1,
            source=source,
            size=len(source.encode()),
            author=owner,
            sha256=hashlib.sha256(source.encode()).hexdigest(),
            status=BotVersion.Status.ACTIVE,
        )
        bot.active_version = version
        bot.save(update_fields=["active_version"])
        versions.append(version)
    return versions


def _queue_matches(versions, count: int, first_seed: int) -> list[int]:
    from django.db import transaction

    from arena.common import SeatInput, match_create
    from arena.models import Match

    with transaction.atomic():  # every task is sent on commit, all at once
        return [
            match_create(
                kind=Match.Kind.CHALLENGE,
                seed=first_seed + index,
                seats=[SeatInput(version=v) for v in versions],
            ).pk
            for index in range(count)
        ]


def _wait_settled(match_ids: list[int], timeout_s: float) -> float:
    from arena.models import Match

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        unsettled = (
            Match.objects.filter(pk__in=match_ids)
            .exclude(status__in=[Match.Status.FINISHED, Match.Status.FAILED])
            .count()
        )
        if unsettled == 0:
            return time.perf_counter()
        time.sleep(0.05)
    sys.exit(f"bench_celery: {unsettled} matches still unsettled after {timeout_s:.0f} s")


def _figures(match_ids: list[int], wall_s: float, concurrency: int) -> dict[str, Any]:
    """The figures of one run, from the matches as recorded."""
    from arena.models import Match

    matches = list(Match.objects.filter(pk__in=match_ids))
    failed = [m for m in matches if m.status != Match.Status.FINISHED]
    finished = [m for m in matches if m.status == Match.Status.FINISHED]
    figures: dict[str, Any] = {
        "matches_per_s": len(finished) / wall_s,
        "wall_s": wall_s,
        "finished": len(finished),
        "failed": len(failed),
        "load_average": os.getloadavg()[0],
        "sandbox": ", ".join(sorted({m.sandbox_mode for m in finished})),
        "first_failure": failed[0].failure if failed else "",
    }
    if not finished:
        return figures
    timings = [m.log["timing"] for m in finished]
    # Worker time per match: claimed (started_at) to recorded (finished_at) is the runner plus
    # the claim/record transactions; the rest of a worker's share of the wall clock is Celery.
    in_task_ms = [(m.finished_at - m.started_at).total_seconds() * 1000 for m in finished]
    worker_ms_per_match = wall_s * 1000 * concurrency / len(finished)
    figures["worker_ms_per_match"] = worker_ms_per_match
    runner_ms = statistics.fmean(t["total_ms"] for t in timings)
    for key in TIMING_PARTS:
        figures[key] = statistics.fmean(t[key] for t in timings)
    figures["runner_other_ms"] = runner_ms - sum(figures[k] for k in TIMING_PARTS)
    figures["claim_record_ms"] = statistics.fmean(in_task_ms) - runner_ms
    figures["celery_idle_ms"] = worker_ms_per_match - statistics.fmean(in_task_ms)
    return figures


def report(args: argparse.Namespace, figures: dict[str, Any]) -> None:
    concurrency = args.concurrency
    rate = figures["matches_per_s"]
    print(
        f"sandboxed 4-bot matches through Celery ({figures['sandbox']} sandbox, trivial bots, "
        f"{concurrency} worker processes, {os.cpu_count()} cores, "
        f"load average {figures['load_average']:.1f}):"
    )
    print(
        f"  {figures['finished']} finished in {figures['wall_s']:.2f} s = {rate:.1f} matches/s "
        f"(target {TARGET_MATCHES_PER_S:.0f}: {'met' if rate >= TARGET_MATCHES_PER_S else 'MISSED'})"
    )
    if figures["failed"]:
        print(f"  {figures['failed']} FAILED, first reason: {figures['first_failure']}")
    if not figures["finished"]:
        return
    worker_ms_per_match = figures["worker_ms_per_match"]
    print(
        f"  worker time per match: {worker_ms_per_match:.1f} ms "
        f"({concurrency} processes × wall ÷ matches), split:"
    )
    for key in TIMING_PARTS:
        part = figures[key]
        print(
            f"    {key.removesuffix('_ms'):<22} {part:7.1f} ms  ({100 * part / worker_ms_per_match:4.1f}%)"
        )
    for label, key in (
        ("runner (other)", "runner_other_ms"),
        ("claim + record (DB)", "claim_record_ms"),
        ("Celery + idle", "celery_idle_ms"),
    ):
        part = figures[key]
        print(f"    {label:<22} {part:7.1f} ms  ({100 * part / worker_ms_per_match:4.1f}%)")


def kind(key: str) -> str:
    """Matches per second is a rate; times in ms or s are compared; the rest are counts."""
    if key == "matches_per_s":
        return "rate"
    return "time" if key.endswith(("_ms", "_s")) or key == "worker_ms_per_match" else "count"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument(
        "--concurrency",
        type=int,
        default=os.cpu_count() or 2,
        help="worker processes (default: one per core)",
    )
    benchlib.add_keep_db_argument(parser, "--keep")
    benchlib.add_baseline_arguments(parser, default_rounds=3)
    args = parser.parse_args()
    if args.matches < 1 or args.concurrency < 1:
        parser.error("--matches and --concurrency must be at least 1")
    benchlib.run(__file__, args, measure, report, kind, in_tree=True, database=database_url)


def database_url(tree: str | None) -> str:
    """The scratch database of ``tree`` (None: this repository)."""
    return benchlib.scratch_database_url("DATABASE_URL", DEFAULT_DATABASE, tree, fall_back=True)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run, with the tree on ``sys.path`` and its Celery worker."""
    database = database_url(args.tree)
    with benchdjango.celery_run(
        database,
        queue_prefix="bench",
        queue_variable="CELERY_TASK_DEFAULT_QUEUE",
        keep=args.keep_db,
    ) as queue:
        return _run(args, queue)


def _run(args: argparse.Namespace, queue: str) -> dict[str, Any]:
    """Migrate, start the worker, time the matches, stop the worker."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    versions = _bench_bots(4)
    with benchlib.celery_worker(queue, args.concurrency):
        # Warm-up: the worker starts, detects its sandbox and imports the engine.
        _wait_settled(_queue_matches(versions, args.concurrency * 2, first_seed=1), timeout_s=120)
        begun = time.perf_counter()  # queueing is part of what a ladder tick costs
        match_ids = _queue_matches(versions, args.matches, first_seed=1000)
        ended = _wait_settled(match_ids, timeout_s=max(120, args.matches * 2))
        return _figures(match_ids, ended - begun, args.concurrency)


if __name__ == "__main__":
    main()
