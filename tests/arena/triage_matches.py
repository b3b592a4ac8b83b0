"""Recorded matches for the triage tests (tests/arena and tests/e2e): real logs of house bots
(no sandbox needed), seated with bot versions, with the faults, stderr and results a test
needs."""

from __future__ import annotations

import copy
import functools
import hashlib
from typing import Any

from django.utils import timezone

from arena.models import Bot, BotVersion, Match, MatchSeat
from arena.runner import run_match


def version(bot: Bot, number: int) -> BotVersion:
    """An active version, stored without its validation match."""
    source = f"def choose(o, legal):\n    return {number}\n"
    return BotVersion.objects.create(
        bot=bot,
        number=number,
        source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(),
        size=len(source),
        author=bot.owner,
        status=BotVersion.Status.ACTIVE,
    )


@functools.cache
def house_log(seed: int, players: int) -> dict[str, Any]:
    """A real match log of house bots (no sandbox needed): the triage reads only the log."""
    return run_match(seed=seed, bots=["greedy"] * players)


def played(
    seats: list[BotVersion | None],
    *,
    seed: int = 1,
    ranks: list[int] | None = None,
    scores: list[int] | None = None,
    faults_at: dict[int, list[tuple[int | None, str, str]]] | None = None,
    stderr: dict[int, str] | None = None,
    forfeited: tuple[int, ...] = (),
    status: str = Match.Status.FINISHED,
    duplicate_set: str = "",
) -> Match:
    """A recorded match: ``seats`` are versions (None: a house bot); ranks, scores, faults
    (seat -> [(step, status, reason)]) and stderr overrule the real log's."""
    log = copy.deepcopy(house_log(seed, len(seats)))
    ranks = ranks or log["result"]["ranks"]
    scores = scores or log["result"]["scores"]
    log["result"].update(ranks=ranks, scores=scores)
    log["forfeited"] = list(forfeited)
    log["faults"] = [[] for _ in seats]
    log["stderr"] = [(stderr or {}).get(seat, "") for seat in range(len(seats))]
    for seat, listed in (faults_at or {}).items():
        for step, fault_status, reason in listed:
            log["faults"][seat].append({"step": step, "status": fault_status, "reason": reason})
            if step is not None:
                log["steps"][step].update(seat=seat, status=fault_status, reason=reason)
    match = Match.objects.create(
        kind=Match.Kind.CHALLENGE,
        seed=seed,
        status=status,
        log=log if status == Match.Status.FINISHED else None,
        finished_at=timezone.now(),
        duplicate_set=duplicate_set,
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(
            match=match,
            seat=seat,
            version=version,
            builtin="" if version else "greedy",
            score=scores[seat] if status == Match.Status.FINISHED else None,
            rank=ranks[seat] if status == Match.Status.FINISHED else None,
            faults=len(log["faults"][seat]),
            forfeited=seat in forfeited,
        )
        for seat, version in enumerate(seats)
    )
    return match
