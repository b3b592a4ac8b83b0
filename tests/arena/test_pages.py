"""Arena pages: what everyone sees, what only a bot's owner sees, and the upload forms."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client, TestCase

from arena.common import SeatInput
from arena.ladders.services import ladder_schedule
from arena.matches.services import challenge_create
from arena.models import Bot, BotVersion, Ladder, Match
from arena.runner import MAX_BOT_BYTES
from arena.submissions.services import bot_create
from arena.tournaments.services import tournament_placings
from config.celery import app as celery_app
from tests.arena.tournaments import tournament_played

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

# Passes its (two-player) validation match, then breaks at a three-player table, writing a
# marker to stderr first: the fault list and stderr are its owner's business only.
TALKATIVE = """import sys


def choose(observation, legal_actions):
    print("STDERR-MARK turn", observation["turn"], file=sys.stderr)
    if observation["players"] == 3:
        raise RuntimeError("SECRET-FAULT-REASON")
    return 0
"""
STEADY = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"


def clients_for(users) -> dict[str | None, Client]:
    """A client per user, logged in, and an anonymous one (``None``)."""
    made = {None: Client()}
    for name, user in users.items():
        made[name] = Client()
        made[name].force_login(user)
    return made


@pytest.fixture
def clients(authors):
    return clients_for(authors)


def arena_build(ada, bob, capture) -> dict:
    """ada's talkative bot and bob's steady one, both active, a 3-player challenge where the
    talkative bot faults, and a few 2-player ladder matches. ``capture`` is pytest-django's
    ``django_capture_on_commit_callbacks`` (or ``TestCase.captureOnCommitCallbacks``)."""
    with capture(execute=True):
        talky = bot_create(owner=ada, name="talky", source=TALKATIVE)
        steady = bot_create(owner=bob, name="steady", source=STEADY)
    talky.refresh_from_db()
    steady.refresh_from_db()
    assert talky.active_version and steady.active_version
    with capture(execute=True):
        challenge = challenge_create(
            seats=[
                SeatInput(version=talky.active_version),
                SeatInput(version=steady.active_version),
                SeatInput(builtin="greedy"),
            ],
            by=bob,
            seed=5,
        )
        ladder = Ladder.objects.get(game="cat-lady", players=2)
        ladder_schedule(ladder=ladder, rng=random.Random(2))
    challenge.refresh_from_db()
    assert challenge.status == Match.Status.FINISHED
    return {"talky": talky, "steady": steady, "challenge": challenge, "ladder": ladder}


@pytest.fixture
def arena(authors, django_capture_on_commit_callbacks):
    """The arena of ``arena_build``, built for one test (the fixture other files import)."""
    return arena_build(authors["ada"], authors["bob"], django_capture_on_commit_callbacks)


@contextmanager
def kept_for_the_module(django_db_blocker) -> Iterator[None]:
    """For a module-scoped fixture that builds with real sandboxed bots (seconds of CPU per
    match): what it builds inside the block stays while the module's tests run, each in its
    own transaction nested in this one and rolled back after it, and is rolled back when the
    module ends. The database stays open meanwhile: use it where every test is ``django_db``."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


@contextmanager
def celery_eager() -> Iterator[None]:
    """Tasks run at once, in the caller: the ``eager_celery`` fixture, for a module's set-up."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous


def cast_create() -> dict:
    """ada and bob, as tests/arena/conftest.py's ``authors`` makes them."""
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password="pw-123456789") for name in ("ada", "bob")
    }


@pytest.fixture(scope="module")
def arena_once(django_db_setup, django_db_blocker):
    """The cast and the arena, played once for the whole module: its tests only read them,
    and what a test writes is rolled back after it. Primary keys only; ``shared_arena`` reads
    the rows afresh for each test."""
    with kept_for_the_module(django_db_blocker):
        with celery_eager():
            cast = cast_create()
            built = arena_build(cast["ada"], cast["bob"], TestCase.captureOnCommitCallbacks)
        yield {
            "cast": {name: user.pk for name, user in cast.items()},
            **{key: row.pk for key, row in built.items()},
        }


