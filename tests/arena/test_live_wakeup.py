"""A live table's two sides wake each other (arena/live/wakeup.py) instead of polling: the
worker waiting for a person reads the database only when rung (or every SAFETY_S), and the
page's long poll answers when the table changes."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.common import SeatInput
from arena.live import wakeup
from arena.live.services import (
    DatabaseHumanSeat,
    board_key,
    live_answer,
    live_create,
    live_resign,
)
from arena.models import LiveSeat

WAYS = ["fifo", "redis"]


@pytest.fixture(params=WAYS)
def way(request, settings, tmp_path):
    settings.ARENA_LIVE_WAKE = request.param
    settings.VAR_DIR = tmp_path
    return request.param


def test_a_ring_wakes_every_waiter_of_its_key_and_only_those(way):
    with (
        wakeup.listening("board-1") as first,
        wakeup.listening("board-1") as second,
        wakeup.listening("board-2") as other,
    ):
        assert not first(0.05)  # nothing rung yet
        wakeup.ring("board-1")
        assert first(5.0) and second(5.0)
        assert not other(0.05)
        assert not first(0.05)  # one ring, one wake-up


def test_several_rings_while_busy_need_one_look(way):
    with wakeup.listening("answer-7") as wait:
        for _ in range(3):
            wakeup.ring("answer-7")
        assert wait(5.0)
        assert not wait(0.05)


def test_named_pipes_leave_nothing_behind_and_dead_ones_are_swept(settings, tmp_path):
    settings.ARENA_LIVE_WAKE = "fifo"
    settings.VAR_DIR = tmp_path
    with wakeup.listening("board-3"):
        assert len(list((tmp_path / "live").glob("board-3.*.fifo"))) == 1
    assert not list((tmp_path / "live").iterdir())
    # A waiter killed before it could clean up: no reader any more.
    os.mkfifo(tmp_path / "live" / "board-3.dead.fifo")
    wakeup.ring("board-3")
    assert not list((tmp_path / "live").iterdir())


def test_a_broker_that_does_not_answer_leaves_the_safety_look(settings, caplog):
    settings.ARENA_LIVE_WAKE = "redis"
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    wakeup._redis.cache_clear()
    try:
        wakeup.ring("board-9")  # logged, not raised: what was written stands
        with wakeup.listening("board-9") as wait:
            assert not wait(0.01)
    finally:
        wakeup._redis.cache_clear()
    assert "could not ring board-9" in caplog.text
    assert "cannot listen for board-9" in caplog.text


@pytest.fixture
def pia(db):
    return get_user_model().objects.create_user("pia", password="pw-123456789")


@pytest.fixture
def asked(pia):
    """A live table whose worker has just asked the person for move 0."""
    match = live_create(user=pia, game="cat-lady", seats=[None, SeatInput(builtin="greedy")])
    legal = [{"action": {"type": "end-turn"}, "label": "end-turn"}] * 2
    LiveSeat.objects.filter(match=match).update(asked_step=0, legal=legal)
    return match


@pytest.mark.django_db(transaction=True)
def test_the_worker_hears_the_answer_without_polling_the_database(way, asked, pia):
    live = LiveSeat.objects.get(match=asked)
    seat = DatabaseHumanSeat(asked.pk, live.seat)
    answers: list[object] = []
    looks: list[int] = []

    def worker() -> None:
        with CaptureQueriesContext(connection) as queries:
            answers.append(
                seat.ask(
                    step=0,
                    observation={},
                    legal=[{"type": "end-turn"}, {"type": "end-turn"}],
                    labels=["end-turn", "end-turn"],
                    timeout_s=120,
                )
            )
        looks.append(
            sum(
                q["sql"].startswith('SELECT "arena_liveseat"."answer" FROM')
                for q in queries.captured_queries
            )
        )
        connection.close()

    with wakeup.listening(board_key(live.pk)) as page:
        thread = threading.Thread(target=worker)
        thread.start()
        assert page(30.0)  # the page hears that it is asked
    time.sleep(1.5)  # the person thinks (a 0.2 s poll would read the seat 7 times meanwhile)
    live_answer(match=asked, user=pia, step=0, index=1)
    thread.join(timeout=30)
    assert answers == [{"index": 1}]
    # Read when asked, and once more when rung.
    assert looks[0] <= 2
    assert LiveSeat.objects.get(pk=live.pk).moves == {"0": {"index": 1}}


@pytest.mark.django_db(transaction=True)
def test_the_table_state_waits_for_a_change_and_answers_at_once_when_rung(
    way, asked, pia, settings
):
    settings.ARENA_LIVE_LONG_POLL_S = 1
    client = Client()
    client.force_login(pia)
    url = f"/arena/play/{asked.pk}/state/"
    first = client.get(url).json()
    assert first["asked_step"] is None  # queued: nothing is asked yet
    # Nothing changes: the wait ends after ARENA_LIVE_LONG_POLL_S with the same table.
    assert client.get(url, {"since": first["version"]}).json()["version"] == first["version"]
    live = LiveSeat.objects.get(match=asked)
    answered: list[dict[str, object]] = []

    def page() -> None:
        answered.append(client.get(url, {"since": first["version"]}).json())
        connection.close()

    settings.ARENA_LIVE_LONG_POLL_S = 60
    thread = threading.Thread(target=page)
    thread.start()
    LiveSeat.objects.filter(pk=live.pk).update(step=5)
    wakeup.ring(board_key(live.pk))
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert answered[0]["step"] == 5 and answered[0]["version"] != first["version"]


@pytest.mark.django_db(transaction=True)
def test_a_table_deleted_while_its_page_waits_answers_not_found(
    way, asked, pia, settings, monkeypatch
):
    # A page still waiting when its match goes (an admin's delete; in the suite, the flush
    # after a browser test) gets a 404, not a server error.
    settings.ARENA_LIVE_LONG_POLL_S = 60
    client = Client()
    client.force_login(pia)
    url = f"/arena/play/{asked.pk}/state/"
    version = client.get(url).json()["version"]
    live = LiveSeat.objects.get(match=asked)
    waiting = threading.Event()
    listening = wakeup.listening

    @contextmanager
    def listening_and_told(key: str) -> Iterator[wakeup.Wait]:
        with listening(key) as wait:

            def told(timeout_s: float) -> bool:
                waiting.set()
                return wait(timeout_s)

            yield told

    monkeypatch.setattr(wakeup, "listening", listening_and_told)
    answered: list[int] = []

    def page() -> None:
        answered.append(client.get(url, {"since": version}).status_code)
        connection.close()

    thread = threading.Thread(target=page)
    thread.start()
    assert waiting.wait(30)  # the page waits for its table to change
    asked.delete()
    wakeup.ring(board_key(live.pk))
    thread.join(timeout=30)
    assert answered == [404]


@pytest.mark.django_db(transaction=True)
def test_a_resignation_wakes_the_worker_and_stands_when_the_match_is_played_again(way, asked, pia):
    live = LiveSeat.objects.get(match=asked)
    seat = DatabaseHumanSeat(asked.pk, live.seat)
    answers: list[object] = []
    question = {
        "step": 0,
        "observation": {},
        "legal": [{"type": "end-turn"}, {"type": "end-turn"}],
        "labels": ["end-turn", "end-turn"],
        "timeout_s": 120,
    }

    def worker() -> None:
        answers.append(seat.ask(**question))
        connection.close()

    with wakeup.listening(board_key(live.pk)) as page:
        thread = threading.Thread(target=worker)
        thread.start()
        assert page(30.0)
    live_resign(match=asked, user=pia)
    thread.join(timeout=30)
    assert answers == [{"resign": True}]
    assert LiveSeat.objects.get(pk=live.pk).moves == {"resign": True, "0": {"resign": True}}
    # Played again after a lost worker: the same move resigns, without asking.
    assert seat.ask(**question) == {"resign": True}
    with pytest.raises(ValidationError, match="resigned already"):
        live_resign(match=asked, user=pia)


def test_resigning_over_the_page(asked, pia):
    client = Client()
    client.force_login(pia)
    url = f"/arena/play/{asked.pk}/resign/"
    assert client.get(url).status_code == 405
    assert client.post(url).json() == {"ok": True, "resigned": True}
    again = client.post(url)
    assert again.status_code == 400 and "resigned already" in again.json()["fields"]["match"][0]
    assert client.get(f"/arena/play/{asked.pk}/state/").json()["resigned"] is True
    other = get_user_model().objects.create_user("ole", password="pw-123456789")
    client.force_login(other)
    assert client.post(url).status_code == 404


ERRORS = {
    "not_authenticated": 403,
    "not_found": 404,
}


def _json_error(response, code: str) -> None:
    """The API's error shape, never an HTML page the table's script cannot read."""
    assert response.status_code == ERRORS[code] and response["Content-Type"] == "application/json"
    assert response.json()["error"] == code and response.json()["detail"]


@pytest.mark.parametrize(
    "method, path",
    [
        ("get", "state/"),
        ("post", "move/"),
        ("post", "resign/"),
        ("post", "rematch/"),
        ("post", "takeback/"),
        ("post", "guest/"),
        ("post", "start/"),
    ],
)
def test_the_table_endpoints_answer_in_json_whatever_goes_wrong(asked, pia, method, path):
    url = f"/arena/play/{asked.pk}/{path}"
    client = Client()
    # A session that ended while the page was open: 403, not a redirect to the log-in page.
    _json_error(getattr(client, method)(url), "not_authenticated")
    # Another person's table, and one that is gone: the same 404 (nothing says which).
    client.force_login(get_user_model().objects.create_user("ole", password="pw-123456789"))
    _json_error(getattr(client, method)(url), "not_found")
    client.force_login(pia)
    _json_error(getattr(client, method)(f"/arena/play/{asked.pk + 1000}/{path}"), "not_found")


def test_a_spectator_asking_for_a_match_that_does_not_exist_gets_json(asked):
    _json_error(Client().get(f"/arena/matches/{asked.pk + 1000}/watch/state/"), "not_found")
