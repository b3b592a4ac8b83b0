"""The public pages of leagues and players: the league list, a league's page (standings, games)
and a player's page. Views pick what to show and who may see it; selectors do the reads,
templates only format."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from league.clubs import selectors
from league.models import League, Player
from league.permissions import can_log_games, can_organise, visible_league
from league.results import selectors as result_selectors
from league.results import standings
from ratings import charts

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


_T = TypeVar("_T")

GAMES_PER_PAGE = 20
# Opponents listed on a player page unless all are asked for (most shared games first).
HEAD_TO_HEAD_SHOWN = 25


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


def _page(request: HttpRequest, items: QuerySet[Any, _T] | Sequence[_T], per_page: int) -> Page[_T]:
    """One page of `items`; a missing, bad or out-of-range ?page= shows the nearest page."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = League.objects.visible_to(request.user).order_by("name")
    return render(
        request,
        "league/league_list.html",
        {"summaries": result_selectors.league_summaries(leagues=leagues)},
    )


def _my_player_id(user: User | AnonymousUser) -> int | None:
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).values_list("pk", flat=True).first()


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = visible_league(request.user, slug)
    season = None
    raw_season = request.GET.get("season", "")
    if raw_season:
        if not raw_season.isdigit():
            raise Http404("No such season.")
        season = get_object_or_404(league.seasons, pk=int(raw_season))
    games = _page(
        request, result_selectors.recent_games(league=league, season=season), GAMES_PER_PAGE
    )
    return render(
        request,
        "league/league_detail.html",
        {
            "league": league,
            "season": season,
            "seasons": list(league.seasons.order_by("-starts_on")),
            "standings": standings.standings(league=league, season=season),
            "games": games,
            "can_log": can_log_games(league, request.user),
            "can_organise": can_organise(league, request.user),
            "my_player_id": _my_player_id(request.user),
            "disputes": result_selectors.open_disputes(leagues=[league])
            if can_organise(league, request.user)
            else [],
        },
    )


def _rating_points(player: Player, league: League) -> list[tuple[dt.datetime, float]]:
    points = []
    for day, time, rating in result_selectors.rating_history(
        player=player, league=league
    ).values_list("game__played_on", "game__played_time", "rating_after"):
        assert rating is not None  # rating_history keeps the games with a rating after
        points.append((dt.datetime.combine(day, time or dt.time(0)), rating))
    return points


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=player_id)
    visible = League.objects.visible_to(request.user)
    leagues = selectors.player_leagues(player=player, leagues=visible)
    is_me = request.user.is_authenticated and player.user_id == request.user.pk
    if not leagues and not is_me:
        # Someone who plays only in private leagues is not shown to those who cannot see them.
        raise Http404("No such player.")
    chosen = None
    if request.GET.get("league"):
        chosen = next((lg for lg in leagues if lg.slug == request.GET["league"]), None)
        if chosen is None:
            raise Http404("This player has no games in that league.")
    shown = [chosen] if chosen else leagues
    series = [(league.name, _rating_points(player, league)) for league in shown]
    chart = charts.rating_chart(series, title=f"{player.name}'s rating over time")
    standings = result_selectors.player_standings(player=player, leagues=shown)
    opponents = result_selectors.head_to_head(player=player, leagues=shown)
    games = _page(
        request, result_selectors.player_game_ids(player=player, leagues=shown), GAMES_PER_PAGE
    )
    all_opponents = request.GET.get("opponents") == "all"
    return render(
        request,
        "league/player_detail.html",
        {
            "player": player,
            "leagues": leagues,
            "chosen": chosen,
            "chart": chart,
            "standings": standings,
            "games": games,
            "game_rows": result_selectors.player_game_rows(ids=list(games.object_list)),
            "head_to_head": opponents if all_opponents else opponents[:HEAD_TO_HEAD_SHOWN],
            "opponents_count": len(opponents),
        },
    )
