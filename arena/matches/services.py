"""A match's life once queued: claimed by a worker, its heartbeat, recorded (with what it
changes in every room), failed, or waiting for the infrastructure; the reaper; workers' beats;
challenges.

Claiming and recording both lock the match row, and recording a match that is already finished
does nothing: a worker killed mid-match has its task delivered again, the match is replayed
from the start with the same seed, and its result is recorded exactly once.

Nothing stays queued for ever: a match whose message was lost (the broker restarted empty, or
was down when the match was written) or whose worker could not play it (no sandbox, the
database gone) is handed to the broker again by :func:`reap_stuck`. An infrastructure fault
never counts against a bot: the match waits (:func:`match_wait`) instead of failing.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from arena.common import SeatInput, check_game, enqueue, match_create
from arena.gauntlet.services import gauntlet_match_settled
from arena.ladders.services import rate_ladder_match
from arena.live.services import rate_play_pool, reviews_request
from arena.models import (
    BotVersion,
    Match,
    MatchSeat,
    WorkerBeat,
)
from arena.submissions.services import settle_validation
from arena.tournaments.services import advance_tournament

if TYPE_CHECKING:
    from django.contrib.auth.models import User


logger = logging.getLogger(__name__)


@transaction.atomic
def challenge_create(
    *,
    seats: Sequence[SeatInput],
    by: User,
    seed: int | None = None,
    game: str | None = None,
    options: dict[str, Any] | None = None,
) -> Match:
    """A match the user asked for. Its game is the bots' game (``game`` when only house bots
    play; default Cat Lady). ``options`` choose an unranked setup, e.g. Cat Lady's placeholder
    Box of Treats deck at 5-6 players, shared goals, or solitaire against the ``cat-player``
    house bot (``engine.play_setups``)."""
    for index, seat in enumerate(seats):
        if seat.version is not None and seat.version.status != BotVersion.Status.ACTIVE:
            raise ValidationError(
                {f"seats.{index}": [f"{seat.version} is {seat.version.status}, not active."]}
            )
    if game is None:
        games = [s.version.bot.game for s in seats if s.version is not None]
        game = games[0] if games else "cat-lady"
    check_game(game)
    return match_create(
        kind=Match.Kind.CHALLENGE,
        seats=seats,
        requested_by=by,
        game=game,
        options=options,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
    )


def match_claim(
    match_id: int, dispatch: int | None = None, *, resume: bool = False
) -> Match | None:
    """Mark a match running (again, after a lost worker); None if it is already settled,
    ``dispatch`` is an older hand-over than the match's latest (a superseded message), or
    another worker is playing it: running, its heartbeat fresh (the broker delivered the
    message again while its worker lives). ``resume``: the worker that was playing it tries
    again after a database fault, so its own fresh heartbeat does not stop it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status in (Match.Status.FINISHED, Match.Status.FAILED):
            return None
        if dispatch is not None and dispatch != match.dispatch:
            return None
        if (
            match.status == Match.Status.RUNNING
            and not resume
            and match.heartbeat_at is not None
            and match.heartbeat_at > timezone.now() - heartbeat_limit(match.kind)
        ):
            return None
        match.status = Match.Status.RUNNING
        match.attempts = F("attempts") + 1
        match.started_at = match.heartbeat_at = timezone.now()
        match.save(update_fields=["status", "attempts", "started_at", "heartbeat_at"])
    match.refresh_from_db()
    return match


def match_beat(*, match_id: int, dispatch: int) -> bool:
    """The worker playing hand-over ``dispatch`` of the match is alive: its heartbeat is now.
    False when the match is no longer that worker's to play (handed over again, or settled)."""
    beaten = Match.objects.filter(
        pk=match_id, dispatch=dispatch, status=Match.Status.RUNNING
    ).update(heartbeat_at=timezone.now())
    if beaten:
        return True
    now = Match.objects.filter(pk=match_id).values_list("dispatch", "status").first()
    # A match this connection cannot see (deleted) is left to the task to find out.
    return now is None or now == (dispatch, Match.Status.RUNNING)