@pytest.fixture
def authors(arena_once, db):
    """ada and bob of the module's arena (tests/arena/conftest.py's would make them again)."""
    User = get_user_model()
    return {name: User.objects.get(pk=pk) for name, pk in arena_once["cast"].items()}


@pytest.fixture
def shared_arena(arena_once, db):
    """The module's arena (``arena_build``) as a test sees it: rows read afresh, and an empty
    cache, as when each test played its own (a replay is cached by match and finish time, and
    a test may rewrite a match's log)."""
    cache.clear()
    return {
        "talky": Bot.objects.get(pk=arena_once["talky"]),
        "steady": Bot.objects.get(pk=arena_once["steady"]),
        "challenge": Match.objects.get(pk=arena_once["challenge"]),
        "ladder": Ladder.objects.get(pk=arena_once["ladder"]),
    }


def upload(client, bot, content, capture, name="bot.py"):
    with capture(execute=True):
        return client.post(f"/arena/bots/{bot}/", {"file": SimpleUploadedFile(name, content)})


def field_errors(response, field="file"):
    html = response.content.decode()
    found = re.search(rf'id="id_{field}_error">(.*?)</div>', html, re.S)
    return found.group(1) if found else ""


# --- public pages ----------------------------------------------------------------------------


def test_home_lists_ladders_matches_and_tournaments(
    clients, shared_arena, authors, django_capture_on_commit_callbacks
):
    tournament_played(
        django_capture_on_commit_callbacks,
        name="Spring Cup",
        organiser=authors["bob"],
        entrants=[shared_arena["talky"].active_version, shared_arena["steady"].active_version],
        table_size=2,
        format="round_robin",
        seed=3,
    )
    html = clients[None].get("/arena/").content.decode()
    for text in (
        "Cat Lady, 2 players",
        "Cat Lady, 4 players",
        "talky",
        "steady",
        "Spring Cup",
        f'href="/arena/matches/{shared_arena["challenge"].pk}/"',
    ):
        assert text in html
    assert "provisional" in html


def test_ladder_page_shows_ratings_games_and_seat_win_rates(clients, shared_arena):
    ladder = shared_arena["ladder"]
    response = clients[None].get(f"/arena/ladders/{ladder.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    rows = re.findall(
        r"<tr>\s*<td class=\"num\">(\d+)</td>\s*<td><a href=\"/arena/bots/(\w+)/\"", html
    )
    assert [name for _, name in rows] and {name for _, name in rows} == {"talky", "steady"}
    entry = ladder.entries.select_related("version__bot").order_by("-rating").first()
    assert rows[0][1] == entry.version.bot.name
    assert "Seat 1" in html and "Seat 2" in html
    wins = entry.wins
    assert f"{wins * 100 // entry.games}%" in html or f"{round(wins * 100 / entry.games)}%" in html
    assert clients[None].get("/arena/ladders/9999/").status_code == 404


def test_bot_page_shows_versions_rates_chart_and_recent_matches(clients, shared_arena):
    html = clients[None].get("/arena/bots/steady/").content.decode()
    version = shared_arena["steady"].active_version
    assert version.sha256[:12] in html and "v1" in html and "Active" in html
    assert "2 players" in html and '<svg class="chart-svg"' in html
    assert f"/arena/matches/{shared_arena['challenge'].pk}/" in html
    assert clients[None].get("/arena/bots/nobody/").status_code == 404


