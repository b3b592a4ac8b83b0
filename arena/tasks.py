"""Celery tasks: fetch, call the runner, record. No game or rating logic lives here."""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import socket
import threading
from types import TracebackType
from typing import Any

from celery import shared_task
from celery.signals import worker_process_init, worker_ready, worker_shutdown
from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection

from arena.ladders import services as ladders
from arena.live.company.services import company_wait
from arena.live.services import (
    DatabaseHumanSeat,
    LiveWriter,
    TableRewound,
    live_ring_table,
    review_record,
    reviews_resend,
)
from arena.live.strength import strength_params
from arena.matches import services
from arena.models import Match, MoveReview
from arena.review import review_seat
from arena.runner import BotSpec, BotSpecError, StepObserver, run_match
from arena.sandbox import (
    Limits,
    NoFreeSlot,
    SandboxUnavailable,
    allows_ranked,
    resolve_mode,
    sweep_stages,
)
from arena.watch.services import WatchWriter, watch_ring
from engine.errors import EngineError

logger = logging.getLogger(__name__)


# While the database is unreachable a task is tried again this often, this many times; after
# that the reaper finds the match (still queued, or its heartbeat stale) and resends it.
DB_RETRY_SECONDS = 5
DB_RETRIES = 24


class Superseded(Exception):
    """The match was handed to another worker (or settled) while this one played it."""


class DatabaseLostWhilePlaying(DatabaseError):
    """The database failed after this worker claimed the match: its retry resumes it."""


class MatchHeartbeat:
    """Beats the heartbeat of the match this worker plays, every ``every_s`` seconds from a
    daemon thread (one UPDATE a beat, on the thread's own connection; none at all for a match
    shorter than one beat), so the reaper tells a worker at work from a lost one within
    seconds. A beat that finds the match handed over again or settled marks it superseded:
    :meth:`check`, called between moves and while a person thinks, then stops the play."""

    def __init__(self, match_id: int, dispatch: int, every_s: float) -> None:
        self.match_id = match_id
        self.dispatch = dispatch
        self.every_s = every_s
        self._stop = threading.Event()
        self._superseded = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name=f"heartbeat-match-{match_id}", daemon=True
        )

    def __enter__(self) -> MatchHeartbeat:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(timeout=self.every_s)

    def check(self) -> None:
        if self._superseded.is_set():
            raise Superseded(f"match {self.match_id} was handed to another worker")

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.every_s):
                try:
                    mine = services.match_beat(match_id=self.match_id, dispatch=self.dispatch)
                except DatabaseError as exc:
                    # The reaper judges from the last beat that got through; try again.
                    logger.warning("match %s: heartbeat failed (%s)", self.match_id, exc)
                    connection.close()
                    continue
                if not mine:
                    self._superseded.set()
                    return
        finally:
            connection.close()  # this thread's own connection


class HouseMoves:
    """The house bots' moves of a live match, kept on the match as they are played, so that
    playing it again (a takeback, a lost worker) replays them instead of searching again
    (``run_match(recorded=...)``). Written only while this worker's hand-over is current."""

    def __init__(self, match: Match, house_seats: set[int]) -> None:
        self.match_id = match.pk
        self.dispatch = match.dispatch
        self.house_seats = house_seats
        self.moves = {int(step): action for step, action in match.house_moves.items()}

    def __call__(self, step: int, entry: dict[str, Any]) -> None:
        if not entry or entry["seat"] not in self.house_seats or step in self.moves:
            return
        self.moves[step] = entry["action"]
        Match.objects.filter(pk=self.match_id, dispatch=self.dispatch).update(
            house_moves={str(key): action for key, action in self.moves.items()}
        )


def _observer(
    beat: MatchHeartbeat,
    writer: LiveWriter | None,
    watch: WatchWriter,
    house: HouseMoves | None = None,
) -> StepObserver:
    """After every move: stop if the match is no longer ours, keep a house bot's move, then
    show it to its watchers and at the table."""

    def observe(step: int, entry: dict[str, Any], state: Any) -> None:
        beat.check()
        if house is not None:
            house(step, entry)
        watch(step, entry, state)
        if writer is not None:
            writer(step, entry, state)

    return observe


# --- the worker says it is alive ------------------------------------------------------------

_worker_stopping = threading.Event()
_worker_beating: dict[str, threading.Thread] = {}  # by hostname: one per worker process


