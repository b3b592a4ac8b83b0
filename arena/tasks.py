"""Celery tasks: fetch, call the runner, record. No game or rating logic lives here."""

from __future__ import annotations

import datetime as dt
import logging
import os

from celery import shared_task
from celery.signals import worker_process_init, worker_ready
from django.conf import settings
from django.db import DatabaseError

from arena import services
from arena.live import DatabaseHumanSeat, LiveWriter
from arena.models import Match
from arena.runner import BotSpec, BotSpecError, run_match
from arena.sandbox import (
    Limits,
    NoFreeSlot,
    SandboxUnavailable,
    allows_ranked,
    resolve_mode,
    sweep_stages,
)
from engine.errors import EngineError

logger = logging.getLogger(__name__)


# While the database is unreachable a task is tried again this often, this many times; after
# that the reaper finds the match (still queued, or running past its deadline) and resends it.
DB_RETRY_SECONDS = 5
DB_RETRIES = 24


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
            specs.append(BotSpec.builtin(seat.builtin))
        else:
            specs.append(BotSpec.human(seat.label))
    return specs


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def match_run(self, match_id: int, dispatch: int | None = None) -> None:
    """Claim, play, record. ``dispatch`` says which hand-over of the match this message is."""
    try:
        _play(match_id, dispatch)
    except DatabaseError as exc:
        # The database blinked: try again shortly. Recording is idempotent and claiming a
        # running match replays it from its seed, so a retry after any step is safe.
        logger.warning("match %s: database unavailable (%s); retrying", match_id, exc)
        raise self.retry(countdown=DB_RETRY_SECONDS, max_retries=DB_RETRIES) from exc


def _play(match_id: int, dispatch: int | None) -> None:
    match = services.match_claim(match_id, dispatch)
    if match is None:
        return  # settled, or superseded by a newer hand-over: nothing to do
    try:
        mode = sandbox_mode()
        if match.kind in (Match.Kind.LADDER, Match.Kind.TOURNAMENT) and not allows_ranked(mode):
            services.match_fail(
                match_id=match.pk,
                reason=f"ranked matches refuse the development-only sandbox {mode!r}",
            )
            return
        humans, on_step = {}, None
        if match.kind == Match.Kind.LIVE:
            humans = {
                seat.seat: DatabaseHumanSeat(match.pk, seat.seat) for seat in match.live_seats.all()
            }
            on_step = LiveWriter(match)
        log = run_match(
            game=match.game,
            seed=match.seed,
            bots=_specs(match),
            limits=Limits.from_json(match.limits),
            mode=mode,
            options=match.options or None,
            humans=humans,
            on_step=on_step,
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
def ladder_tick() -> int:
    return services.ladder_tick()


@shared_task(ignore_result=True)
def reap_stuck_matches() -> int:
    """Resend the matches that are not moving, and remove bot files killed workers left."""
    sweep_stages()
    return len(
        services.reap_stuck(
            older_than=dt.timedelta(seconds=settings.ARENA_MATCH_DEADLINE_S),
            queued_older_than=dt.timedelta(seconds=settings.ARENA_QUEUED_DEADLINE_S),
            infra_retry=dt.timedelta(seconds=settings.ARENA_INFRA_RETRY_S),
        )
    )
