"""A version's gauntlet page: public like the bot page; only the bot's owner decides (POST,
with its CSRF token), and anyone else's decision is a 403."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from arena.gauntlet import services
from arena.gauntlet.forms import DecisionForm
from arena.gauntlet.selectors import Opponent, against_replaced, gauntlet_of, gauntlet_tallies
from arena.live.strength import STRENGTHS
from arena.models import Gauntlet
from arena.web import apply_service_errors, you

# The page reloads itself this often while games are still coming in.
RELOAD_S = 10


def _owner(gauntlet: Gauntlet, request: HttpRequest) -> bool:
    return request.user.is_authenticated and gauntlet.version.bot.owner_id == request.user.pk


def _gauntlet(name: str, number: int) -> Gauntlet:
    gauntlet = gauntlet_of(name, number)
    if gauntlet is None:
        raise Http404("This version has no gauntlet.")
    return gauntlet


def _page(request: HttpRequest, gauntlet: Gauntlet, form: DecisionForm) -> HttpResponse:
    tallies = gauntlet_tallies(gauntlet)
    context = {
        "gauntlet": gauntlet,
        "bot": gauntlet.version.bot,
        "version": gauntlet.version,
        "owner": _owner(gauntlet, request),
        "tallies": tallies,
        "replaced": against_replaced(tallies),
        "house": [t for t in tallies if t.opponent != Opponent.REPLACED],
        "total": sum(t.total for t in tallies),
        "played": sum(t.played for t in tallies),
        "form": form,
        "reload_s": RELOAD_S,
        "mcts_strength": STRENGTHS[gauntlet.mcts_strength],
    }
    return render(request, "arena/gauntlet.html", context, status=400 if form.errors else 200)


@require_GET
def gauntlet_detail(request: HttpRequest, name: str, number: int) -> HttpResponse:
    gauntlet = _gauntlet(name, number)
    return _page(
        request,
        gauntlet,
        DecisionForm(initial={"promote_when_not_worse": gauntlet.promote_when_not_worse}),
    )


@require_POST
def gauntlet_decide(request: HttpRequest, name: str, number: int) -> HttpResponse:
    gauntlet = _gauntlet(name, number)
    if not _owner(gauntlet, request):
        raise PermissionDenied("Only the bot's owner decides what its gauntlet leads to.")
    form = DecisionForm(request.POST)
    if form.is_valid():
        action = form.cleaned_data["action"]
        try:
            if action == "promote":
                services.gauntlet_promote(gauntlet=gauntlet, by=you(request))
                done = f"v{gauntlet.version.number} is promoted: it plays on the ladders now."
            elif action == "keep":
                services.gauntlet_keep(gauntlet=gauntlet, by=you(request))
                done = f"v{gauntlet.replaces.number} stays on the ladders."
            else:
                on = form.cleaned_data["promote_when_not_worse"]
                services.gauntlet_auto_rule(
                    gauntlet=gauntlet, by=you(request), promote_when_not_worse=on
                )
                done = "The rule is set." if on else "The rule is off: you decide at the end."
        except ValidationError as exc:
            apply_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("arena:gauntlet", name=name, number=number)
    return _page(request, _gauntlet(name, number), form)
