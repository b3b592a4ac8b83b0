"""`manage.py backup` and `manage.py restore` (django-dbbackup underneath): a club with league
games, a game night, bots and arena matches is backed up to one file and restored into an
empty database, on PostgreSQL and on SQLite, with the same standings, rating histories and
replays; a bad file is refused in one line and changes nothing."""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict
from io import StringIO
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import Value
from django.db.models.functions import Concat
from django.utils import timezone

from arena.models import Match
from arena.replay import build_replay
from engine.catlady import frames as catlady_frames
from league.demo import DEMO_SLUG, seed_demo_league
from league.models import GameNight, League, Player
from league.nights import selectors as night_selectors
from league.nights import services as nights
from league.results import checks, standings
from league.results import seating as night_seating
from league.results import selectors as result_selectors

ROOT = Path(__file__).resolve().parents[1]


# --- the club, and what must survive a backup ----------------------------------------------


def add_night() -> None:
    """A game night on the demo league: six people, one round drawn, both tables' games in."""
    league = League.objects.get(slug=DEMO_SLUG)
    organiser = get_user_model().objects.get(username="demo")
    present = [m.player for m in league.memberships.select_related("player").order_by("pk")[:6]]
    night = nights.night_open(
        league=league,
        by=organiser,
        played_on=timezone.localdate(),
        edition="base",
        rounds=2,
        present=present,
        seed=5,
    )
    for table in nights.round_draw(night=night, by=organiser).tables.all():
        seated = night_seating.table_setup(table)
        nights.table_game_record(
            table=table,
            logged_by=organiser,
            participants=[
                checks.ParticipantInput(
                    player_id=player_id, seat=seat, result={"total_vp": 30 - seat, "fed_cats": 3}
                )
                for seat, player_id in enumerate(seated, start=1)
            ],
            played_on=night.played_on,
        )


def fingerprint() -> dict[str, Any]:
    """What a club sees, through the selectors: every league's and season's standings, every
    player's rating history, every night's standings, every match's log and replay; and the
    number of rows in every table."""
    seen: dict[str, Any] = {
        "rows": {m._meta.label: m._default_manager.count() for m in apps.get_models()}
    }
    for league in League.objects.order_by("pk"):
        seen[f"standings {league.slug}"] = [asdict(r) for r in standings.standings(league=league)]
        for season in league.seasons.order_by("pk"):
            rows = standings.standings(league=league, season=season)
            seen[f"standings {league.slug} {season.name}"] = [asdict(r) for r in rows]
        for player in Player.objects.filter(memberships__league=league).order_by("pk"):
            seen[f"history {league.slug} {player.name}"] = [
                (p.game_id, p.game.played_on, p.rating_before, p.rating_after, p.expected_score)
                for p in result_selectors.rating_history(player=player, league=league)
            ]
    for night in GameNight.objects.order_by("pk"):
        view = night_selectors.night_view(night=night)
        seen[f"night {night.pk}"] = [asdict(score) for score in view.standings]
    # A replay leaves out running scores that take longer than a time budget to work out:
    # with none, the same log always gives the same replay, however busy the machine.
    with mock.patch.object(catlady_frames, "RUNNING_SCORE_BUDGET_S", math.inf):
        for match in Match.objects.order_by("pk"):
            finished = match.status == Match.Status.FINISHED and match.log is not None
            seen[f"match {match.pk}"] = {
                "status": match.status,
                "log": match.log,
                "replay": build_replay(match.log) if finished else None,
            }
    normalised: dict[str, Any] = json.loads(json.dumps(seen, default=str, sort_keys=True))
    return normalised


def write_fingerprint(path: str) -> None:
    """For `manage.py shell` in the SQLite tests' subprocesses."""
    Path(path).write_text(json.dumps(fingerprint()))


def build_club(fingerprint_path: str) -> None:
    """For one `manage.py shell` making the SQLite club (these tests are about `backup` and
    `restore`, not the commands that make a club, and each manage.py start costs seconds of
    CPU): migrate, the demo club and a night, then its fingerprint."""
    call_command("migrate", interactive=False, verbosity=0)
    call_command("seed_demo", stdout=StringIO())
    add_night()
    cache.clear()  # read as a new process would, as the restored clubs are
    write_fingerprint(fingerprint_path)


def sqlite_rows(database: Path, *, immutable: bool = False) -> list[str]:
    """Every row and schema line of an SQLite database, as SQLite itself reads it: with what a
    write-ahead log beside it holds, unless ``immutable`` (a file nothing writes, left as is)."""
    opened = sqlite3.connect(f"file:{database}{'?immutable=1' if immutable else ''}", uri=True)
    try:
        return list(opened.iterdump())
    finally:
        opened.close()


