"""/healthz reports the database, the broker and a worker seen lately: 200 when all are fine,
503 otherwise; no log-in, and a fast answer whatever is down."""

from __future__ import annotations

import datetime as dt
import threading
import time
from types import SimpleNamespace

import pytest
from django.test import Client
from django.utils import timezone

from arena import tasks
from arena.matches.services import worker_seen
from arena.models import WorkerBeat
from config.celery import app as celery_app
from tests.test_db_down import closed_port, db_down  # noqa: F401 (a fixture)


def _health() -> tuple[int, dict]:
    response = Client().get("/healthz")
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response["Cache-Control"]
    return response.status_code, response.json()


@pytest.fixture
def broker(monkeypatch):
    """Point the broker somewhere else for one test (the app's settings are restored)."""

    def use(url: str, **options: object) -> None:
        monkeypatch.setenv("CELERY_BROKER_URL", url)  # Celery reads it before its settings
        monkeypatch.setitem(celery_app.conf, "broker_transport_options", options)

    return use


@pytest.mark.django_db
def test_all_parts_fine_answers_200():
    worker_seen(hostname="celery@arena-1", queues="celery", started=True)
    status, body = _health()
    assert status == 200, body
    assert body["ok"] is True
    assert {part: body[part]["ok"] for part in ("database", "broker", "worker")} == {
        "database": True,
        "broker": True,
        "worker": True,
    }
    assert body["worker"]["detail"].startswith("1 worker(s) seen in the last 60 s")


@pytest.mark.django_db
def test_no_worker_seen_in_the_last_minute_answers_503():
    status, body = _health()
    assert status == 503 and body["worker"] == {
        "ok": False,
        "detail": "no worker has said it is alive yet",
    }
    worker_seen(hostname="celery@arena-1", started=True)
    WorkerBeat.objects.update(last_seen=timezone.now() - dt.timedelta(seconds=61))
    status, body = _health()
    assert status == 503 and not body["worker"]["ok"] and body["database"]["ok"]
    assert "the newest 61 s ago" in body["worker"]["detail"]


@pytest.mark.django_db
def test_a_broker_that_is_down_answers_503_fast(broker):
    worker_seen(hostname="celery@arena-1", started=True)
    broker(f"redis://127.0.0.1:{closed_port()}/0")
    begun = time.monotonic()
    status, body = _health()
    assert time.monotonic() - begun < 5
    assert status == 503 and body["broker"]["ok"] is False
    assert body["broker"]["detail"].startswith("unreachable (")
    assert body["database"]["ok"] and body["worker"]["ok"]


@pytest.mark.django_db
def test_the_embedded_broker_is_fine_while_its_folder_is_there(broker, tmp_path):
    worker_seen(hostname="celery@arena-1", started=True)
    broker("filesystem://localhost/", data_folder_in=str(tmp_path), data_folder_out=str(tmp_path))
    assert _health()[0] == 200
    broker("filesystem://localhost/", data_folder_in=str(tmp_path / "gone"))
    status, body = _health()
    assert status == 503 and body["broker"]["ok"] is False


def test_a_database_that_is_down_answers_503_fast(db_down):  # noqa: F811
    begun = time.monotonic()
    status, body = _health()
    assert time.monotonic() - begun < 5
    assert status == 503
    assert body["database"] == {"ok": False, "detail": "unreachable (OperationalError)"}
    assert body["worker"]["ok"] is False and "unknown" in body["worker"]["detail"]
    assert "127.0.0.1" not in str(body)  # where the database lives is not told


@pytest.mark.django_db(transaction=True)
def test_a_worker_says_it_is_alive_from_ready_until_it_stops(settings):
    settings.ARENA_WORKER_BEAT_S = 0.05
    consumer = SimpleNamespace(
        hostname="celery@arena-2",
        app=SimpleNamespace(amqp=SimpleNamespace(queues=SimpleNamespace(consume_from={"live": 1}))),
    )
    tasks._beat_while_alive(sender=consumer)
    try:
        deadline = time.monotonic() + 5
        while not WorkerBeat.objects.filter(hostname="celery@arena-2").exists():
            assert time.monotonic() < deadline, "the worker never said it is alive"
            time.sleep(0.02)
        first = WorkerBeat.objects.get().last_seen
        while WorkerBeat.objects.get().last_seen == first:
            assert time.monotonic() < deadline, "the worker beat only once"
            time.sleep(0.02)
        assert WorkerBeat.objects.get().queues == "live"
        assert _health()[1]["worker"]["ok"] is True
    finally:
        tasks._gone_at_shutdown()
    assert not [t for t in threading.enumerate() if t.name == "arena-worker-beat"]
    assert not WorkerBeat.objects.exists()  # stopped: no longer counted as up


@pytest.mark.django_db
def test_it_answers_over_plain_http_where_everything_else_is_redirected_to_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    worker_seen(hostname="celery@arena-1", queues="celery", started=True)
    assert Client().get("/leagues/").status_code == 301
    assert _health()[0] == 200
