"""`manage.py backup`: the whole database in one file, made by django-dbbackup's `dbbackup`."""

from __future__ import annotations

import logging
import os
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from config.backups import backup_filename, clean_old_backups, one_line


class Command(BaseCommand):
    help = (
        "Back the whole database (SQLite or PostgreSQL) up to one file in CATLEAGUE_BACKUP_DIR "
        "(default var/backups/) and print its path. `restore FILE` puts it back."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--output", type=Path, help="write the backup to this file instead (not overwritten)"
        )
        parser.add_argument(
            "--keep",
            type=int,
            metavar="N",
            help="then delete all but the N newest backups in CATLEAGUE_BACKUP_DIR",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        keep: int | None = options["keep"]
        if keep is not None and keep < 1:
            raise CommandError("--keep must be at least 1")
        target: Path = options["output"] or Path(settings.BACKUP_DIR) / backup_filename()
        if target.exists():
            raise CommandError(f"{target} already exists; a backup never overwrites a file")
        target.parent.mkdir(parents=True, exist_ok=True)
        # Written under another name and renamed when complete: a backup cut short (a full
        # disk, a killed cron job) never looks like a good one.
        partial = target.with_name(f".{target.name}.partial")
        written = [(partial, target), (Path(f"{partial}.metadata"), Path(f"{target}.metadata"))]
        # dbbackup logs a failure with its traceback before raising it; here it is said in one
        # line (with --traceback, in full).
        dbbackup_log = logging.getLogger("dbbackup")
        propagate, dbbackup_log.propagate = dbbackup_log.propagate, options["traceback"]
        try:
            call_command("dbbackup", output_path=str(partial), interactive=False, quiet=True)
            for source, final in written:
                os.replace(source, final)
        except Exception as exc:  # the command line's boundary: one line, a non-zero exit
            for source, _ in written:
                source.unlink(missing_ok=True)
            raise CommandError(f"backup failed: {one_line(exc)}") from exc
        finally:
            dbbackup_log.propagate = propagate
        if keep is not None:
            clean_old_backups(keep=keep)
        self.stdout.write(str(target))
