"""A lost worker is noticed from its heartbeat within seconds: the reaper queues its match
again, the match is never played by two workers at once nor rated twice, and a person at a
live table is told what happened and resumes from the moves already made."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from arena.common import SeatInput, default_limits
from arena.live.services import DatabaseHumanSeat, LiveWriter, live_create
from arena.live.views import LOST_WORKER
from arena.matches.services import match_beat, match_claim, reap_stuck
from arena.models import LiveSeat, Match
from arena.tasks import MatchHeartbeat, Superseded

S = dt.timedelta(seconds=1)
DEADLINE, STALE, LIVE_STALE = 600 * S, 45 * S, 15 * S


def _reap() -> list[int]:
    return reap_stuck(older_than=DEADLINE, stale_after=STALE, live_stale_after=LIVE_STALE)


def _running(kind: str = "ladder", *, beat_ago: dt.timedelta, started_ago: dt.timedelta) -> Match:
    now = timezone.now()
    match = Match.objects.create(
        kind=kind,
        seed=7,
        status=Match.Status.RUNNING,
        attempts=1,
        dispatch=1,
        started_at=now - started_ago,
        heartbeat_at=now - beat_ago,
        limits=default_limits(),
    )
    match.seats.create(seat=0, builtin="random")
    match.seats.create(seat=1, builtin="greedy")
    return match


@pytest.fixture
def pia(db):
    return get_user_model().objects.create_user("pia", password="pw-123456789")


@pytest.fixture
def table(pia):
    return live_create(user=pia, game="cat-lady", seats=[None, SeatInput(builtin="greedy")], seed=3)


def test_the_default_timings_resume_a_live_game_in_30_s_and_a_ladder_match_in_90_s():
    reap_every = django_settings.CELERY_BEAT_SCHEDULE["arena-reap-stuck"]["schedule"]
    beat = django_settings.ARENA_HEARTBEAT_S
    # Worst case: the worker dies just after a beat; the beat goes stale; the reaper runs.
    assert beat + django_settings.ARENA_LIVE_STALE_S + reap_every <= 30
    assert beat + django_settings.ARENA_MATCH_STALE_S + reap_every <= 90
    assert django_settings.ARENA_MATCH_DEADLINE_S >= django_settings.ARENA_MATCH_STALE_S


@pytest.mark.django_db
def test_a_running_match_with_a_stale_heartbeat_is_queued_again_and_a_fresh_one_left_alone():
    lost = _running(beat_ago=50 * S, started_ago=70 * S)
    playing = _running(beat_ago=4 * S, started_ago=300 * S)  # a long match, its worker alive
    assert _reap() == [lost.pk]
    lost.refresh_from_db()
    playing.refresh_from_db()
    # Queued again under a new hand-over (the old message, if it comes back, does nothing);
    # the attempt that was lost is counted, against the arena's limit, not against a bot.
    assert (lost.status, lost.dispatch, lost.attempts) == (Match.Status.QUEUED, 2, 1)
    assert (playing.status, playing.dispatch) == (Match.Status.RUNNING, 1)
    assert not lost.seats.filter(rank__isnull=False).exists()


@pytest.mark.django_db
def test_a_live_match_is_judged_by_its_heartbeat_alone_and_sooner():
    lost = _running("live", beat_ago=20 * S, started_ago=30 * S)
    thinking = _running("live", beat_ago=3 * S, started_ago=3600 * S)  # a slow person
    assert _reap() == [lost.pk]
    thinking.refresh_from_db()
    assert thinking.status == Match.Status.RUNNING


@pytest.mark.django_db
def test_a_bots_match_past_the_deadline_is_played_again_whatever_its_heartbeat():
    hung = _running(beat_ago=1 * S, started_ago=DEADLINE + S)
    assert _reap() == [hung.pk]


@pytest.mark.django_db
def test_a_match_another_worker_plays_is_not_claimed_twice_and_its_old_worker_stops():
    match = _running(beat_ago=2 * S, started_ago=10 * S)
    # The broker delivers the message again while its worker lives: refused.
    assert match_claim(match.pk, dispatch=1) is None
    # The worker's own retry after a database fault resumes it.
    assert match_claim(match.pk, dispatch=1, resume=True) is not None
    assert match_beat(match_id=match.pk, dispatch=1) is True
    Match.objects.filter(pk=match.pk).update(heartbeat_at=timezone.now() - 60 * S)
    _reap()
    # Handed to a new worker: the old one's next beat tells it to stop.
    assert match_beat(match_id=match.pk, dispatch=1) is False
    claimed = match_claim(match.pk, dispatch=2)
    assert claimed is not None and claimed.attempts == 3
    assert match_beat(match_id=match.pk, dispatch=2) is True


@pytest.mark.django_db(transaction=True)
def test_the_heartbeat_thread_beats_and_notices_when_the_match_is_handed_over():
    match = _running(beat_ago=30 * S, started_ago=30 * S)
    before = match.heartbeat_at
    with MatchHeartbeat(match.pk, 1, every_s=0.05) as beat:
        deadline = time.monotonic() + 5
        while Match.objects.get(pk=match.pk).heartbeat_at == before:
            assert time.monotonic() < deadline, "no heartbeat"
            time.sleep(0.02)
        beat.check()  # still ours
        Match.objects.filter(pk=match.pk).update(dispatch=2, status=Match.Status.QUEUED)
        with pytest.raises(Superseded):
            while time.monotonic() < deadline:
                beat.check()
                time.sleep(0.02)


def test_a_live_table_says_its_server_was_lost_while_the_match_waits_to_resume(table, pia):
    LiveSeat.objects.filter(match=table).update(
        asked_step=4, legal=[{"action": {"type": "x"}, "label": "x"}], deadline=timezone.now()
    )
    client = Client()
    client.force_login(pia)
    url = f"/arena/play/{table.pk}/state/"
    never_started = client.get(url).json()
    assert never_started["status"] == "queued" and never_started["lost"] == ""

    Match.objects.filter(pk=table.pk).update(status=Match.Status.RUNNING, attempts=1)
    assert client.get(url).json()["lost"] == ""
    Match.objects.filter(pk=table.pk).update(status=Match.Status.QUEUED, dispatch=2)
    state = client.get(url).json()
    assert state["lost"] == LOST_WORKER
    assert "lost its server" in state["lost"] and "moves already made" in state["lost"]
    # The question is asked again, with a fresh clock, once the game resumes.
    assert (state["asked_step"], state["legal"], state["seconds_left"]) == (None, [], None)


def test_a_replayed_live_match_takes_the_moves_already_made_and_never_asks_again(table):
    live = LiveSeat.objects.get(match=table)
    LiveSeat.objects.filter(pk=live.pk).update(
        moves={"0": {"index": 1}, "2": {"timeout": True}},
        faults=1,
        asked_step=4,
        answer={"step": 4, "index": 0},  # sent just as the worker was lost
    )
    seat = DatabaseHumanSeat(table.pk, live.seat)
    legal = [{"type": "a"}, {"type": "b"}]
    ask = {"observation": {}, "legal": legal, "labels": ["a", "b"], "timeout_s": 0.01}
    assert seat.ask(step=0, **ask) == {"index": 1}
    assert seat.ask(step=2, **ask) is None  # timed out before: a fault again, counted once
    assert seat.ask(step=4, **ask) == {"index": 0}
    live.refresh_from_db()
    assert live.faults == 1 and live.moves["4"] == {"index": 0} and live.asked_step is None
    assert seat.ask(step=6, **ask) is None  # a new move left to time out is kept too
    live.refresh_from_db()
    assert live.faults == 2 and live.moves["6"] == {"timeout": True}


def test_a_person_waiting_at_a_superseded_table_stops_being_asked(table):
    live = LiveSeat.objects.get(match=table)

    def handed_over() -> None:
        raise Superseded("gone")

    seat = DatabaseHumanSeat(table.pk, live.seat, alive=handed_over)
    with pytest.raises(Superseded):
        seat.ask(step=0, observation={}, legal=[{}], labels=["x"], timeout_s=30)


def test_a_replay_never_steps_the_table_back(table):
    log = [{"step": 5, "seat": 1, "who": "house:greedy", "label": "x", "status": "ok"}]
    LiveSeat.objects.filter(match=table).update(step=5, board={"view": {"kept": True}}, log=log)
    writer = LiveWriter(table)
    assert writer.shown == 5
    writer(2, {"seat": 1, "action": {}, "status": "ok"}, None)  # replayed: nothing written
    live = LiveSeat.objects.get(match=table)
    assert (live.step, live.board, live.log) == (5, {"view": {"kept": True}}, log)