def _queues_of(consumer: Any) -> str:
    try:
        return ",".join(sorted(consumer.app.amqp.queues.consume_from))
    except (AttributeError, TypeError):
        return ""


@worker_ready.connect
def _beat_while_alive(sender: Any = None, **_kwargs: Any) -> None:
    hostname = str(getattr(sender, "hostname", "") or socket.gethostname())
    _worker_stopping.clear()
    thread = threading.Thread(
        target=worker_beats,
        args=(hostname, _queues_of(sender), _worker_stopping),
        name="arena-worker-beat",
        daemon=True,
    )
    _worker_beating[hostname] = thread
    thread.start()


def worker_beats(hostname: str, queues: str, stopping: threading.Event) -> None:
    """Record every ARENA_WORKER_BEAT_S that this worker is alive, until ``stopping``."""
    started = True
    try:
        while True:
            try:
                close_old_connections()
                services.worker_seen(hostname=hostname, queues=queues, started=started)
                started = False
            except DatabaseError as exc:
                logger.warning("worker %s: could not record that it is alive (%s)", hostname, exc)
                connection.close()
            if stopping.wait(settings.ARENA_WORKER_BEAT_S):
                return
    finally:
        connection.close()  # this thread's own connection


@worker_shutdown.connect
def _gone_at_shutdown(**_kwargs: Any) -> None:
    _worker_stopping.set()
    while _worker_beating:
        hostname, thread = _worker_beating.popitem()
        thread.join(timeout=5)  # its last beat must not bring the row back
        # If the database is down, its row ages out of the health check by itself.
        with contextlib.suppress(DatabaseError):
            services.worker_gone(hostname=hostname)


def sandbox_mode() -> str:
    """The strongest sandbox this worker can run (or ARENA_SANDBOX_MODE).

    A mode that works is remembered; a failure is probed again after a while
    (``arena.sandbox.detect``), so a worker notices when the machine has been set up.
    """
    return str(resolve_mode(os.environ.get("ARENA_SANDBOX_MODE") or None))


@worker_ready.connect
def _sweep_stages_at_start(**_kwargs) -> None:
    removed = sweep_stages()
    if removed:
        logger.info("removed %d bot stage directories left by stopped workers", removed)


@worker_process_init.connect
def _detect_sandbox_at_start(**_kwargs) -> None:
    try:
        logger.info("arena worker sandbox mode: %s", sandbox_mode())
    except SandboxUnavailable as exc:
        logger.error("arena worker has no usable sandbox: %s", exc)


def _specs(match: Match) -> list[BotSpec]:
    specs = []
    for seat in match.seats.select_related("version", "version__bot", "player").order_by("seat"):
        if seat.version is not None:
            specs.append(BotSpec.from_source(seat.version.source, name=str(seat.version)))
        elif seat.builtin:
            specs.append(
                BotSpec.builtin(seat.builtin, params=strength_params(seat.builtin, seat.strength))
            )
        else:
            specs.append(BotSpec.human(seat.label))
    return specs


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def match_run(self, match_id: int, dispatch: int | None = None, resume: bool = False) -> None:
    """Claim, play, record. ``dispatch`` says which hand-over of the match this message is;
    ``resume``: this worker claimed it before the database failed, and tries again."""
    try:
        _play(match_id, dispatch, resume)
    except DatabaseError as exc:
        # The database blinked: try again shortly. Recording is idempotent and claiming a
        # running match replays it from its seed, so a retry after any step is safe.
        logger.warning("match %s: database unavailable (%s); retrying", match_id, exc)
        raise self.retry(
            args=(match_id, dispatch),
            kwargs={"resume": resume or isinstance(exc, DatabaseLostWhilePlaying)},
            countdown=DB_RETRY_SECONDS,
            max_retries=DB_RETRIES,
        ) from exc


def _play(match_id: int, dispatch: int | None, resume: bool = False) -> None:
    match = services.match_claim(match_id, dispatch, resume=resume)
    if match is None:
        return  # settled, superseded by a newer hand-over, or another worker plays it
    try:
        with MatchHeartbeat(match.pk, match.dispatch, settings.ARENA_HEARTBEAT_S) as beat:
            _play_claimed(match, beat)
        watch_ring(match.pk)  # its watch pages learn at once that it ended (or waits)
        if match.kind == Match.Kind.LIVE:
            live_ring_table(match.pk)  # its pages learn at once that it ended (or waits)
    except (Superseded, TableRewound) as exc:
        logger.warning("%s; this worker stopped playing it", exc)
    except DatabaseError as exc:
        raise DatabaseLostWhilePlaying(str(exc)) from exc


def _play_claimed(match: Match, beat: MatchHeartbeat) -> None:
    try:
        mode = sandbox_mode()
        # A gauntlet decides what goes on the ladder: it needs a sandbox fit for ranked play.
        ranked = (Match.Kind.LADDER, Match.Kind.TOURNAMENT, Match.Kind.GAUNTLET)
        if match.kind in ranked and not allows_ranked(mode):
            services.match_fail(
                match_id=match.pk,
                reason=f"ranked matches refuse the development-only sandbox {mode!r}",
            )
            return
        humans, writer, house = {}, None, None
        specs = _specs(match)
        if match.kind == Match.Kind.LIVE:
            called_off = company_wait(match.pk, alive=beat.check)
            if called_off:
                services.match_fail(match_id=match.pk, reason=called_off)
                return
            humans = {
                seat.seat: DatabaseHumanSeat(match.pk, seat.seat, alive=beat.check)
                for seat in match.live_seats.all()
            }
            writer = LiveWriter(match)
            house = HouseMoves(match, {i for i, spec in enumerate(specs) if spec.kind == "builtin"})
        log = run_match(
            game=match.game,
            seed=match.seed,
            bots=specs,
            limits=Limits.from_json(match.limits),
            mode=mode,
            options=match.options or None,
            humans=humans,
            on_step=_observer(beat, writer, WatchWriter(match), house),
            recorded=house.moves if house is not None else None,
        )
    except SandboxUnavailable as exc:
        logger.error("match %s waits for a sandbox: %s", match.pk, exc)
        services.match_wait(match_id=match.pk, reason=f"no bot sandbox: {exc.summary}")
        return
    except NoFreeSlot as exc:
        services.match_wait(match_id=match.pk, reason=f"no free bot slot on the worker: {exc}")
        return
    except (BotSpecError, EngineError, ValueError) as exc:
        services.match_fail(match_id=match.pk, reason=f"{type(exc).__name__}: {exc}")
        return
    services.match_record(match_id=match.pk, log=log)


@shared_task(ignore_result=True)
def review_run(review_id: int) -> None:
    """Work out a person's review after their live game and store it (arena.review)."""
    review = MoveReview.objects.select_related("match").filter(pk=review_id).first()
    if review is None or review.status != MoveReview.Status.PENDING:
        return  # deleted with its match, or done by an earlier delivery of this message
    match = review.match
    if match.status != Match.Status.FINISHED or not match.log:
        return  # never during the game: its hidden cards are still in play
    try:
        result = review_seat(
            match.log["engine_log"],
            seat=review.seat,
            iterations=settings.ARENA_REVIEW_ITERATIONS,
            time_limit_s=settings.ARENA_REVIEW_MOVE_MS / 1000,
            seed=match.seed,
        )
    except (EngineError, KeyError) as exc:
        review_record(review_id=review.pk, review=None, reason=f"No review for this game: {exc}")
        return
    review_record(review_id=review.pk, review=result)


@shared_task(ignore_result=True)
def ladder_tick() -> int:
    return ladders.ladder_tick()


@shared_task(ignore_result=True)
def reap_stuck_matches() -> int:
    """Resend the matches that are not moving and the reviews never worked out, and remove
    bot files killed workers left."""
    sweep_stages()
    reviews_resend(older_than=dt.timedelta(seconds=settings.ARENA_QUEUED_DEADLINE_S))
    return len(
        services.reap_stuck(
            older_than=dt.timedelta(seconds=settings.ARENA_MATCH_DEADLINE_S),
            stale_after=dt.timedelta(seconds=settings.ARENA_MATCH_STALE_S),
            live_stale_after=dt.timedelta(seconds=settings.ARENA_LIVE_STALE_S),
            queued_older_than=dt.timedelta(seconds=settings.ARENA_QUEUED_DEADLINE_S),
            infra_retry=dt.timedelta(seconds=settings.ARENA_INFRA_RETRY_S),
        )
    )