def assert_a_full_club(seen: dict[str, Any]) -> None:
    """The data the comparison is about is there (so an empty restore cannot pass)."""
    assert seen["rows"]["league.Game"] >= 30
    assert seen["rows"]["league.NightTable"] == 2
    assert len(seen[f"standings {DEMO_SLUG}"]) >= 8
    assert sum(len(v) for k, v in seen.items() if k.startswith("history ")) >= 80
    replays = [v["replay"] for k, v in seen.items() if k.startswith("match ") and v["replay"]]
    assert len(replays) == 4 and all(r["moves"] and r["frames"] for r in replays)
    assert seen["rows"]["arena.Bot"] == 3


# --- PostgreSQL: the test database, restored into a new empty one --------------------------


@pytest.fixture
def postgresql() -> None:
    """The test database is PostgreSQL, and its command-line tools are here."""
    if connection.vendor != "postgresql":
        pytest.skip("the PostgreSQL backup tests need DATABASE_URL to name a PostgreSQL server")
    missing = [tool for tool in ("pg_dump", "pg_restore") if shutil.which(tool) is None]
    if missing:
        message = (
            f"{', '.join(missing)} missing (run once: sudo apt-get install -y postgresql-client)"
        )
        if os.geteuid() == 0:  # bin/test as root installs it (bin/_system.sh): it must be there
            pytest.fail(message, pytrace=False)
        pytest.skip(message)


@pytest.fixture
def empty_postgresql_database(postgresql: None) -> Iterator[str]:
    """A new, empty database on the test database's server; dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored_{os.getpid()}"
    params = {**connection.get_connection_params(), "dbname": "postgres"}
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}"')
        server.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with psycopg.connect(**params, autocommit=True) as server:
            server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class _Using:
    """Point the default connection at another database on the same server for a while."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __enter__(self) -> None:
        self.previous = connection.settings_dict["NAME"]
        connection.close()
        connection.settings_dict["NAME"] = self.name
        cache.clear()  # season standings are cached by league and version: read them afresh

    def __exit__(self, *exc: object) -> None:
        connection.close()
        connection.settings_dict["NAME"] = self.previous
        cache.clear()


@pytest.mark.django_db(transaction=True)
def test_postgresql_backup_restores_into_an_empty_database_with_everything_the_club_sees(
    empty_postgresql_database, tmp_path, settings
):
    call_command("seed_demo", stdout=StringIO())
    add_night()
    before = fingerprint()
    assert_a_full_club(before)
    settings.BACKUP_DIR = tmp_path / "backups"

    printed = StringIO()
    call_command("backup", stdout=printed)
    written = Path(printed.getvalue().strip())
    assert written.parent == tmp_path / "backups" and written.name.startswith("catleague-")
    assert written.read_bytes().startswith(b"PGDMP")
    # One file is all it takes: restore a copy of it alone, without dbbackup's metadata.
    alone = tmp_path / "elsewhere" / written.name
    alone.parent.mkdir()
    shutil.copyfile(written, alone)

    with _Using(empty_postgresql_database):
        assert "league_game" not in connection.introspection.table_names()
        call_command("restore", str(alone), "--noinput", stdout=StringIO())
        after = fingerprint()
    assert after == before


