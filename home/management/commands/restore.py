"""`manage.py restore FILE`: put a `backup` file back, with django-dbbackup's `dbrestore`."""

from __future__ import annotations

from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from config.backups import backup_kind, one_line

DATABASES = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}


def _vendor() -> str:
    return DATABASES.get(connection.vendor, connection.vendor)


def _describe_database() -> str:
    """Which database a restore replaces (never its password)."""
    name, host = connection.settings_dict["NAME"], connection.settings_dict.get("HOST")
    return f"the {_vendor()} database {name}" + (f" on {host}" if host else "")


class Command(BaseCommand):
    help = (
        "Restore the database from a file made by `backup`: everything in the configured "
        "database is replaced by the backup's contents, all at once or not at all."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path, help="a backup file made by `manage.py backup`")
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="do not ask for confirmation",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["file"]
        if not path.is_file():
            raise CommandError(f"{path}: no such backup file")
        kind = backup_kind(path)
        if kind is None:
            raise CommandError(
                f"{path} is not a Catleague backup (neither an SQLite database nor a pg_dump "
                "archive); nothing was changed"
            )
        if kind != connection.vendor:
            raise CommandError(
                f"{path} is a {DATABASES[kind]} backup but the configured database is "
                f"{_vendor()}; nothing was changed"
            )
        database = _describe_database()
        if options["interactive"]:
            answer = input(f"Replace everything in {database} with {path}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                raise CommandError("restore cancelled; nothing was changed")
        try:
            call_command("dbrestore", input_path=str(path), interactive=False, quiet=True)
        except Exception as exc:  # the command line's boundary: one line, a non-zero exit
            raise CommandError(
                f"{path} was not restored, {database} is unchanged: {one_line(exc)}"
            ) from exc
        self.stdout.write(f"Restored {path} into {database}.")