@transaction.atomic
def match_record(*, match_id: int, log: dict[str, Any]) -> bool:
    """Store a finished match's log and its consequences. False if it was recorded before."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == Match.Status.FINISHED:
        return False
    seats = list(match.seats.select_related("version", "version__bot").order_by("seat"))
    result = log["result"]
    forfeited = set(log.get("forfeited", []))
    for seat in seats:
        seat.score = result["scores"][seat.seat]
        seat.rank = result["ranks"][seat.seat]
        seat.faults = len(log["faults"][seat.seat])
        seat.forfeited = seat.seat in forfeited
    match.status = Match.Status.FINISHED
    match.finished_at = timezone.now()
    match.log = log
    match.engine_version = log["version"]
    match.sandbox_mode = log.get("sandbox_mode") or ""
    match.failure = ""
    match.infra_failure = ""
    if match.kind == Match.Kind.VALIDATION:
        settle_validation(seats, log)
    elif match.ladder is not None:
        rate_ladder_match(match.ladder, seats)
    elif match.kind == Match.Kind.LIVE and not match.options:
        rate_play_pool(match, seats)
    if match.kind == Match.Kind.LIVE:
        reviews_request(match)
    MatchSeat.objects.bulk_update(
        seats, ["score", "rank", "faults", "forfeited", "rating_before", "rating_after"]
    )
    match.save()
    if match.tournament_id is not None:
        advance_tournament(match.tournament_id)
    if match.kind == Match.Kind.GAUNTLET:
        gauntlet_match_settled(match)
    return True


@transaction.atomic
def match_fail(*, match_id: int, reason: str) -> None:
    """The match cannot be played, for the arena's reasons (a bad setup, an engine error).

    A bot being validated is not rejected for it: its version keeps waiting, with the reason,
    and ``manage.py arena_requeue`` validates it again once the fault is mended.
    """
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == Match.Status.FINISHED:
        return
    match.status = Match.Status.FAILED
    match.failure = reason[:2000]
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "failure", "finished_at"])
    if match.kind == Match.Kind.GAUNTLET:
        gauntlet_match_settled(match)  # left out of its counts: never a loss
    if match.kind == Match.Kind.VALIDATION:
        _versions_waiting(
            match,
            "The arena could not play this version's validation match "
            f"({reason[:300]}). It was not rejected; an operator can "
            "validate it again with manage.py arena_requeue.",
        )


@transaction.atomic
def match_wait(*, match_id: int, reason: str) -> None:
    """An infrastructure fault stopped a worker from playing the match (no sandbox, no free
    bot slot): back to the queue, the reason kept, and the attempt not counted. The reaper
    hands it to the broker again after ``INFRA_RETRY``, until a worker can play it."""
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status != Match.Status.RUNNING:
        return
    match.status = Match.Status.QUEUED
    match.infra_failure = reason[:2000]
    match.queued_at = timezone.now()
    # The attempt never started playing: only lost workers use up MAX_ATTEMPTS.
    match.attempts = max(match.attempts - 1, 0)
    match.save(update_fields=["status", "infra_failure", "queued_at", "attempts"])
    if match.kind == Match.Kind.VALIDATION:
        _versions_waiting(
            match,
            f"Waiting for the arena: {reason[:300]}. It will be validated "
            "automatically as soon as a worker can run it.",
        )


def _versions_waiting(match: Match, reason: str) -> None:
    BotVersion.objects.filter(
        seats__match=match,
        status=BotVersion.Status.VALIDATING,
    ).update(waiting_reason=reason)


MAX_ATTEMPTS = 3


# A queued match is handed to the broker again after this long: its message may be lost.
QUEUED_DEADLINE = dt.timedelta(minutes=5)


# A match waiting for the infrastructure is tried again sooner.
INFRA_RETRY = dt.timedelta(seconds=30)


def heartbeat_limit(kind: str) -> dt.timedelta:
    """How old a running match's heartbeat may grow before its worker counts as lost."""
    seconds = (
        settings.ARENA_LIVE_STALE_S if kind == Match.Kind.LIVE else settings.ARENA_MATCH_STALE_S
    )
    return dt.timedelta(seconds=seconds)


