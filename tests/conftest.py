"""Shared test configuration. Engine tests never touch the database."""

from collections.abc import Iterator

import pytest
from django.db.models.signals import post_migrate
from django.test import override_settings

from arena.ladders.services import ladders_ensure
from config.celery import app as celery_app


def _reseed_migration_data(sender, **kwargs) -> None:
    """Every transactional test ends with a flush, which also empties the rows the migrations
    seeded (the arena's ladders); later tests on the same database process (pytest-xdist runs
    files in any order) expect them. Flush ends with post_migrate, so they are put back there,
    exactly as the migrations made them."""
    if sender.label == "arena":
        for game in ("cat-lady", "cantankerous-cats"):
            ladders_ensure(game)


post_migrate.connect(_reseed_migration_data, dispatch_uid="tests-reseed-migration-data")


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing() -> Iterator[None]:
    """PBKDF2's 10^6 rounds cost about a second per password on the 2-core machine, and most
    test set-ups create several users (the league cast has six): tests hash with MD5. Through
    override_settings, so Django drops its cached hashers; the deployments' hasher is untouched
    (tests/test_settings.py reads it from a fresh process)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture
def eager_celery() -> Iterator[None]:
    """Tasks run in the caller, at once: for tests of what a task does, not of the worker that
    runs it (tests/workers.py starts a real one)."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous
