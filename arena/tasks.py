"""Celery tasks: fetch, call the runner, record. No game or rating logic lives here."""

from __future__ import annotations

import datetime as dt
import functools
import logging
import os

from celery import shared_task
from celery.signals import worker_process_init

from arena import services
from arena.models import Match
from arena.runner import BotSpec, BotSpecError, run_match
from arena.sandbox import Limits, SandboxUnavailable, allows_ranked, resolve_mode
from engine.errors import EngineError

logger = logging.getLogger(__name__)

# A match still running after this long is failed by the reaper (its worker is gone or stuck).
MATCH_DEADLINE = dt.timedelta(seconds=int(os.environ.get("ARENA_MATCH_DEADLINE_S", "600")))


@functools.cache
def sandbox_mode() -> str:
    """The strongest sandbox this worker can run (or ARENA_SANDBOX_MODE), found once per process."""
    return str(resolve_mode(os.environ.get("ARENA_SANDBOX_MODE") or None))


@worker_process_init.connect
def _detect_sandbox_at_start(**_kwargs) -> None:
    try:
        logger.info("arena worker sandbox mode: %s", sandbox_mode())
    except SandboxUnavailable as exc:
        logger.error("arena worker has no usable sandbox: %s", exc)


def _specs(match: Match) -> list[BotSpec]:
    specs = []
    for seat in match.seats.select_related("version", "version__bot").order_by("seat"):
        if seat.version is not None:
            specs.append(BotSpec.from_source(seat.version.source, name=str(seat.version)))
        else:
            specs.append(BotSpec.builtin(seat.builtin))
    return specs


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def match_run(match_id: int) -> None:
    match = services.match_claim(match_id)
    if match is None:
        return  # already finished or failed: a redelivered task has nothing to do
    try:
        mode = sandbox_mode()
        if match.kind in (Match.Kind.LADDER, Match.Kind.TOURNAMENT) and not allows_ranked(mode):
            services.match_fail(match_id=match.pk,
                                reason=f"ranked matches refuse the development-only sandbox {mode!r}")
            return
        log = run_match(game=match.game, seed=match.seed, bots=_specs(match),
                        limits=Limits.from_json(match.limits), mode=mode,
                        options=match.options or None)
    except (BotSpecError, SandboxUnavailable, EngineError, ValueError) as exc:
        services.match_fail(match_id=match.pk, reason=f"{type(exc).__name__}: {exc}")
        return
    services.match_record(match_id=match.pk, log=log)


@shared_task(ignore_result=True)
def ladder_tick() -> int:
    return services.ladder_tick()


@shared_task(ignore_result=True)
def reap_stuck_matches() -> int:
    return len(services.reap_stuck(older_than=MATCH_DEADLINE))
