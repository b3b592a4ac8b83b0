"""Arena services through the API with eager Celery: uploads, validation, ladders, logs."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.utils import timezone

from arena.ladders.services import ladder_schedule
from arena.matches.services import match_record, reap_stuck
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match
from ratings.elo import ZERO_SUM_TOLERANCE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def upload(client, name, code, capture):
    with capture(execute=True):
        return client.post("/api/arena/bots/", {"name": name, "source": code}, format="json")


@pytest.fixture
def three_bots(eager_celery, client_for, source, django_capture_on_commit_callbacks):
    """Ada's three copies of first_legal (one, two, three), validated and on every ladder."""
    for name in ("one", "two", "three"):
        code = source("first_legal") + f"\n# {name}\n"
        upload(client_for("ada"), name, code, django_capture_on_commit_callbacks)


def test_good_bot_is_validated_and_joins_every_ladder(
    client_for, source, django_capture_on_commit_callbacks
):
    response = upload(
        client_for("ada"), "firsty", source("first_legal"), django_capture_on_commit_callbacks
    )
    assert response.status_code == 201, response.json()
    version = BotVersion.objects.get(bot__name="firsty")
    assert version.status == "active", version.rejection
    assert Bot.objects.get(name="firsty").active_version == version
    validation = Match.objects.get(kind="validation")
    assert validation.status == "finished" and validation.sandbox_mode
    cat_lady = Ladder.objects.filter(
        game="cat-lady"
    )  # a Cat Lady bot joins only its game's ladders
    assert LadderEntry.objects.filter(version=version).count() == cat_lady.count() == 3


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("def choose(o, l):\n    return l[0\n", "Syntax error on line 2"),
        (b"\xff\xfe not utf8", "not UTF-8"),
        ("x = 1\n", "choose(observation, legal_actions)"),
        ("", "blank"),
        ("   \n", "empty"),
        (
            "def choose(o, l):\n    return 0\n" + "#" * 300_000,
            "The file is 293 KB; the limit is 256 KB.",
        ),
    ],
)
def test_unusable_uploads_are_refused_with_a_reason(client_for, code, message):
    client = client_for("ada")
    if isinstance(code, bytes):
        from django.core.files.uploadedfile import SimpleUploadedFile

        response = client.post(
            "/api/arena/bots/",
            {"name": "bad", "file": SimpleUploadedFile("bot.py", code)},
            format="multipart",
        )
    else:
        response = client.post("/api/arena/bots/", {"name": "bad", "source": code}, format="json")
    assert response.status_code == 400
    assert any(message in m for m in response.json()["fields"]["source"]), response.json()
    assert not Bot.objects.exists()


def test_bot_that_breaks_in_validation_is_rejected(
    client_for, source, django_capture_on_commit_callbacks
):
    upload(
        client_for("ada"),
        "crashy",
        "def choose(o, l):\n    raise RuntimeError('boom')\n",
        django_capture_on_commit_callbacks,
    )
    version = BotVersion.objects.get(bot__name="crashy")
    assert version.status == "rejected"
    assert "fault" in version.rejection and "boom" in version.rejection
    assert Bot.objects.get(name="crashy").active_version is None


def test_only_the_owner_uploads_versions_and_sees_source(
    client_for, source, django_capture_on_commit_callbacks, settings
):
    settings.ARENA_GAUNTLET_DEALS = 1  # v2 plays its gauntlet (6 matches) before it goes live
    upload(client_for("ada"), "firsty", source("first_legal"), django_capture_on_commit_callbacks)
    bot = Bot.objects.get()
    assert (
        client_for("bob")
        .post(
            f"/api/arena/bots/{bot.pk}/versions/", {"source": source("first_legal")}, format="json"
        )
        .status_code
        == 403
    )
    assert "source" not in client_for("bob").get(f"/api/arena/bots/{bot.pk}/versions/").json()[0]
    assert (
        "def choose"
        in client_for("ada").get(f"/api/arena/bots/{bot.pk}/versions/").json()[0]["source"]
    )
    with django_capture_on_commit_callbacks(execute=True):
        second = client_for("ada").post(
            f"/api/arena/bots/{bot.pk}/versions/",
            {"source": source("first_legal") + "\n# v2\n"},
            format="json",
        )
    assert second.status_code == 201 and second.json()["number"] == 2
    assert list(bot.versions.order_by("number").values_list("status", flat=True)) == [
        "active",
        "trial",
    ]