def test_match_page_without_javascript_has_result_moves_and_score_pad(clients, shared_arena):
    match = shared_arena["challenge"]
    html = clients[None].get(f"/arena/matches/{match.pk}/").content.decode()
    assert "Score pad" in html and "Fed cats" in html and "Feeding chosen" in html
    moves = re.findall(r'<li id="move-\d+" data-move="\d+">', html)
    assert len(moves) == len(match.log["steps"])
    assert 'src="/static/js/replay.js"' in html
    data = json.loads(
        re.search(
            r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    assert data["renderer"] == "cat-lady" and len(data["frames"]) == len(moves) + 1
    assert data["names"][2] == "house:greedy"


def test_match_of_an_unknown_game_still_shows_moves_and_result(clients, shared_arena):
    match = shared_arena["challenge"]
    log = dict(
        match.log,
        game="mystery-cats",
        engine_log=dict(match.log["engine_log"], game="mystery-cats"),
    )
    Match.objects.filter(pk=match.pk).update(log=log)
    html = clients[None].get(f"/arena/matches/{match.pk}/").content.decode()
    assert "mystery-cats" in html and "cannot be replayed" in html
    assert len(re.findall(r'<li id="move-\d+"', html)) == len(log["steps"])
    assert "Score pad" in html


def test_queued_match_page_lists_its_players(clients, authors):
    match = Match.objects.create(kind="challenge", seed=1)
    match.seats.create(seat=0, builtin="random")
    match.seats.create(seat=1, builtin="greedy")
    html = clients[None].get(f"/arena/matches/{match.pk}/").content.decode()
    assert (
        "Queued" in html
        and 'house:greedy</span> <span class="badge">house bot</span>' in html
        and "replay-data" not in html
    )


def test_matches_list_filters_by_status(clients, shared_arena):
    assert clients[None].get("/arena/matches/?status=finished").status_code == 200
    html = clients[None].get("/arena/matches/?status=queued").content.decode()
    assert "No matches yet." in html


# --- owner only --------------------------------------------------------------------------------


def test_only_the_owner_sees_source_faults_and_stderr(clients, shared_arena):
    match = shared_arena["challenge"]
    assert match.seats.get(seat=0).faults > 0
    for viewer in (None, "bob"):
        bot_page = clients[viewer].get("/arena/bots/talky/").content.decode()
        match_page = clients[viewer].get(f"/arena/matches/{match.pk}/").content.decode()
        for page in (bot_page, match_page):
            assert "STDERR-MARK" not in page and "SECRET-FAULT-REASON" not in page
        assert "View source" not in bot_page and "Upload a new version" not in bot_page
        assert clients[viewer].get("/arena/bots/talky/v1/source/").status_code == 404
    bot_page = clients["ada"].get("/arena/bots/talky/").content.decode()
    assert "STDERR-MARK" in bot_page and "SECRET-FAULT-REASON" in bot_page
    assert "Upload a new version" in bot_page
    match_page = clients["ada"].get(f"/arena/matches/{match.pk}/").content.decode()
    assert "STDERR-MARK" in match_page and "Your bot's faults and stderr" in match_page
    source = clients["ada"].get("/arena/bots/talky/v1/source/").content.decode()
    assert "SECRET-FAULT-REASON" in source and "def choose" in source


def test_a_visitor_cannot_upload_to_someone_elses_bot(
    clients, shared_arena, django_capture_on_commit_callbacks
):
    response = upload(clients["bob"], "talky", STEADY.encode(), django_capture_on_commit_callbacks)
    assert response.status_code == 403
    assert BotVersion.objects.filter(bot__name="talky").count() == 1


# --- upload form -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"def choose(o, l):\n    return 0\n" + b"#" * MAX_BOT_BYTES, "the limit is 256 KB"),
        (b"\xff\xfe not utf-8", "not UTF-8 text"),
        (b"def choose(o, l):\n    return l[0\n", "Syntax error on line 2"),
        (b"x = 1\n", "choose(observation, legal_actions)"),
    ],
)
def test_unusable_uploads_are_refused_beside_the_file_field(
    clients, shared_arena, content, message, django_capture_on_commit_callbacks
):
    response = upload(clients["ada"], "talky", content, django_capture_on_commit_callbacks)
    assert response.status_code == 400
    assert message in field_errors(response)
    assert 'aria-invalid="true"' in response.content.decode()
    assert BotVersion.objects.filter(bot__name="talky").count() == 1


