"""Tournament pages: one tournament, a new one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from arena.models import Tournament
from arena.submissions.selectors import challenge_candidates
from arena.tournaments.forms import TournamentForm
from arena.tournaments.selectors import (
    tournament_matches_by_round,
    tournament_overview,
    tournament_progress,
)
from arena.tournaments.services import tournament_start
from arena.web import form_page, you


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    return render(
        request,
        "arena/tournament.html",
        {
            "tournament": tournament,
            **tournament_overview(tournament),
            "rounds": tournament_matches_by_round(tournament),
            "progress": tournament_progress(tournament),
            "refresh_seconds": TOURNAMENT_REFRESH_SECONDS
            if tournament.status == Tournament.Status.RUNNING
            else None,
        },
    )


# A running tournament's page reloads itself, so its progress shows without JavaScript.
TOURNAMENT_REFRESH_SECONDS = 10


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    user = you(request)
    versions = challenge_candidates(user)
    form = TournamentForm(request.POST or None, user=user, versions=versions)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = tournament_start(
                name=data["name"],
                organiser=user,
                entrants=form.entrant_versions(),
                house_entrants=form.house_entrant_names(),
                game=data["game"] or None,
                table_size=data["table_size"],
                format=data["format"],
                rounds=data["rounds"],
                seed=data.get("seed"),
                final_size=data["final_size"],
            )
        except ValidationError as exc:
            form.apply_service_errors(exc)
        else:
            messages.success(request, f"{tournament.name} has started: round 1 is queued.")
            return redirect("arena:tournament", pk=tournament.pk)
    return form_page(request, "arena/tournament_new.html", form, {"arena_section": "tournament"})
