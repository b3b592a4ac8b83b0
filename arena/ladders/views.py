"""A ladder's page: its standings and latest matches."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from arena.common import recent_matches
from arena.ladders.selectors import ladder_standings
from arena.models import Ladder

LADDER_PAGE_SIZE = 100


def ladder_detail(request: HttpRequest, pk: int) -> HttpResponse:
    ladder = get_object_or_404(Ladder, pk=pk)
    # Positions come from the whole ladder; a page shows LADDER_PAGE_SIZE of them.
    page = Paginator(ladder_standings(ladder), LADDER_PAGE_SIZE).get_page(request.GET.get("page"))
    rows = page.object_list
    return render(
        request,
        "arena/ladder.html",
        {
            "ladder": ladder,
            "rows": rows,
            "page": page,
            # One reverse() for the page, not one per row: a ladder can rank hundreds of bots.
            "bot_url": reverse("arena:bot", args=["-"])[:-2],
            "seat_numbers": range(1, ladder.players + 1),
            "recent": recent_matches(limit=10, ladder=ladder),
        },
    )
