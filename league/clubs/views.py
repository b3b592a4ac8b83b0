"""The organisers' pages: start a league, its settings and seasons, members and invitations,
and the change log. Views parse and check who may act; services write."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.clubs import changelog, invitations, selectors, services
from league.clubs.forms import (
    GuestForm,
    InvitationForm,
    LeagueCreateForm,
    LeagueSettingsPageForm,
    SeasonStartForm,
    refusals_said,
    submit,
)
from league.models import Invitation, League, Membership, Player, Season
from league.permissions import can_organise, role_in, visible_league
from league.rating_systems import ELO

if TYPE_CHECKING:
    from django.contrib.auth.models import User

AUDIT_PER_PAGE = 50
_SETTINGS = (
    "name",
    "description",
    "is_public",
    "provisional_games",
    "rating_system",
    "confirmation",
    "confirmation_days",
)


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


def _league(request: HttpRequest, slug: str, *, organise: bool = False) -> League:
    return visible_league(request.user, slug, organise=organise)


def _button(
    request: HttpRequest, league: League, act: Callable[[], object], said: str, *, then: str
) -> HttpResponse:
    """What an organiser's button with no form of its own does (close, promote, remove):
    ``act`` (one service call); its refusal becomes error messages (`refusals_said`), its
    success the message ``said``; then the league's page ``then``."""
    if refusals_said(request, act):
        messages.success(request, said)
    return redirect(then, slug=league.slug)


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueCreateForm(request.POST or None)
    league = request.method == "POST" and submit(
        form,
        lambda data: services.league_create(
            name=data["name"],
            slug=data["slug"],
            game=data["game"],
            by=_you(request),
            description=data["description"],
            is_public=data["is_public"],
            k_factor=data["k_factor"],
            initial_rating=data["initial_rating"],
            provisional_games=data["provisional_games"],
            rating_system=data["rating_system"] or ELO,
        ),
    )
    if league:
        messages.success(
            request, f"{league.name} is started. Invite your group from its members page."
        )
        return redirect("league:members", slug=league.slug)
    return render(
        request, "league/club/create.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
def league_settings(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug, organise=True)
    initial = _settings(league)
    form = LeagueSettingsPageForm(request.POST or None, initial=initial)
    if request.method == "POST" and submit(
        form, lambda data: services.league_update(league=league, by=_you(request), **data)
    ):
        chosen = form.cleaned_data["rating_system"]
        rebuilt = chosen is not None and chosen != initial["rating_system"]
        messages.success(
            request, "Settings saved; every rating recomputed." if rebuilt else "Settings saved."
        )
        return redirect("league:settings", slug=league.slug)
    return _settings_page(request, league, form=form)


def _settings(league: League) -> dict[str, Any]:
    return {name: getattr(league, name) for name in _SETTINGS}


def _settings_page(
    request: HttpRequest,
    league: League,
    *,
    form: LeagueSettingsPageForm | None = None,
    season_form: SeasonStartForm | None = None,
) -> HttpResponse:
    status = 400 if (form and form.errors) or (season_form and season_form.errors) else 200
    return render(
        request,
        "league/club/settings.html",
        {
            "league": league,
            "form": form or LeagueSettingsPageForm(initial=_settings(league)),
            "season_form": season_form or SeasonStartForm(),
            "seasons": list(league.seasons.order_by("-starts_on")),
        },
        status=status,
    )


@login_required
@require_POST
def season_start(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug, organise=True)
    form = SeasonStartForm(request.POST)
    season = submit(
        form, lambda data: services.season_create(league=league, by=_you(request), **data)
    )
    if season:
        messages.success(request, f"{season.name} started.")
        return redirect("league:settings", slug=league.slug)
    return _settings_page(request, league, season_form=form)


@login_required
@require_POST
def season_close(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = _league(request, slug, organise=True)
    season = get_object_or_404(Season, pk=season_id, league=league)
    return _button(
        request,
        league,
        lambda: services.season_close(season=season, by=_you(request)),
        f"{season.name} closed today.",
        then="league:settings",
    )


# --- members and invitations ---------------------------------------------------------------


def _guests(league: League) -> QuerySet[Player]:
    return Player.objects.filter(memberships__league=league, user__isnull=True).order_by("name")


def _members_page(
    request: HttpRequest,
    league: League,
    *,
    guest_form: GuestForm | None = None,
    invitation_form: InvitationForm | None = None,
    new_invitation: Invitation | None = None,
    emailed_to: str = "",
) -> HttpResponse:
    organiser = can_organise(league, request.user)
    status = 400 if any(f is not None and f.errors for f in (guest_form, invitation_form)) else 200
    return render(
        request,
        "league/club/members.html",
        {
            "league": league,
            "members": selectors.members(league=league),
            "organiser": organiser,
            "my_role": role_in(league, request.user),
            "guest_form": guest_form or GuestForm(),
            "invitation_form": invitation_form or InvitationForm(guests=_guests(league)),
            "invitations": selectors.open_invitations(league=league) if organiser else [],
            "new_invitation": new_invitation,
            "emailed_to": emailed_to,
        },
        status=status,
    )


def members(request: HttpRequest, slug: str) -> HttpResponse:
    return _members_page(request, _league(request, slug))


@login_required
@require_POST
def guest_add(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug, organise=True)
    form = GuestForm(request.POST)
    membership = submit(
        form, lambda data: services.guest_add(league=league, name=data["name"], by=_you(request))
    )
    if membership:
        messages.success(request, f"{membership.player.name} added as a guest.")
        return redirect("league:members", slug=league.slug)
    return _members_page(request, league, guest_form=form)


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    league = _league(request, slug, organise=True)
    membership = get_object_or_404(Membership, pk=membership_id, league=league)
    role = request.POST.get("role", "")
    said = "an organiser" if role == Membership.Role.ORGANISER else "a member"
    return _button(
        request,
        league,
        lambda: services.member_set_role(membership=membership, role=role, by=_you(request)),
        f"{membership.player.name} is now {said}.",
        then="league:members",
    )


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str, membership_id: int) -> HttpResponse:
    league = _league(request, slug, organise=True)
    membership = get_object_or_404(Membership, pk=membership_id, league=league)
    return _button(
        request,
        league,
        lambda: services.member_remove(membership=membership, by=_you(request)),
        f"{membership.player.name} removed; their games stay.",
        then="league:members",
    )


@login_required
@require_POST
def invitation_create(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug, organise=True)
    form = InvitationForm(request.POST, guests=_guests(league))
    invitation = submit(
        form,
        lambda data: invitations.invitation_create(
            league=league, by=_you(request), player=data["player"], email=data["email"]
        ),
    )
    if invitation:
        return _members_page(
            request, league, new_invitation=invitation, emailed_to=form.cleaned_data["email"]
        )
    return _members_page(request, league, invitation_form=form)


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, slug: str, invitation_id: int) -> HttpResponse:
    league = _league(request, slug, organise=True)
    invitation = get_object_or_404(Invitation, pk=invitation_id, league=league)
    invitations.invitation_revoke(invitation=invitation, by=_you(request))
    messages.success(request, "Invitation withdrawn: its link no longer works.")
    return redirect("league:members", slug=league.slug)


