"""The front page: the visitor's leagues with their latest games, and the arena's ladders and
latest matches."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from arena.common import recent_matches
from arena.ladders.selectors import ladder_summaries
from league.models import League
from league.results import selectors as confirmation_selectors
from league.results import selectors as league_selectors

RECENT_ON_HOME = 10
LADDER_ROWS_ON_HOME = 3
RECENT_MATCHES_ON_HOME = 5


def home(request: HttpRequest) -> HttpResponse:
    leagues = League.objects.visible_to(request.user).order_by("name")
    return render(
        request,
        "home.html",
        {
            "summaries": league_selectors.league_summaries(leagues=leagues),
            "recent": league_selectors.latest_games(leagues=leagues, limit=RECENT_ON_HOME),
            "arena_ladders": ladder_summaries(top=LADDER_ROWS_ON_HOME, with_bots_only=True),
            "arena_recent": recent_matches(limit=RECENT_MATCHES_ON_HOME),
            "waiting_for_you": confirmation_selectors.waiting_for(user=request.user),
        },
    )
