"""Backups with django-dbbackup: its storage (the folder BACKUP_DIR), what the `backup` and
`restore` commands need from it, and the one connector we configure (SQLite restores).

dbbackup backs SQLite up with SQLite's online backup API (a consistent copy while the site
runs) and PostgreSQL with `pg_dump --format=custom`; PostgreSQL restores run `pg_restore
--single-transaction`, so a bad file changes nothing. Its SQLite restore, though, writes the
file's bytes over the database file: a garbled file destroys the database, and a write-ahead
log left beside it (a process killed, or still running) is replayed over the restored pages.
`SqliteConnector` restores through SQLite instead, in one transaction, after checking the file.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import IO, Any, Literal

# dbbackup ships no type information: mypy sees its names as Any.
from dbbackup.db.base import get_connector  # type: ignore[import-untyped]
from dbbackup.db.exceptions import RestoreError  # type: ignore[import-untyped]
from dbbackup.db.sqlite import SqliteBackupConnector  # type: ignore[import-untyped]
from dbbackup.storage import get_storage  # type: ignore[import-untyped]
from django.conf import settings
from django.core.files.storage import FileSystemStorage

BackupKind = Literal["sqlite", "postgresql"]
# The first bytes of each kind of backup file: an SQLite database, a pg_dump custom archive.
_MAGIC: dict[bytes, BackupKind] = {b"SQLite format 3\x00": "sqlite", b"PGDMP": "postgresql"}
_TOOL_ERROR = re.compile(r"^(pg_dump|pg_restore|psql): (error|fatal): ")


class BackupStorage(FileSystemStorage):
    """Where dbbackup keeps backups: the folder settings.BACKUP_DIR (CATLEAGUE_BACKUP_DIR)."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("location", settings.BACKUP_DIR)
        super().__init__(**options)


def backup_kind(path: Path) -> BackupKind | None:
    """Which database a backup file is for, by its first bytes; None for anything else."""
    with path.open("rb") as file:
        head = file.read(16)
    for magic, kind in _MAGIC.items():
        if head.startswith(magic):
            return kind
    return None


def backup_filename() -> str:
    """A new backup's file name: DBBACKUP_FILENAME_TEMPLATE with the connector's extension."""
    name: str = get_connector().generate_filename()
    return name


def one_line(exc: BaseException) -> str:
    """The line of a failure worth printing: the PostgreSQL tool's own error (`pg_restore:
    error: ...`) under dbbackup's "Error running: <command>", else the first line."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    return next((line for line in lines if _TOOL_ERROR.match(line)), lines[0])


def clean_old_backups(*, keep: int) -> None:
    """Delete all but the `keep` newest database backups in the backup folder (dbbackup's
    rotation: the date in each file name orders them)."""
    get_storage().clean_old_backups(content_type="db", keep_number=keep)


class SqliteConnector(SqliteBackupConnector):  # type: ignore[misc]
    """dbbackup's SQLite connector, restoring with SQLite's backup API into the live database:
    one transaction, so the database holds either the whole backup or what it held before."""

    def restore_dump(self, dump: IO[bytes]) -> None:
        with tempfile.TemporaryDirectory(prefix="catleague-restore-") as folder:
            copy = Path(folder) / "backup.sqlite3"
            with copy.open("wb") as file:
                shutil.copyfileobj(dump, file)
            source = sqlite3.connect(copy)
            try:
                _check_sqlite_backup(source)
                self.connection.ensure_connection()
                try:
                    source.backup(self.connection.connection)
                except sqlite3.Error as exc:
                    raise RestoreError(f"SQLite could not restore the backup: {exc}") from exc
            finally:
                source.close()
                self.connection.close()


def _check_sqlite_backup(source: sqlite3.Connection) -> None:
    try:
        problems = [row[0] for row in source.execute("PRAGMA quick_check")]
        migrations = source.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
        ).fetchone()
    except sqlite3.DatabaseError as exc:
        raise RestoreError(f"the backup is not a readable SQLite database: {exc}") from exc
    if problems != ["ok"]:
        raise RestoreError(f"the backup is a damaged SQLite database: {problems[0]}")
    if migrations is None:
        raise RestoreError("the backup is an SQLite database but not Catleague's (no migrations)")