def invitation(request: HttpRequest, token: str) -> HttpResponse:
    """The page an invitation link opens: who invites you to what; accept to join.

    A visitor without an account is sent to sign up (or log in) and comes back here; with
    CATLEAGUE_SIGNUP=invite the invitation is what lets them sign up."""
    found = Invitation.objects.select_related("league", "player").filter(token=token).first()
    if found is None:
        raise Http404("No such invitation.")
    problem = invitations.invitation_problem(found)
    if request.method == "POST" and problem is None:
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            membership = invitations.invitation_accept(invitation=found, user=request.user)
        except ValidationError as exc:
            problem = " ".join(exc.messages)
        else:
            request.session.pop(Invitation.SESSION_KEY, None)
            messages.success(
                request, f"Welcome to {found.league.name}: you play as {membership.player.name}."
            )
            return redirect("league:detail", slug=found.league.slug)
    if problem is None and not request.user.is_authenticated:
        request.session[Invitation.SESSION_KEY] = token
    already = (
        request.user.is_authenticated
        and found.league.memberships.filter(player__user=request.user).exists()
    )
    return render(
        request,
        "league/club/invitation.html",
        {
            "invitation": found,
            "problem": problem,
            "already_member": already,
            "next_path": request.path,
        },
        status=410 if problem else 200,
    )


# --- change log and exports --------------------------------------------------------------


@login_required
def audit(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug, organise=True)
    page = Paginator(selectors.audit_entries(league=league), AUDIT_PER_PAGE).get_page(
        request.GET.get("page")
    )
    lines = changelog.change_lines(league, page.object_list)
    return render(
        request, "league/club/audit.html", {"league": league, "page": page, "lines": lines}
    )