def test_match_log_hides_stderr_from_everyone_but_the_owner(
    client_for, django_capture_on_commit_callbacks
):
    noisy = "import sys\ndef choose(o, l):\n    print('secret plan', file=sys.stderr)\n    return l[0]\n"
    upload(client_for("ada"), "noisy", noisy, django_capture_on_commit_callbacks)
    match = Match.objects.get(kind="validation")
    mine = client_for("ada").get(f"/api/arena/matches/{match.pk}/log/").json()
    theirs = client_for("bob").get(f"/api/arena/matches/{match.pk}/log/").json()
    assert "secret plan" in mine["stderr"][0]
    assert theirs["stderr"] == [None, None]
    assert theirs["engine_log"]["seed"] == match.seed


def test_recording_a_match_twice_counts_once(
    client_for, source, django_capture_on_commit_callbacks
):
    upload(client_for("ada"), "firsty", source("first_legal"), django_capture_on_commit_callbacks)
    match = Match.objects.get()
    assert match_record(match_id=match.pk, log=match.log) is False


def test_ladder_plays_duplicate_sets_and_rates_zero_sum(
    three_bots, client_for, django_capture_on_commit_callbacks
):
    ladder = Ladder.objects.get(game="cat-lady", players=3)
    with django_capture_on_commit_callbacks(execute=True):
        matches = ladder_schedule(ladder=ladder, rng=random.Random(3))
    assert len(matches) == 3 and len({m.seed for m in matches}) == 1
    seatings = [[s.version_id for s in m.seats.order_by("seat")] for m in matches]
    assert seatings[1] == seatings[0][1:] + seatings[0][:1]
    assert all(Match.objects.get(pk=m.pk).status == "finished" for m in matches)
    entries = LadderEntry.objects.filter(ladder=ladder)
    assert sum(e.rating - 1500 for e in entries) == pytest.approx(0, abs=ZERO_SUM_TOLERANCE * 10)
    assert all(e.games == 3 for e in entries)
    assert all(sum(g for g, _ in e.seat_record.values()) == 3 for e in entries)
    standings = client_for(None).get(f"/api/arena/ladders/{ladder.pk}/standings/").json()
    assert len(standings) == 3 and standings[0]["provisional"] is True


def test_challenge_between_a_bot_and_house_bots(
    client_for, source, django_capture_on_commit_callbacks
):
    upload(client_for("ada"), "firsty", source("first_legal"), django_capture_on_commit_callbacks)
    version = BotVersion.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("bob").post(
            "/api/arena/matches/challenge/",
            {"seats": [str(version.pk), "greedy", "random"], "seed": 11},
            format="json",
        )
    assert response.status_code == 201, response.json()
    match = Match.objects.get(pk=response.json()["id"])
    assert match.status == "finished" and match.seats.count() == 3
    bad = client_for("bob").post(
        "/api/arena/matches/challenge/", {"seats": ["nobody", "random"]}, format="json"
    )
    assert bad.status_code == 400 and "seats.0" in bad.json()["fields"]


def test_stuck_matches_are_replayed_then_failed(authors):
    match = Match.objects.create(
        kind="challenge",
        seed=1,
        status="running",
        attempts=1,
        started_at=timezone.now() - dt.timedelta(hours=1),
    )
    match.seats.create(seat=0, builtin="random")
    match.seats.create(seat=1, builtin="random")
    reap_stuck(older_than=dt.timedelta(minutes=10))
    match.refresh_from_db()
    assert match.status == "queued"
    Match.objects.filter(pk=match.pk).update(
        status="running", attempts=3, started_at=timezone.now() - dt.timedelta(hours=1)
    )
    reap_stuck(older_than=dt.timedelta(minutes=10))
    match.refresh_from_db()
    assert match.status == "failed" and "stuck" in match.failure


def test_round_robin_tournament_runs_to_the_end(
    three_bots, client_for, django_capture_on_commit_callbacks
):
    ids = list(BotVersion.objects.values_list("pk", flat=True))
    body = {"name": "Cup", "format": "round_robin", "table_size": 2, "entrants": ids, "seed": 5}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("bob").post("/api/arena/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    tournament_id = response.json()["id"]
    standings = client_for(None).get(f"/api/arena/tournaments/{tournament_id}/standings/").json()
    assert standings["status"] == "finished"
    points = [row["points"] for row in standings["rounds"][-1]["standings"]]
    assert sum(points) == pytest.approx(6)  # 3 tables x 2 seat rotations, 1 point each