def reap_stuck(
    *,
    older_than: dt.timedelta,
    stale_after: dt.timedelta | None = None,
    live_stale_after: dt.timedelta | None = None,
    queued_older_than: dt.timedelta = QUEUED_DEADLINE,
    infra_retry: dt.timedelta = INFRA_RETRY,
) -> list[int]:
    """Send every match that is not settled and not moving to the broker again.

    Running with a heartbeat older than ``stale_after`` (``live_stale_after`` when a person
    sits at the table; either defaults to ``older_than``), or a bots-only match running past
    ``older_than`` whatever its heartbeat (a hung worker): its worker was lost; it is played
    again from the start with the same seed (a person's moves are replayed), or failed after
    MAX_ATTEMPTS. Queued past ``queued_older_than`` (or ``infra_retry`` when it waits for the
    infrastructure): its message was lost or never sent, or a worker could not claim it; a
    new hand-over supersedes the old message. Returns the matches touched.
    """
    now = timezone.now()
    live = Q(kind=Match.Kind.LIVE)
    silent = now - (older_than if stale_after is None else stale_after)
    live_silent = now - (older_than if live_stale_after is None else live_stale_after)
    running = list(
        Match.objects.alias(alive=Coalesce("heartbeat_at", "started_at"))
        .filter(
            (live & Q(alive__lt=live_silent))
            | (~live & (Q(alive__lt=silent) | Q(started_at__lt=now - older_than))),
            status=Match.Status.RUNNING,
        )
        .values_list("pk", "attempts")
    )
    queued = list(
        Match.objects.alias(since=Coalesce("queued_at", "created_at"))
        .filter(
            Q(since__lt=now - queued_older_than)
            | (~Q(infra_failure="") & Q(since__lt=now - infra_retry)),
            status=Match.Status.QUEUED,
        )
        .values_list("pk", flat=True)
    )
    for match_id, attempts in running:
        if attempts >= MAX_ATTEMPTS:
            match_fail(
                match_id=match_id,
                reason=f"stuck: its worker was lost or hung in each of {attempts} attempts",
            )
            continue
        logger.warning(
            "match %s lost its worker (attempt %s): playing it again", match_id, attempts
        )
        _requeue(match_id, Match.Status.RUNNING)
    for match_id in queued:
        _requeue(match_id, Match.Status.QUEUED)
    return [match_id for match_id, _ in running] + queued


@transaction.atomic
def _requeue(match_id: int, expected: str) -> None:
    match = Match.objects.select_for_update().get(pk=match_id)
    if match.status == expected:
        match.status = Match.Status.QUEUED
        match.dispatch += 1
        match.queued_at = timezone.now()
        match.save(update_fields=["status", "dispatch", "queued_at"])
        enqueue(match)


# A worker not seen for this long is forgotten (its host was replaced or renamed).
WORKER_FORGOTTEN = dt.timedelta(days=1)


def worker_seen(*, hostname: str, queues: str = "", started: bool = False) -> None:
    """A worker says it is alive (``started``: it has just become ready)."""
    now = timezone.now()
    fields: dict[str, Any] = {"last_seen": now, "queues": queues[:255]}
    if started:
        fields["started_at"] = now
        WorkerBeat.objects.filter(last_seen__lt=now - WORKER_FORGOTTEN).delete()
    WorkerBeat.objects.update_or_create(
        hostname=hostname[:255], defaults=fields, create_defaults={**fields, "started_at": now}
    )


def worker_gone(*, hostname: str) -> None:
    """A worker stops: it is no longer counted as up."""
    WorkerBeat.objects.filter(hostname=hostname[:255]).delete()
