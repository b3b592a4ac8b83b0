"""Arena workers on two machines that share only PostgreSQL and Redis (docs/install.md, "More
than one machine"): each "machine" has its own copy of the checkout, its own data folder
(CATLEAGUE_VAR_DIR), its own sandbox folders (TMPDIR; as root also a mount namespace with its
own /run/catleague-sandbox, and its own bot users made by scripts/setup-sandbox.sh),
its own worker name, and runs `bin/catleague worker`; machine A also runs `bin/catleague beat`.
While they play MATCHES matches (ladder matches between uploaded bots, challenges between house
bots), machine B's worker is killed outright twice (SIGKILL to its whole process group) in the
middle of a sandboxed match and started again. Afterwards every match has finished exactly
once, and every ladder rating was applied once.

The arena's timings are the defaults (a heartbeat every 5 s, a match lost after 45 s of
silence, the reaper every 10 s), except ARENA_QUEUED_DEADLINE_S (60 s instead of 300 s: a
message the killed worker had taken but not started waits that long) and the ladder tick
(off: the test queues the matches itself). CATLEAGUE_TEST_MATCHES sets the number of matches
(default 200: about 100 s on a 2-core machine, most of it the wait for the reaper)."""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import redis

from tests.arena.test_fault_tolerance import _one_path
from tests.test_bin_serve import _fresh_copy
from tests.test_production_stack import _server_urls, service_env

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
MATCHES = int(os.environ.get("CATLEAGUE_TEST_MATCHES", "200"))
BOTS = 4
BACKLOG = 8  # matches queued or running at a time; the feeder adds more as they finish
REDIS_DB = 9  # a Redis database of its own: never another test's queues
BOT_SLOTS = 6  # bot users per machine: 2 processes x 2 seats, and a spare pair
LOCK_DIR = "/run/catleague-sandbox"

_SETUP = f"""
from django.contrib.auth import get_user_model
from arena.ladders.services import ladders_ensure
from arena.submissions.services import bot_create
ladders_ensure()
owner = get_user_model().objects.create_user("machines", password="unused-password-1")
source = open("arena/botkit/starter_bot.py").read()
for n in range({BOTS}):
    bot_create(owner=owner, name=f"far-{{n}}", source=source + f"# {{n}}\\n")
"""

# Keeps BACKLOG matches waiting until MATCHES are made: a ladder duplicate set (one deal, both
# seatings) and a challenge of house bots in turn.
_FEEDER = f"""
import random, time
from django.contrib.auth import get_user_model
from arena.common import SeatInput
from arena.ladders.services import ladder_schedule
from arena.matches.services import challenge_create
from arena.models import Ladder, Match
owner = get_user_model().objects.get(username="machines")
ladder = Ladder.objects.get(game="cat-lady", players=2)
rng = random.Random(7)
made, turn = 0, 0
while made < {MATCHES}:
    if Match.objects.filter(status__in=["queued", "running"]).count() >= {BACKLOG}:
        time.sleep(0.3)
        continue
    if turn % 2 == 0 and {MATCHES} - made >= 2:
        made += len(ladder_schedule(ladder=ladder, rng=rng))
    else:
        challenge_create(
            seats=[SeatInput(builtin="random"), SeatInput(builtin="greedy")],
            by=owner,
        )
        made += 1
    turn += 1
print("made", made)
"""


class Machine:
    """One machine: a copy of the checkout, an env file, and `bin/catleague` processes."""

    def __init__(self, name: str, directory: Path, settings: dict[str, str]) -> None:
        self.name = name
        self.directory = directory
        self.clone = directory / "catleague"
        self.clone.mkdir(parents=True)
        _fresh_copy(self.clone)
        (self.clone / ".venv").symlink_to(ROOT / ".venv")  # a clone never holds one
        self.run_dir = directory / "run"  # its /run/catleague-sandbox
        self.tmp = directory / "tmp"  # its TMPDIR
        for folder in (self.run_dir, self.tmp):
            folder.mkdir(mode=0o700)
        self.bot_prefix = f"catleague-{name}-bot"
        values = {
            **settings,
            "CATLEAGUE_VAR_DIR": str(directory / "var"),
            "CATLEAGUE_NODE_NAME": f"worker@machine-{name}",
            "CATLEAGUE_BOT_USER_PREFIX": self.bot_prefix,
            "CATLEAGUE_BOT_SLOTS": str(BOT_SLOTS),
        }
        self.env_file, self.env = service_env(
            directory,
            values,
            TMPDIR=str(self.tmp),
            # scripts/setup-sandbox.sh reads these from the environment
            CATLEAGUE_BOT_USER_PREFIX=self.bot_prefix,
            CATLEAGUE_BOT_SLOTS=str(BOT_SLOTS),
        )
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.killed: list[int] = []
        self.made_users: list[str] = []

    def run(self, *argv: str) -> str:
        done = subprocess.run(
            argv, cwd=self.clone, env=self.env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{argv}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    def set_up_sandbox(self) -> None:
        """The bot users of this machine (scripts/setup-sandbox.sh, as docs/install.md says)."""
        if os.geteuid() != 0:
            return  # bots run in bwrap-rootless under the worker's own uid
        before = {p.pw_name for p in pwd.getpwall()}
        self.run("scripts/setup-sandbox.sh")
        self.made_users = sorted({p.pw_name for p in pwd.getpwall()} - before)

    def remove_bot_users(self) -> None:
        for user in self.made_users:
            subprocess.run(["userdel", user], check=False, capture_output=True)

    def start(self, service: str) -> None:
        argv = ["bin/catleague", service]
        if os.geteuid() == 0 and service == "worker":
            # Its own /run/catleague-sandbox (jailed bots' stages, bot slot locks), as on a
            # machine of its own: a bind mount in a private mount namespace, gone with it.
            os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
            script = f'mount --bind "$1" {LOCK_DIR} && exec bin/catleague worker'
            argv = ["unshare", "--mount", "--propagation", "private", "--"]
            argv += ["sh", "-c", script, "sh", str(self.run_dir)]
        with (self.directory / f"{service}.log").open("ab") as log:
            self.processes[service] = subprocess.Popen(
                argv,
                cwd=self.clone,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def pool(self) -> list[int]:
        main = self.processes["worker"].pid
        found = subprocess.run(["pgrep", "-P", str(main)], capture_output=True, text=True)
        return [int(pid) for pid in found.stdout.split()]

    def playing_a_sandboxed_match(self) -> bool:
        """A bot of this machine's worker is running (its stage is named after the process)."""
        return any(
            subprocess.run(["pgrep", "-f", f"catleague-bot-{pid}-"], capture_output=True).stdout
            for pid in self.pool()
        )

    def kill_worker(self) -> None:
        """SIGKILL the worker's whole process group, as a machine losing power would."""
        process = self.processes["worker"]
        self.killed += [process.pid, *self.pool()]
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()

    def kill_worker_mid_match(self, timeout: float) -> None:
        """:meth:`kill_worker` while a match is being played: the worker is frozen, then
        killed only if one of its bots is still running (its match not yet saved); a match
        can end between a look and a kill, and a kill after the save strikes nothing."""
        group = self.processes["worker"].pid
        deadline = time.monotonic() + timeout
        while True:
            os.killpg(group, signal.SIGSTOP)
            if self.playing_a_sandboxed_match():
                break
            os.killpg(group, signal.SIGCONT)
            if time.monotonic() > deadline:
                pytest.fail(f"machine {self.name} played no sandboxed match in {timeout} s")
            time.sleep(0.1)
        self.kill_worker()

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=30)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def tasks_done(self) -> int:
        log = (self.directory / "worker.log").read_text(errors="replace")
        return sum(
            "arena.tasks.match_run[" in line and "succeeded" in line for line in log.splitlines()
        )

    def stages_of_killed(self) -> list[str]:
        names = tuple(f"catleague-bot-{pid}-" for pid in self.killed)
        found = []
        for parent in (self.run_dir / "stage", self.tmp):
            if parent.is_dir():
                found += [e.name for e in parent.iterdir() if e.name.startswith(names)]
        return found


class Site:
    def __init__(self, directory: Path) -> None:
        pg_server, redis_server = _server_urls()
        self.database = f"catleague_stack_{secrets.token_hex(4)}"
        self.admin_dsn = pg_server.replace("postgres://", "postgresql://", 1) + "/postgres"
        self.dsn = pg_server.replace("postgres://", "postgresql://", 1) + f"/{self.database}"
        self.redis_url = f"{redis_server}/{REDIS_DB}"
        shared = {  # the same on every machine
            "DJANGO_DEBUG": "0",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DATABASE_URL": f"{pg_server}/{self.database}",
            "CELERY_BROKER_URL": self.redis_url,
            "CACHE_URL": self.redis_url,
            "ARENA_LADDER_TICK_S": "3600",
            "ARENA_QUEUED_DEADLINE_S": "60",
        }
        self.a = Machine("a", directory / "machine-a", shared)
        self.b = Machine("b", directory / "machine-b", shared)

    def query(self, sql: str, *params: object) -> list[tuple]:
        with psycopg.connect(self.dsn, connect_timeout=10) as conn:
            return conn.execute(sql, params).fetchall()

    def count(self, sql: str, *params: object) -> int:
        return int(self.query(sql, *params)[0][0])

    def wait(self, what: str, check, timeout: float) -> float:
        begun = time.monotonic()
        while time.monotonic() - begun < timeout:
            for machine in (self.a, self.b):
                for service, process in machine.processes.items():
                    if process.poll() is not None and process.returncode != -signal.SIGKILL:
                        pytest.fail(f"{machine.name}'s {service} exited: {self.logs()}")
            if check():
                return time.monotonic() - begun
            time.sleep(0.5)
        statuses = self.query("SELECT status, count(*) FROM arena_match GROUP BY status")
        pytest.fail(f"timed out after {timeout} s waiting for {what} ({statuses}){self.logs()}")

    def logs(self) -> str:
        return "".join(
            f"\n--- {log.parent.name}/{log.name}:\n{log.read_text(errors='replace')[-2500:]}"
            for machine in (self.a, self.b)
            for log in sorted(machine.directory.glob("*.log"))
        )


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    site = Site(tmp_path)
    with psycopg.connect(site.admin_dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{site.database}"')
    redis.Redis.from_url(site.redis_url).flushdb()
    try:
        yield site
    finally:
        for machine in (site.a, site.b):
            machine.stop()
            machine.remove_bot_users()
        with psycopg.connect(site.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{site.database}" WITH (FORCE)')
        redis.Redis.from_url(site.redis_url).flushdb()


def test_two_machines_play_every_match_once_while_one_is_killed_twice(site: Site):
    begun = time.monotonic()
    a, b = site.a, site.b
    a.run("bin/catleague", "migrate")
    for machine in (a, b):
        machine.set_up_sandbox()
    a.start("beat")
    for machine in (a, b):
        machine.start("worker")
    a.run("bin/catleague", "manage", "shell", "-c", _SETUP)
    site.wait(
        "the bots' validation",
        lambda: site.count("SELECT count(*) FROM arena_botversion WHERE status = 'active'") == BOTS,
        timeout=180,
    )
    with (a.directory / "feeder.log").open("wb") as log:
        feeder = subprocess.Popen(
            ["bin/catleague", "manage", "shell", "-c", _FEEDER],
            cwd=a.clone,
            env=a.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        played = (
            "SELECT count(*) FROM arena_match WHERE kind <> 'validation' AND status = 'finished'"
        )
        kills = []
        for after in (MATCHES // 6, MATCHES // 2):
            site.wait(f"{after} finished matches", lambda n=after: site.count(played) >= n, 300)
            b.kill_worker_mid_match(120)
            kills.append(time.monotonic())
            time.sleep(3)
            b.start("worker")
        site.wait("the feeder", lambda: feeder.poll() is not None, 300)
        assert feeder.returncode == 0, (a.directory / "feeder.log").read_text()[-3000:]
        settled = site.wait(
            "every match to settle",
            lambda: (
                site.count("SELECT count(*) FROM arena_match WHERE status IN ('queued', 'running')")
                == 0
            ),
            timeout=240,
        )
    finally:
        if feeder.poll() is None:
            feeder.kill()
            feeder.wait()

    # Every match finished exactly once: one result and one log, whatever its attempts.
    matches = site.query(
        "SELECT id, kind, status, attempts, seed, log->>'seed' FROM arena_match "
        "WHERE kind <> 'validation'"
    )
    assert len(matches) == MATCHES
    not_finished = [m for m in matches if m[2] != "finished"]
    assert not_finished == []
    assert all(log_seed is not None and int(log_seed) == seed for *_, seed, log_seed in matches)
    replayed = [m[0] for m in matches if m[3] > 1]
    # Each kill struck a match being played (it waits for one), maybe one already replayed.
    assert sum(m[3] - 1 for m in matches) >= 2, "the kills struck no running match"

    # Rated once: every entry counts each of its finished ladder matches once, and its
    # ratings chain from 1500 through each match once to where it stands.
    ladder_matches = site.count(
        "SELECT count(*) FROM arena_match m JOIN arena_ladder l ON l.id = m.ladder_id "
        "WHERE m.kind = 'ladder' AND l.players = 2"
    )
    entries = site.query(
        "SELECT e.ladder_id, e.version_id, e.rating, e.games FROM arena_ladderentry e "
        "JOIN arena_ladder l ON l.id = e.ladder_id WHERE l.players = 2"
    )
    assert len(entries) == BOTS and sum(games for *_, games in entries) == 2 * ladder_matches
    for ladder, version, rating, games in entries:
        steps = site.query(
            "SELECT s.rating_before, s.rating_after FROM arena_matchseat s JOIN arena_match m "
            "ON m.id = s.match_id WHERE m.ladder_id = %s AND s.version_id = %s",
            ladder,
            version,
        )
        assert len(steps) == games
        assert all(before is not None for before, _ in steps)
        assert _one_path(steps, start=1500.0, end=rating), "a rating was applied twice"

    # Both machines played, each in its own folders; the killed worker's bot files were
    # removed by its successor on the same machine.
    assert a.tasks_done() > 0 and b.tasks_done() > 0
    assert b.stages_of_killed() == []
    if os.geteuid() == 0:  # bot slots leased on each machine's own users, in its own folder
        for machine in (a, b):
            locks = {p.name for p in machine.run_dir.glob("*.lock")}
            assert locks and all(name.startswith(machine.bot_prefix) for name in locks)
        assert not [
            n for n in os.listdir(LOCK_DIR) if n.startswith(("catleague-a-", "catleague-b-"))
        ]
    workers = {h for (h,) in site.query("SELECT hostname FROM arena_workerbeat")}
    assert {"worker@machine-a", "worker@machine-b"} <= workers
    print(
        f"\ntwo machines: {MATCHES} matches ({ladder_matches} ladder) in "
        f"{time.monotonic() - begun:.0f} s; played again after a kill: {len(replayed)}; "
        f"all settled {time.monotonic() - kills[-1]:.0f} s after the second kill "
        f"(waited {settled:.0f} s after the feeder); tasks run: A {a.tasks_done()}, "
        f"B {b.tasks_done()}"
    )
