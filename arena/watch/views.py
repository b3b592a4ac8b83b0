"""The watch page of a match: anyone follows it as it plays, as a spectator.

The page is the live table's shell (``static/js/play.js`` in its read-only mode, with no move
controls) filled from :func:`watch_state`, long-polled as the table is: given the version the
page shows, it answers when the worker publishes the next position (:mod:`arena.watch.services`)
or the match ends. Everyone, logged in or not, gets the same answer: the spectator's view, in
which no seat's hidden cards, no deck order and no seed appear (a person playing the match
sees their own seat at their table, never here). Once the match is over the answer carries the
result and the match page's address, where the replay shows everything.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from arena import web
from arena.common import game_label
from arena.live import wakeup
from arena.models import Match, MatchWatch
from arena.watch.services import SHARED_DEAL, watch_key


def watch(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    seats = list(match.seats.select_related("version__bot", "player").order_by("seat"))
    names = [seat.label for seat in seats]
    return render(
        request,
        "arena/watch.html",
        {
            "match": match,
            "names": names,
            "game_label": game_label(match.game),
            "arena_section": "matches",
            "board_data": {"names": names},  # the renderer and card data come with the first state
            "urls": {
                "state": reverse("arena:match-watch-state", args=[match.pk]),
                "replay": reverse("arena:match", args=[match.pk]),
            },
        },
    )


def _version(match: Match, shown: MatchWatch | None) -> str:
    """Everything the watch page shows changes this."""
    written = shown.updated_at.timestamp() if shown is not None else 0
    return f"{match.status}.{match.attempts}.{shown.step if shown else '-'}.{written}"


def _read(pk: int) -> tuple[Match, MatchWatch | None]:
    match = get_object_or_404(Match, pk=pk)
    if match.status in Match.OPEN_STATUSES and not match.watchable:
        return match, None  # another table plays the same deal: nothing of it shows here
    return match, MatchWatch.objects.filter(match_id=pk).first()


@web.json_endpoint(login=False, missing="This match is gone.")
def watch_state(request: HttpRequest, pk: int) -> JsonResponse:
    """The spectator's table; with ``since`` (the ``version`` the page shows) the answer waits
    until the match moves on or ARENA_LIVE_LONG_POLL_S pass."""
    match, shown = _read(pk)
    since = request.GET.get("since")
    if since:
        give_up = time.monotonic() + settings.ARENA_LIVE_LONG_POLL_S
        with wakeup.listening(watch_key(pk)) as wait:
            # Read again once listening, so a move published just before is not missed.
            match, shown = _read(pk)
            while _version(match, shown) == since and (left := give_up - time.monotonic()) > 0:
                wait(min(left, wakeup.SAFETY_S))  # rung, or a look in case a ring was lost
                match, shown = _read(pk)
    board: dict[str, Any] = shown.board if shown is not None else {}
    meta = board.get("meta") or {}
    state = {
        "status": match.status,
        "version": _version(match, shown),
        "watching": True,
        "you": None,
        "step": shown.step if shown is not None else None,
        "board": {key: board.get(key) for key in ("view", "to_move", "scores", "events")},
        "cards": meta.get("cards", {}),
        "renderer": board.get("renderer"),
        "meta": meta if request.GET.get("meta") != "have" else None,
        "log": shown.log if shown is not None else [],
        "asked_step": None,
        "legal": [],
        "moves": [],
        "failure": match.failure if match.status == Match.Status.FAILED else "",
        "waiting": _waiting(match),
        "result": _result(match) if match.status == Match.Status.FINISHED else None,
    }
    response = JsonResponse(state)
    response["Cache-Control"] = "no-store"
    return response


def _waiting(match: Match) -> str:
    if match.status not in Match.OPEN_STATUSES:
        return ""
    if not match.watchable:
        return SHARED_DEAL
    return match.infra_failure if match.status == Match.Status.QUEUED else ""


def _result(match: Match) -> dict[str, Any]:
    seats = list(match.seats.order_by("seat"))
    return {
        "ranks": [s.rank for s in seats],
        "scores": [s.score for s in seats],
        "forfeited": (match.log or {}).get("forfeited", []),
    }
