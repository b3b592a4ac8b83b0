"""Who may do what in a league. Reads follow league visibility; writes follow membership roles."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import permissions

from league.models import League, Membership


def role_in(league: League, user) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Membership.Role.ORGANISER
    return (
        Membership.objects.filter(league=league, player__user=user)
        .values_list("role", flat=True)
        .first()
    )


def can_view(league: League, user) -> bool:
    return league.is_public or role_in(league, user) is not None


def can_log_games(league: League, user) -> bool:
    return role_in(league, user) in (Membership.Role.ORGANISER, Membership.Role.MEMBER)


def can_organise(league: League, user) -> bool:
    return role_in(league, user) == Membership.Role.ORGANISER


class LeagueObjectPermission(permissions.BasePermission):
    """Object-level rule for anything that belongs to a league (the league itself or a game)."""

    message = "Only this league's organisers may change it."

    def has_object_permission(self, request, view, obj) -> bool:
        league = obj if isinstance(obj, League) else obj.league
        if request.method in permissions.SAFE_METHODS:
            return can_view(league, request.user)
        return can_organise(league, request.user)


def visible_league(
    user,
    slug: str,
    *,
    organise: bool = False,
    refusal: str = "Only this league's organisers may do this.",
) -> League:
    """The league of a page; 404 for a private league the user may not see (it is not admitted
    to exist). With ``organise``, 403 saying ``refusal`` to anyone who does not organise it."""
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, user):
        raise Http404("No such league.")
    if organise and not can_organise(league, user):
        raise PermissionDenied(refusal)
    return league
