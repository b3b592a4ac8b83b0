"""Submit, validate, schedule, play and rate through a real Celery worker, Redis and PostgreSQL."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.common import default_limits
from arena.ladders.services import ladder_schedule, ladders_ensure
from arena.matches.services import match_record, reap_stuck
from arena.models import BotVersion, Ladder, LadderEntry, Match
from tests.workers import Worker, own_queue

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
ROOT = Path(__file__).resolve().parents[2]


def _wait(condition, timeout=120.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.3)
    pytest.fail(f"timed out waiting for {what}")


@pytest.fixture
def worker():
    with own_queue() as queue:
        process = Worker(queue).start()
        try:
            yield process
        finally:
            process.stop()


def test_submit_validate_schedule_play_and_rate(worker, client_for, source):
    ladders_ensure()  # an earlier transactional test may have flushed them
    client = client_for("ada")
    for name in ("alpha", "beta"):
        response = client.post(
            "/api/arena/bots/",
            {"name": name, "source": source("first_legal") + f"\n# {name}\n"},
            format="json",
        )
        assert response.status_code == 201, response.json()
    _wait(lambda: BotVersion.objects.filter(status="active").count() == 2, what="validation")
    ladder = Ladder.objects.get(game="cat-lady", players=2)
    matches = ladder_schedule(ladder=ladder)
    assert len(matches) == 2
    _wait(
        lambda: (
            Match.objects.filter(pk__in=[m.pk for m in matches], status="finished").count() == 2
        ),
        what="ladder matches",
    )
    entries = list(LadderEntry.objects.filter(ladder=ladder))
    assert [e.games for e in entries] == [2, 2]
    assert sum(e.rating for e in entries) == pytest.approx(3000)
    finished = Match.objects.get(pk=matches[0].pk)
    assert finished.sandbox_mode == finished.log["sandbox_mode"] != ""
    assert finished.attempts == 1


def test_a_match_whose_worker_died_is_replayed_and_recorded_once(worker, client_for):
    # A match left "running" by a dead worker: the reaper queues it again, the worker plays it
    # from the start with the same seed, and the result is recorded exactly once.
    match = Match.objects.create(
        kind="challenge", seed=99, status="running", attempts=1, limits=default_limits()
    )
    match.seats.create(seat=0, builtin="random")
    match.seats.create(seat=1, builtin="greedy")
    Match.objects.filter(pk=match.pk).update(started_at=match.created_at)
    import datetime as dt

    reap_stuck(older_than=dt.timedelta(seconds=0))
    _wait(lambda: Match.objects.get(pk=match.pk).status == "finished", what="replayed match")
    match.refresh_from_db()
    assert match.attempts == 2
    assert match_record(match_id=match.pk, log=match.log) is False
    assert match.log["seed"] == 99
