"""One migrated PostgreSQL database that the parallel test processes copy their own from.

pytest-xdist gives each process a database of its own, and Django makes each by running every
migration: about 8 s of CPU each, three at once on a 2-core machine at the start of the suite.
Here the controlling process migrates one template database before the processes start, and
each process's database is created as a copy of it (``CREATE DATABASE ... TEMPLATE``), whose
migrations Django then finds applied. The template is made afresh on every run, from this
tree's migrations, and dropped at the end.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE_VARIABLE = "CATLEAGUE_TEST_TEMPLATE_DB"


def _url_of(database: str) -> str:
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path=f"/{database}"))


def _admin() -> psycopg.Connection:
    return psycopg.connect(_url_of("postgres"), autocommit=True, connect_timeout=10)


def build() -> None:
    """Migrate the template (in a subprocess: this tree's ``manage.py migrate``) and name it
    to the test processes, which inherit the environment."""
    name = f"test_{settings.DATABASES['default']['NAME']}_template"
    with _admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": _url_of(name)},
        capture_output=True,
        text=True,
    )
    if migrated.returncode != 0:
        raise RuntimeError(f"migrating the tests' template database failed:\n{migrated.stderr}")
    os.environ[TEMPLATE_VARIABLE] = name


def use() -> None:
    """In a test process: create this process's database from the template, if there is one."""
    name = os.environ.get(TEMPLATE_VARIABLE)
    if name:
        settings.DATABASES["default"].setdefault("TEST", {})["TEMPLATE"] = name


def drop() -> None:
    name = os.environ.pop(TEMPLATE_VARIABLE, None)
    if name:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
