"""The arena's front page: ladders, matches playing and waiting, the latest results and
tournaments. The rooms' own pages live in their packages (``arena.<room>.views``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.common import recent_matches
from arena.ladders.selectors import ladder_summaries
from arena.matches.selectors import live_matches, queued_count
from arena.tournaments.selectors import tournaments


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "arena/home.html",
        {
            "ladders": ladder_summaries(top=5),
            "live": live_matches(limit=8),
            "waiting": queued_count(),
            "recent": recent_matches(limit=12),
            "tournaments": tournaments(limit=8),
        },
    )