def test_upload_without_a_file_asks_for_one(clients, shared_arena):
    response = clients["ada"].post("/arena/bots/talky/", {})
    assert response.status_code == 400 and "required" in field_errors(response)


def test_a_version_that_crashes_in_validation_is_reported_beside_the_form(
    clients, shared_arena, django_capture_on_commit_callbacks
):
    crashing = (
        b"def choose(observation, legal_actions):\n    raise ValueError('kaboom-in-validation')\n"
    )
    response = upload(clients["ada"], "talky", crashing, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    html = clients["ada"].get("/arena/bots/talky/").content.decode()
    status = re.search(r'id="latest-status"[^>]*>(.*?)</p>\s*<pre[^>]*>(.*?)</pre>', html, re.S)
    assert "v2" in status.group(1) and "rejected" in status.group(1)
    assert "kaboom-in-validation" in status.group(2)
    bot = Bot.objects.get(name="talky")
    assert bot.active_version.number == 1  # the rejected version never replaces it


def test_a_good_upload_plays_its_gauntlet_before_it_replaces_the_active_version(
    clients, shared_arena, django_capture_on_commit_callbacks, settings
):
    settings.ARENA_GAUNTLET_DEALS = 1
    response = upload(clients["ada"], "talky", STEADY.encode(), django_capture_on_commit_callbacks)
    assert response.status_code == 302 and response["Location"] == "/arena/bots/talky/"
    page = clients["ada"].get("/arena/bots/talky/")
    html = page.content.decode()
    assert "Version 2 uploaded." in html
    assert "passed validation and plays its" in html
    assert 'href="/arena/bots/talky/v2/gauntlet/"' in html
    statuses = dict(BotVersion.objects.filter(bot__name="talky").values_list("number", "status"))
    assert statuses == {1: "active", 2: "trial"}


# --- new bot form ------------------------------------------------------------------------------


def test_new_bot_needs_a_login(clients):
    response = clients[None].get("/arena/bots/new/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_new_bot_is_created_and_validated(clients, django_capture_on_commit_callbacks):
    page = clients["ada"].get("/arena/bots/new/").content.decode()
    assert "starter" in page and "def choose" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["ada"].post(
            "/arena/bots/new/",
            {
                "name": "fresh",
                "description": "hello",
                "file": SimpleUploadedFile("fresh.py", STEADY.encode()),
            },
        )
    assert response.status_code == 302 and response["Location"] == "/arena/bots/fresh/"
    bot = Bot.objects.get(name="fresh")
    assert bot.owner.username == "ada" and bot.active_version.status == "active"


def test_new_bot_form_errors_sit_beside_their_fields(clients, shared_arena):
    response = clients["ada"].post(
        "/arena/bots/new/",
        {
            "name": "talky",
            "file": SimpleUploadedFile("x.py", STEADY.encode()),
        },
    )
    assert response.status_code == 400 and "already exists" in field_errors(response, "name")
    response = clients["ada"].post(
        "/arena/bots/new/",
        {
            "name": "not a slug!",
            "file": SimpleUploadedFile("x.py", b"\xff\xfe"),
        },
    )
    assert response.status_code == 400 and field_errors(response, "name")
    response = clients["ada"].post(
        "/arena/bots/new/",
        {
            "name": "broken",
            "file": SimpleUploadedFile("x.py", b"def choose(:\n"),
        },
    )
    assert response.status_code == 400 and "Syntax error" in field_errors(response)
    assert not Bot.objects.filter(name="broken").exists()


# --- tournaments -------------------------------------------------------------------------------


def test_tournament_page_shows_rounds_final_table_and_places(
    clients, shared_arena, authors, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        greedyish = bot_create(
            owner=authors["bob"],
            name="third",
            source=(
                "def choose(observation, legal_actions):\n    return len(legal_actions) // 2\n"
            ),
        )
    greedyish.refresh_from_db()
    entrants = [
        shared_arena["talky"].active_version,
        shared_arena["steady"].active_version,
        greedyish.active_version,
    ]
    tournament = tournament_played(
        django_capture_on_commit_callbacks,
        name="Final Cup",
        organiser=authors["bob"],
        entrants=entrants,
        table_size=2,
        format="swiss",
        rounds=2,
        final_size=2,
        seed=8,
    )
    assert tournament.status == "finished"
    html = clients[None].get(f"/arena/tournaments/{tournament.pk}/").content.decode()
    assert "After round 1" in html and "After round 2" in html
    assert "Final table" in html and "Final places" in html
    placings = tournament_placings(tournament)
    first = re.search(r'<table class="placings">.*?<a href="/arena/bots/(\w+)/"', html, re.S)
    assert first.group(1) == placings[0].version.bot.name
    assert clients[None].get("/arena/tournaments/999/").status_code == 404


def test_matches_of_one_duplicate_set(clients, shared_arena):
    ladder_match = Match.objects.filter(kind="ladder").first()
    html = clients[None].get(f"/arena/matches/?set={ladder_match.duplicate_set}").content.decode()
    shown = set(re.findall(r'href="/arena/matches/(\d+)/"', html))
    expected = {
        str(pk)
        for pk in Match.objects.filter(duplicate_set=ladder_match.duplicate_set).values_list(
            "pk", flat=True
        )
    }
    assert shown == expected and len(expected) == 2


def test_a_match_this_engine_cannot_replay_shows_moves_result_and_its_deck_label(clients, authors):
    from arena.runner import run_match

    log = run_match(game="cantankerous-cats", seed=3, bots=["random", "random", "random"])
    log["engine_log"]["version"] = "99"  # rules this engine does not have (a newer release's)
    match = Match.objects.create(
        kind="challenge", seed=3, game="cantankerous-cats", status=Match.Status.FINISHED, log=log
    )
    for seat in range(3):
        match.seats.create(
            seat=seat,
            builtin="random",
            score=log["result"]["scores"][seat],
            rank=log["result"]["ranks"][seat],
        )
    html = clients[None].get(f"/arena/matches/{match.pk}/").content.decode()
    assert "cannot be replayed here" in html and "version &#x27;99&#x27;" in html
    assert len(re.findall(r'<li id="move-\d+"', html)) == len(log["steps"])
    assert "demo deck" in html and "Feeding chosen" not in html


def test_long_ladders_are_paged_with_positions_from_the_whole_ladder(
    clients, shared_arena, monkeypatch
):
    from arena.ladders import views

    monkeypatch.setattr(views, "LADDER_PAGE_SIZE", 1)
    ladder = shared_arena["ladder"]
    second = clients[None].get(f"/arena/ladders/{ladder.pk}/?page=2").content.decode()
    positions = re.findall(r'<tr>\s*<td class="num">(\d+)</td>', second)
    assert positions == ["2"] and "Positions 2–2 of 2" in second and "Higher ranks" in second


def test_site_home_shows_the_arena_ladders_with_bots_and_recent_matches(clients, shared_arena):
    html = clients[None].get("/").content.decode()
    section = html[html.index('id="arena-heading"') :]
    assert "Cat Lady, 2 players" in section and "Cantankerous" not in section
    assert "/arena/bots/talky/" in section and "/arena/bots/steady/" in section
    latest = (
        Match.objects.filter(status="finished").exclude(kind="validation").latest("finished_at")
    )
    assert f'href="/arena/matches/{latest.pk}/"' in section
    assert "css/arena.css" in html[: html.index("</head>")]
