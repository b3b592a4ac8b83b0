"""Public pages of the league (the full site is still to come; these show the standings)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from league import selectors
from league.models import League
from league.permissions import can_view


def home(request):
    leagues = League.objects.visible_to(request.user)
    recent = selectors.games_for().filter(league__in=leagues)[:10]
    return render(request, "league/home.html", {"leagues": leagues, "recent": recent})


def league_list(request):
    leagues = League.objects.visible_to(request.user)
    return render(request, "league/league_list.html", {"leagues": leagues})


def league_detail(request, slug):
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, request.user):
        raise Http404("No such league.")
    season = None
    if request.GET.get("season", "").isdigit():
        season = league.seasons.filter(pk=int(request.GET["season"])).first()
    return render(
        request,
        "league/league_detail.html",
        {
            "league": league,
            "season": season,
            "seasons": league.seasons.all(),
            "standings": selectors.standings(league=league, season=season),
        },
    )