@pytest.mark.django_db(transaction=True)
def test_postgresql_restore_of_a_damaged_backup_changes_nothing(postgresql, tmp_path):
    league = seed_demo_league(games=6)
    backup = tmp_path / "club.psql.bin"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    Player.objects.filter(memberships__league=league).update(name=Concat("name", Value(" II")))
    changed = fingerprint()
    truncated = tmp_path / "truncated.psql.bin"
    truncated.write_bytes(backup.read_bytes()[: backup.stat().st_size // 2])

    with pytest.raises(CommandError) as refused:
        call_command("restore", str(truncated), "--noinput")
    assert "was not restored" in str(refused.value) and "\n" not in str(refused.value)
    assert fingerprint() == changed

    call_command("restore", str(backup), "--noinput", stdout=StringIO())
    assert not Player.objects.filter(name__endswith=" II").exists()


# --- SQLite: the real commands in subprocesses, each with its own var/ folder ---------------


def club_env(var_dir: Path) -> dict[str, str]:
    """A club's machine: SQLite in var_dir, nothing else configured, debug off."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_URL", "CELERY_", "CACHE_URL", "CATLEAGUE_"))
    }
    env.update(CATLEAGUE_VAR_DIR=str(var_dir), DJANGO_DEBUG="0", LOG_LEVEL="WARNING")
    env.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key-not-for-any-deployment-0123456789")
    return env


def manage(var_dir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """`python manage.py ...` with SQLite in var_dir."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=club_env(var_dir),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def sqlite_fingerprint(var_dir: Path) -> dict[str, Any]:
    out = var_dir.parent / f"{var_dir.name}-fingerprint.json"
    manage(
        var_dir,
        "shell",
        "-c",
        f"from tests.test_backup import write_fingerprint as w; w({str(out)!r})",
    )
    seen: dict[str, Any] = json.loads(out.read_text())
    return seen


class SqliteClub:
    def __init__(self, root: Path, backup: Path, seen: dict[str, Any]) -> None:
        self.root, self.backup, self.seen = root, backup, seen


@pytest.fixture(scope="module")
def sqlite_club(tmp_path_factory) -> SqliteClub:
    """The demo club and a night on SQLite in its own var/, and `manage.py backup` of it."""
    root = tmp_path_factory.mktemp("sqlite-club")
    var = root / "var"
    out = root / "var-fingerprint.json"
    manage(
        var, "shell", "-c", f"from tests.test_backup import build_club; build_club({str(out)!r})"
    )
    seen = json.loads(out.read_text())
    done = manage(var, "backup")
    backup = Path(done.stdout.strip())
    assert backup.parent == var / "backups", done.stdout
    return SqliteClub(root, backup, seen)


def test_sqlite_backup_restores_into_an_empty_database_with_everything_the_club_sees(
    sqlite_club,
):
    assert_a_full_club(sqlite_club.seen)
    assert sqlite_club.backup.read_bytes().startswith(b"SQLite format 3\x00")
    # Another machine: a new var/ with no database in it, and the backup file alone.
    fresh = sqlite_club.root / "fresh"
    (fresh / "from-usb").mkdir(parents=True)
    alone = shutil.copy(sqlite_club.backup, fresh / "from-usb")
    assert not (fresh / "var" / "catleague.sqlite3").exists()

    done = manage(fresh / "var", "restore", "--noinput", str(alone))
    assert done.stdout.startswith(f"Restored {alone} into the SQLite database ")
    assert sqlite_fingerprint(fresh / "var") == sqlite_club.seen


def test_sqlite_restore_is_not_undone_by_a_write_ahead_log_left_by_a_killed_process(
    sqlite_club,
):
    var = sqlite_club.root / "killed"
    manage(var, "restore", "--noinput", str(sqlite_club.backup))
    database = var / "catleague.sqlite3"
    # A process renames everyone and dies before its write-ahead log is folded into the
    # database file (as a worker stopped with SIGKILL can).
    writer = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys, time\n"
            f"db = sqlite3.connect({str(database)!r})\n"
            "db.execute('PRAGMA wal_autocheckpoint=0')\n"
            "db.execute(\"UPDATE league_player SET name = name || ' II'\")\n"
            "db.commit()\n"
            "print('written', flush=True)\n"
            "time.sleep(60)\n",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert writer.stdout is not None and writer.stdout.readline() == "written\n"
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert Path(f"{database}-wal").stat().st_size > 0

    manage(var, "restore", "--noinput", str(sqlite_club.backup))
    # Every row as in the backup, which the test above shows the club sees as it was: the
    # renaming in the log is gone (a fingerprint here would cost a Django start and every
    # replay again, and read less than every row).
    restored = sqlite_rows(database)
    assert not any(" II'" in line for line in restored if "league_player" in line)
    assert restored == sqlite_rows(sqlite_club.backup, immutable=True)


@pytest.mark.parametrize("damage", ["missing", "garbage", "truncated", "not-catleague"])
def test_sqlite_restore_refuses_a_bad_file_in_one_line_and_changes_nothing(sqlite_club, damage):
    var = sqlite_club.root / f"bad-{damage}"
    var.mkdir()
    database = Path(shutil.copy(sqlite_club.backup, var / "catleague.sqlite3"))
    before = database.read_bytes()
    bad = sqlite_club.root / f"{damage}.sqlite3"
    if damage == "garbage":
        bad.write_bytes(b"not a backup at all\n")
    elif damage == "truncated":
        bad.write_bytes(sqlite_club.backup.read_bytes()[:300_000])
    elif damage == "not-catleague":
        other = sqlite3.connect(bad)
        other.execute("CREATE TABLE notes (text)")
        other.commit()
        other.close()

    done = manage(var, "restore", "--noinput", str(bad), check=False)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("CommandError: "), done.stderr
    assert str(bad) in lines[0]
    assert database.read_bytes() == before


def test_sqlite_restore_asks_before_replacing_the_database_and_a_no_changes_nothing(sqlite_club):
    var = sqlite_club.root / "asked"
    var.mkdir()
    database = Path(shutil.copy(sqlite_club.backup, var / "catleague.sqlite3"))
    other = sqlite_club.root / "other.sqlite3"
    shutil.copy(sqlite_club.backup, other)
    changing = sqlite3.connect(other)
    changing.execute("UPDATE league_player SET name = name || ' II'")
    changing.commit()
    changing.close()
    before = database.read_bytes()

    done = subprocess.run(
        [sys.executable, "manage.py", "restore", str(other)],
        cwd=ROOT,
        env=club_env(var),
        input="n\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert (
        f"Replace everything in the SQLite database {database} with {other}? [y/N]" in done.stdout
    )
    assert done.stderr.strip() == "CommandError: restore cancelled; nothing was changed"
    assert database.read_bytes() == before
