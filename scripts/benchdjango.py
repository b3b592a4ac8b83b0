"""What the benchmarks of the Django project share: a scratch database made afresh for one
run and dropped after it, Django set up on it, and the Redis queue of a run with a Celery
worker.

``scripts/benchlib.py`` holds what every benchmark shares (the machine, ``--baseline``,
dropping databases, cleaning Redis); this module builds on it for the ones that import
Django. Django is imported only once the environment names the run's database, which is
why ``setup_django`` imports it inside the function.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import uuid
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import benchlib
import psycopg
from psycopg import sql

# The Redis database a benchmark's Celery worker uses when CELERY_BROKER_URL is not set.
DEFAULT_BROKER = "redis://127.0.0.1:6379/15"


def recreate_database(url: str) -> None:
    """Drop the scratch database of ``url`` if it exists and create it empty (a name a
    benchmark may not drop is refused first: ``benchlib.scratch_database_name``)."""
    name = benchlib.scratch_database_name(url)
    with psycopg.connect(benchlib.maintenance_url(url), autocommit=True) as conn:
        conn.execute(
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
        )
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def setup_django(environment: Mapping[str, str | None]) -> None:
    """Django set up with ``config.settings`` after ``environment`` is applied to
    ``os.environ`` (a None value removes the variable)."""
    for name, value in {"DJANGO_SETTINGS_MODULE": "config.settings", **environment}.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    import django

    django.setup()


def celery_environment(database_url: str | None, broker_url: str | None) -> dict[str, str | None]:
    """The variables that point Django and Celery at a run's database and broker, with
    tasks queued for a real worker (never run eagerly)."""
    return {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": broker_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }


@contextlib.contextmanager
def scratch_django(url: str, *, keep: bool) -> Iterator[None]:
    """Django set up on a new, empty scratch database ``url``, dropped on the way out (also
    on error or Ctrl-C) unless ``keep``. A name without "bench" is refused first."""
    benchlib.scratch_database_name(url)
    try:
        recreate_database(url)
        setup_django({"DATABASE_URL": url})
        yield
    finally:
        if not keep:
            benchlib.drop_databases([url])


def main_on_scratch_django(
    script: str,
    parser: argparse.ArgumentParser,
    *,
    default_url: str,
    run: Callable[[argparse.Namespace, str], dict[str, Any]],
    report: Callable[[argparse.Namespace, dict[str, Any]], int],
    describe: Callable[[str], str],
) -> int:
    """The exit status of a benchmark whose every measurement is ``run(args, url)`` on a
    fresh scratch database (DATABASE_URL, else ``default_url``; a tree of its own for a
    baseline), dropped afterwards unless ``--keep-db``: ``parser`` gets ``--keep-db`` (alias
    ``--keep``) and the ``--baseline`` options, then ``benchlib.run`` runs it in the tree
    (0 for a comparison or a worker)."""
    benchlib.add_keep_db_argument(parser, "--keep")
    benchlib.add_baseline_arguments(parser, default_rounds=3)
    args = parser.parse_args()

    def database_url(tree: str | None) -> str:
        return benchlib.scratch_database_url("DATABASE_URL", default_url, tree)

    def measure(args: argparse.Namespace) -> dict[str, Any]:
        url = database_url(args.tree)
        with scratch_django(url, keep=args.keep_db):
            return run(args, url)

    status = benchlib.run(
        script, args, measure, report, describe, in_tree=True, database=database_url
    )
    return status or 0


@contextlib.contextmanager
def celery_run(
    database: str,
    *,
    queue_prefix: str,
    queue_variable: str,
    environment: Mapping[str, str] | None = None,
    keep: bool,
) -> Iterator[str]:
    """The queue of one run with a Celery worker: a fresh scratch database ``database``,
    Django set up on it with the run's broker, the queue in ``queue_variable`` and
    ``environment``. On the way out, also on error or Ctrl-C, what the run left in Redis is
    removed and the database dropped unless ``keep`` (``benchlib.cleaned_up``)."""
    benchlib.scratch_database_name(database)  # refused before anything is created
    broker_url = os.environ.get("CELERY_BROKER_URL") or DEFAULT_BROKER
    queue = f"{queue_prefix}-{uuid.uuid4().hex[:8]}"
    drop = None if keep else functools.partial(benchlib.drop_databases, [database])
    with benchlib.cleaned_up(broker_url, queue, drop):
        recreate_database(database)
        setup_django(
            celery_environment(database, broker_url)
            | {queue_variable: queue}
            | dict(environment or {})
        )
        yield queue
