"""Shared test configuration. Engine tests never touch the database."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.db.backends.postgresql.operations import DatabaseOperations
from django.db.models.signals import post_migrate
from django.test import override_settings

from arena.ladders.services import ladders_ensure
from config.celery import app as celery_app
from tests import template_database


def _reseed_migration_data(sender, **kwargs) -> None:
    """Every transactional test ends with a flush, which also empties the rows the migrations
    seeded (the arena's ladders); later tests on the same database process (pytest-xdist runs
    files in any order) expect them. Flush ends with post_migrate, so they are put back there,
    exactly as the migrations made them."""
    if sender.label == "arena":
        for game in ("cat-lady", "cantankerous-cats"):
            ladders_ensure(game)


post_migrate.connect(_reseed_migration_data, dispatch_uid="tests-reseed-migration-data")

# The files that take a minute or more (a fresh copy served, workers killed, whole games in a
# browser), longest first. pytest-xdist hands out files in collection order (bin/test turns off
# its reordering by number of tests), and most of these sort last by name: run last, the suite
# ends with one process busy on them and the others idle.
LONG_FILES = (
    "tests/test_bin_serve.py",
    "tests/test_backup.py",
    "tests/test_production_stack.py",
    "tests/arena/test_two_machines.py",
    "tests/arena/test_fault_tolerance.py",
    "tests/e2e/test_play.py",
    "tests/e2e/test_play_friend.py",
    "tests/test_upgrade_from_old_layout.py",
    "tests/arena/test_hidden_information.py",
    "tests/arena/test_forward_model.py",
    "tests/test_settings.py",
    "tests/arena/test_pages_a11y.py",
    "tests/arena/test_malicious_bots.py",
    "tests/e2e/test_play_controls.py",
    "tests/e2e/test_arena.py",
    "tests/e2e/test_phone_fit.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Parallel runs on PostgreSQL: one migrated template for every process's database."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        template_database.use()
    elif config.getoption("numprocesses", default=None) and connection.vendor == "postgresql":
        template_database.build()


def pytest_unconfigure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        template_database.drop()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def first_the_long_files(item: pytest.Item) -> int:
        path = item.nodeid.split("::", 1)[0]
        return LONG_FILES.index(path) if path in LONG_FILES else len(LONG_FILES)

    items.sort(key=first_the_long_files)  # stable: the rest keep their order


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing() -> Iterator[None]:
    """PBKDF2's 10^6 rounds cost about a second per password on the 2-core machine, and most
    test set-ups create several users (the league cast has six): tests hash with MD5. Through
    override_settings, so Django drops its cached hashers; the deployments' hasher is untouched
    (tests/test_settings.py reads it from a fresh process)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def flush_by_delete() -> Iterator[None]:
    """Every transactional test (a live server, a browser, a worker's thread) ends with
    Django's flush, on PostgreSQL one TRUNCATE of every table: 2-3 s on the 2-core machine
    and more with the suite running (a new file for each table and index, each synced at
    commit). Deleting the few rows a test leaves takes milliseconds and leaves the tables as
    empty; the foreign keys are deferrable (Django makes them so), so the order of the
    deletes does not matter. TRUNCATE stays where a test asks for reset sequences or a
    cascade, which DELETE would not give."""
    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: DatabaseOperations,
        style: Any,
        tables: list[str],
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade or not tables:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        deletes = [f"DELETE FROM {style.SQL_FIELD(self.quote_name(table))}" for table in tables]
        return ["SET CONSTRAINTS ALL DEFERRED", *deletes]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]
    yield
    DatabaseOperations.sql_flush = truncate  # type: ignore[method-assign]


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in the caller, at once: for tests of what a task does, not of the worker that
    runs it (tests/workers.py starts a real one)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous
