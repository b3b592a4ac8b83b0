"""Issue 29: a database made before the league and arena became rooms keeps working. The last
commit of the old layout, checked out beside this one, runs its own migrations and fills a
club (games, a night with rounds, an OpenSkill league, bots, ladder and tournament matches);
then this tree migrates the same database and must show the same standings, rating histories,
nights, ladders and replays, through the API and the match pages.

Both trees run in subprocesses (`python manage.py`, this virtualenv's python: requirements.txt
has only gained OR-Tools since the old layout), on SQLite in a var/ folder of their own and,
when the tests run on PostgreSQL, in a database of their own on the same server. The
fingerprint is code that runs unchanged under both trees, so it reads only what both serve:
the REST API, the match page's replay data and the models' row counts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.arena.bots import safe_modes, sandbox_missing
from tests.test_backup import club_env

ROOT = Path(__file__).resolve().parents[1]

# beb2274^ (the league's rooms came in beb2274, the arena's in e01a7d0): issue 29's "today's main".
OLD_LAYOUT = "037974f44d192f03cd459c0fef6cbdfff705ac2b"

# Run by the old tree only, in one process (each manage.py start costs seconds of CPU, and
# this test is about the migrations of today's tree, not about the old tree's commands). Its
# own migrations, then, with Celery eager so that every match queued is played in this process
# (in the sandbox for uploaded bots) when its transaction commits: the demo club first (its
# league, house-bot matches and three bots), then more of what a club has.
MIGRATED = """
from django.core.management import call_command

call_command("migrate", interactive=False, verbosity=0)
"""
SEED_DEMO = """
call_command("seed_demo")
"""
FILL_THE_CLUB = """
import datetime as dt
import random
from pathlib import Path

from django.contrib.auth import get_user_model
from django.utils import timezone

from arena import services as arena
from arena.models import Bot, Match
from league import night_seating, nights, services
from league.models import League

organiser = get_user_model().objects.get(username="demo")
demo = League.objects.get(slug="demo-club")
today = timezone.localdate()

# A night of the demo league: six people, both rounds drawn, every table's game in.
present = [m.player for m in demo.memberships.select_related("player").order_by("pk")[:6]]
night = nights.night_open(
    league=demo, by=organiser, played_on=today, edition="base", rounds=2, present=present, seed=5
)
for _ in range(2):
    for table in nights.round_draw(night=night, by=organiser).tables.order_by("pk"):
        seated = night_seating.table_setup(table)
        nights.table_game_record(
            table=table,
            logged_by=organiser,
            played_on=night.played_on,
            participants=[
                services.ParticipantInput(
                    player_id=player_id,
                    seat=seat,
                    result={"total_vp": 30 - 2 * seat + table.pk % 3, "fed_cats": 3},
                )
                for seat, player_id in enumerate(seated, start=1)
            ],
        )

# A private OpenSkill league of guests: games out of date order, one corrected, one deleted.
other = services.league_create(
    name="Upgrade Club", slug="upgrade-club", by=organiser, is_public=False,
    rating_system="openskill",
)
guests = [
    services.guest_add(league=other, name=f"Upgrade guest {i}", by=organiser).player
    for i in range(5)
]
rng = random.Random(29)
games = []
for days_ago in (40, 30, 20, 10, 35):
    seated = rng.sample(guests, 3 + days_ago % 2)
    games.append(services.game_record(
        league=other,
        logged_by=organiser,
        played_on=today - dt.timedelta(days=days_ago),
        participants=[
            services.ParticipantInput(
                player_id=p.pk,
                seat=seat,
                result={"total_vp": rng.randrange(10, 40), "fed_cats": rng.randrange(6)},
            )
            for seat, p in enumerate(seated, start=1)
        ],
    ))
services.game_edit(game=games[1], by=organiser, notes="corrected", participants=[
    services.ParticipantInput(
        player_id=p.player_id, seat=p.seat,
        result={**p.result, "total_vp": p.result["total_vp"] + 5},
    )
    for p in games[1].participants.order_by("seat")
])
services.game_delete(game=games[2], by=organiser)

# The arena: a third Cat Lady bot (so the 3-player ladder plays too), two ladder ticks and a
# round-robin tournament of the three.
arena.bot_create(
    owner=organiser, name="upgrade-random-c", game="cat-lady",
    source=Path("arena/botkit/starter_bot.py").read_text(),
)
for _ in range(2):
    arena.ladder_tick()
