"""Reads of matches for pages: the matches list, what is playing, and which seats' logs a
viewer may read in full."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from arena.common import RECENT_MATCHES, with_seats
from arena.models import (
    Match,
)
from arena.submissions.selectors import owns_bot


def live_matches(*, limit: int = RECENT_MATCHES) -> list[Match]:
    """Running matches first, then the oldest queued ones."""
    running = Match.objects.filter(status=Match.Status.RUNNING).order_by("started_at", "id")
    queued = Match.objects.filter(status=Match.Status.QUEUED).order_by("created_at", "id")
    found = list(with_seats(running)[:limit])
    if len(found) < limit:
        found += list(with_seats(queued)[: limit - len(found)])
    return found


def queued_count() -> int:
    return Match.objects.filter(status__in=[Match.Status.QUEUED, Match.Status.RUNNING]).count()


def owned_seats(match: Match, user: Any) -> set[int]:
    """The seats of ``match`` whose bot ``user`` owns (empty for visitors)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return {
        s.seat for s in match.seats.all() if s.version is not None and owns_bot(s.version.bot, user)
    }


def log_for_viewer(match: Match, user: Any) -> dict[str, Any]:
    """A match log as ``user`` may see it: stderr and fault texts only for the seats whose bot
    they own (the match page's rule); everyone sees which moves faulted and how."""
    log = match.log or {}
    owned = owned_seats(match, user)
    visible = dict(log)
    visible["stderr"] = [
        text if seat in owned else None for seat, text in enumerate(log.get("stderr") or [])
    ]
    visible["faults"] = [
        [fault if seat in owned else {**fault, "reason": None} for fault in faults]
        for seat, faults in enumerate(log.get("faults") or [])
    ]
    visible["steps"] = [
        step if step.get("seat") in owned or not step.get("reason") else {**step, "reason": None}
        for step in log.get("steps") or []
    ]
    return visible


def matches_page(*, status: str | None = None, duplicate_set: str = "") -> QuerySet[Match]:
    matches = Match.objects.exclude(kind=Match.Kind.VALIDATION)
    if duplicate_set:
        matches = matches.filter(duplicate_set=duplicate_set)
    if status:
        matches = matches.filter(status=status)
    return with_seats(matches.order_by("-created_at", "-id"))


def has_faults(match: Match) -> bool:
    return any(s.faults for s in match.seats.all())