arena.tournament_start(
    name="Upgrade cup", organiser=organiser, format="round_robin", table_size=2, seed=29,
    entrants=[b.active_version for b in Bot.objects.filter(game="cat-lady").order_by("pk")],
)

# Every game gets its own time of day, in the order of entry, and the ratings are rebuilt.
# Games on one day with no time were rated in the order of a digest of their content in this
# layout, and since issue 26 in the order of play (round, then entry): a change made on purpose,
# after which an upgraded club runs `rebuild_ratings --all` (docs/install.md). With times, both
# trees put the games in the same order, so everything else must come out the same.
from django.core.management import call_command
from league.models import Game

for index, game in enumerate(Game.objects.order_by("pk")):
    Game.objects.filter(pk=game.pk).update(played_time=dt.time(8 + index // 60, index % 60))
call_command("rebuild_ratings", "--all")
"""

# Run by the old tree after it filled the club on SQLite: every row but the ones its migrations
# make themselves (content types and permissions, referred to by their natural keys), as JSON in
# the file ROWS. The PostgreSQL test loads them into the schema the old tree's migrations make
# there, so the club's matches are played once, not once per database: the upgrade under test
# is the same, the migrations of today's tree over the old schema with a full club in it.
DUMPED = """
call_command(
    "dumpdata", "--natural-foreign", "--exclude=contenttypes", "--exclude=auth.permission",
    "--output", ROWS, verbosity=0,
)
"""
LOADED = """
call_command("loaddata", ROWS, verbosity=0)
"""

# Run by this tree before its fingerprint: no migration left unapplied, and the system checks
# pass (`check` raises SystemCheckError on an error).
CHECKED = """
import io
from django.core.management import call_command

plan = io.StringIO()
call_command("showmigrations", "--plan", stdout=plan)
assert "[X]" in plan.getvalue() and "[ ]" not in plan.getvalue(), plan.getvalue()
call_command("check")
"""

# Run by both trees: what a club sees, as JSON in the file OUT (set on the line before).
FINGERPRINT = """
import json
import re

import engine.catlady.frames
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

# A replay leaves out running scores that take longer than a time budget to work out: with
# none, the same log always gives the same replay, however busy the machine.
engine.catlady.frames.RUNNING_SCORE_BUDGET_S = float("inf")
cache.clear()  # nothing served from what the other tree worked out
client = Client(HTTP_ACCEPT="application/json")
client.force_login(get_user_model().objects.get(username="demo"))  # organiser of every league


def get(url):
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code, response.content[:500])
    return response


def rows(url):
    found, page = [], get(url).json()
    if isinstance(page, list):  # not paginated
        return page
    while True:
        found += page["results"]
        if not page["next"]:
            return found
        page = get(page["next"]).json()


# Every table's rows, but the log-in's own bookkeeping (its session, django-axes' log entry)
# and Django's list of the models themselves (a model added since has its own permissions).
seen = {
    "rows": {
        m._meta.label: m._default_manager.count()
        for m in apps.get_models()
        if m._meta.app_label not in ("sessions", "axes")
        and m._meta.label not in ("auth.Permission", "contenttypes.ContentType")
    }
}
seen["leagues"] = rows("/api/leagues/")
for league in seen["leagues"]:
    at = f"/api/leagues/{league['id']}"
    seen[f"league {league['slug']}"] = {
        "standings": get(f"{at}/standings/").json(),
        "seasons": {
            season["name"]: get(f"{at}/standings/?season={season['id']}").json()
            for season in rows(f"{at}/seasons/")
        },
        "members": rows(f"{at}/members/"),
        "games": rows(f"/api/games/?league={league['id']}"),
        "histories": {
            player["name"]: rows(f"/api/players/{player['id']}/ratings/?league={league['id']}")
            for player in rows(f"/api/players/?league={league['id']}")
        },
        "nights": [
            get(f"/api/nights/{night['id']}/").json()
            for night in rows(f"/api/nights/?league={league['id']}")
        ],
    }
seen["ladders"] = {
    ladder["name"]: get(f"/api/arena/ladders/{ladder['id']}/standings/").json()
    for ladder in rows("/api/arena/ladders/")
}
seen["bots"] = {
    bot["name"]: rows(f"/api/arena/bots/{bot['id']}/versions/") for bot in rows("/api/arena/bots/")
}
seen["tournaments"] = {
    t["name"]: get(f"/api/arena/tournaments/{t['id']}/standings/").json()
    for t in rows("/api/arena/tournaments/")
}
seen["matches"] = {}
for match in rows("/api/arena/matches/"):
    page = get(f"/arena/matches/{match['id']}/").content.decode()
    data = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', page, re.S)
    seen["matches"][str(match["id"])] = {
        "match": match,
        "log": get(f"/api/arena/matches/{match['id']}/log/").json(),
        "replay": json.loads(data.group(1)) if data else None,
    }
with open(OUT, "w") as out:
    json.dump(seen, out, sort_keys=True, default=str)
"""


# --- the two trees, each with its own `manage.py` --------------------------------------------


def git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def old_tree(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The old layout checked out beside this repository (a detached worktree), removed after."""
    if shutil.which("git") is None:
        pytest.fail(
            "git is needed to check out the old layout (apt-get install git)", pytrace=False
        )
    found = git("cat-file", "-e", f"{OLD_LAYOUT}^{{commit}}")
    if found.returncode != 0:
        pytest.fail(
            f"commit {OLD_LAYOUT} (the last of the old layout) is not in the repository at "
            f"{ROOT}: run the tests in a full clone (git fetch --unshallow). {found.stderr}",
            pytrace=False,
        )
    tree = tmp_path_factory.mktemp("old-layout") / "old"
    git("worktree", "prune")  # the checkouts of runs that were killed before removing theirs
    added = git("worktree", "add", "--detach", str(tree), OLD_LAYOUT)
    assert added.returncode == 0, added.stderr
    try:
        yield tree
    finally:
        git("worktree", "remove", "--force", str(tree))
        git("worktree", "prune")


def manage(
    tree: Path, env: dict[str, str], *args: str, eager: bool = False
) -> subprocess.CompletedProcess[str]:
    """`python manage.py ...` in ``tree`` (the old layout's checkout, or this repository)."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=tree,
        env={**env, "CELERY_TASK_ALWAYS_EAGER": "1"} if eager else env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"manage.py {args[0]} in {tree}:\n{done.stdout}\n{done.stderr}"
    return done


def fingerprint(
    tree: Path, env: dict[str, str], out: Path, first: str = "", eager: bool = False
) -> dict[str, Any]:
    """The FINGERPRINT of the club in ``env`` as ``tree`` serves it, after the code ``first``."""
    script = f"{first}\nOUT = {str(out)!r}\n{FINGERPRINT}"
    manage(tree, env, "shell", "-v", "0", "-c", script, eager=eager)
    seen: dict[str, Any] = json.loads(out.read_text())
    return seen


def assert_a_full_club(seen: dict[str, Any]) -> None:
    """Everything the comparison is about is there, so an empty database cannot pass."""
    demo, other = seen["league demo-club"], seen["league upgrade-club"]
    assert [league["slug"] for league in seen["leagues"]] == ["demo-club", "upgrade-club"]
    assert len(demo["games"]) == 44 and len(other["games"]) == 4
    assert len(demo["standings"]) >= 8 and len(other["standings"]) == 5
    assert demo["seasons"] and all(demo["seasons"].values())
    for league in (demo, other):  # a rating history entry for every seat of every game
        entries = sum(len(history) for history in league["histories"].values())
        assert entries == sum(len(game["participants"]) for game in league["games"])
    assert len(demo["histories"]) >= 8 and len(other["histories"]) == 6
    [night] = demo["nights"]
    assert len(night["rounds"]) == 2 and all(len(r["tables"]) == 2 for r in night["rounds"])
    assert night["standings"]
    matches = seen["matches"].values()
    kinds = [m["match"]["kind"] for m in matches]
    assert kinds.count("ladder") >= 8 and kinds.count("tournament") == 6
    assert all(m["match"]["status"] == "finished" for m in matches)
    assert all(m["log"]["steps"] for m in matches)
    assert all(m["replay"] and m["replay"]["frames"] and m["replay"]["moves"] for m in matches)
    assert sum(s["games"] for ladder in seen["ladders"].values() for s in ladder) >= 16
    assert len(seen["bots"]) == 4
    assert all(v["status"] == "active" for versions in seen["bots"].values() for v in versions)
    [cup] = seen["tournaments"].values()
    assert cup["status"] == "finished" and len(cup["placings"]) == 3


class OldClub(NamedTuple):
    var: Path  # the old tree's var/ with its SQLite database, not yet upgraded
    rows: Path  # the club's rows, dumped by the old tree (DUMPED)
    seen: dict[str, Any]  # the old tree's fingerprint of it


@pytest.fixture(scope="module")
def old_club(old_tree: Path, tmp_path_factory: pytest.TempPathFactory) -> OldClub:
    """The club the old tree made on SQLite, made once for both tests."""
    work = tmp_path_factory.mktemp("old-club")
    rows = work / "rows.json"
    env = club_env(work / "var")
    made = MIGRATED + SEED_DEMO + FILL_THE_CLUB + f"ROWS = {str(rows)!r}\n" + DUMPED
    seen = fingerprint(old_tree, env, work / "before.json", first=made, eager=True)
    assert_a_full_club(seen)
    return OldClub(work / "var", rows, seen)


def upgrade_and_compare(before: dict[str, Any], env: dict[str, str], work: Path) -> None:
    """Today's tree migrates the old tree's club in ``env`` (a real `manage.py migrate`, as an
    upgrade runs it) and must serve what the old tree served, ``before``."""
    manage(ROOT, env, "migrate", "--noinput", "-v", "0")
    # One process for the checks and the fingerprint: each manage.py start costs over a second.
    after = as_seen_before(before, fingerprint(ROOT, env, work / "after.json", first=CHECKED))
    after, before = without_reworded(after), without_reworded(before)
    assert after == before, first_difference(before, after)


# Texts of the replay that name cards by their printed names since the old layout (issue 27):
# the same events and Pounce choices, told in other words, from the same logs.
REWORDED = {"events", "choices", "my_choice"}


def without_reworded(seen: Any, in_replay: bool = False) -> Any:
    """``seen`` without the replay's reworded texts (everything else of the replay stays)."""
    if isinstance(seen, dict):
        return {
            key: without_reworded(value, in_replay or key == "replay")
            for key, value in seen.items()
            if not (in_replay and key in REWORDED)
        }
    if isinstance(seen, list):
        return [without_reworded(value, in_replay) for value in seen]
    return seen


def as_seen_before(before: Any, after: Any) -> Any:
    """`after` in `before`'s shape: fields added since (a game's uuid, its night round) are left
    out; every value shown before must still be there, unchanged, in the same order."""
    if isinstance(before, dict) and isinstance(after, dict):
        return {key: as_seen_before(before[key], after.get(key)) for key in before}
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        return [as_seen_before(old, new) for old, new in zip(before, after, strict=True)]
    return after


def first_difference(before: Any, after: Any, where: str = "") -> str:
    """Where two fingerprints first differ, and how (pytest's own diff of them is pages long)."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in sorted(before.keys() | after.keys()):
            if before.get(key) != after.get(key):
                return first_difference(before.get(key), after.get(key), f"{where}[{key!r}]")
    if isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                return first_difference(old, new, f"{where}[{index}]")
    return f"at {where or 'the top'}: {before!r:.300} became {after!r:.300}"


@pytest.fixture(autouse=True)
def sandbox() -> None:
    """The old tree validates and plays uploaded bots in the sandbox, as the arena would."""
    if not safe_modes():
        sandbox_missing("no safe sandbox mode here")


def test_sqlite_database_of_the_old_layout_migrates_with_the_same_standings_and_replays(
    old_club: OldClub, tmp_path: Path
) -> None:
    shutil.copytree(
        old_club.var, tmp_path / "var"
    )  # the fixture's own stays as the old tree left it
    upgrade_and_compare(old_club.seen, club_env(tmp_path / "var"), tmp_path)


def test_postgresql_database_of_the_old_layout_migrates_with_the_same_standings_and_replays(
    old_tree: Path, old_club: OldClub, tmp_path: Path
) -> None:
    server = urlsplit(os.environ.get("DATABASE_URL", ""))
    if not server.scheme.startswith("postgres"):
        pytest.skip("the PostgreSQL upgrade test needs DATABASE_URL to name a PostgreSQL server")
    name = f"{server.path.strip('/')}_upgrade_{os.getpid()}"
    admin = urlunsplit(server._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        env = club_env(tmp_path / "var")
        env["DATABASE_URL"] = urlunsplit(server._replace(path=f"/{name}"))
        # The old tree's schema on PostgreSQL, with the club it made on SQLite loaded into it;
        # its fingerprint read there (ties may sort otherwise than on SQLite).
        loaded = MIGRATED + f"ROWS = {str(old_club.rows)!r}\n" + LOADED
        before = fingerprint(old_tree, env, tmp_path / "before.json", first=loaded)
        assert_a_full_club(before)
        upgrade_and_compare(before, env, tmp_path)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
