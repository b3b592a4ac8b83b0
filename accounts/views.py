"""The account page: display name, league player, API tokens, e-mail choices, leagues and bots;
and the page the link in every e-mail opens, to change those choices without logging in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts import emails, selectors, services
from accounts.forms import DisplayNameForm, EmailPreferencesForm, TokenCreateForm
from accounts.models import ApiToken
from arena.live.selectors import live_games_of, play_ratings_of
from league.clubs import services as league_services
from league.results import selectors as confirmation_selectors

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page: every page here is one."""
    user = request.user
    assert user.is_authenticated
    return user


def _page(
    request: HttpRequest,
    *,
    name_form: DisplayNameForm | None = None,
    token_form: TokenCreateForm | None = None,
    email_form: EmailPreferencesForm | None = None,
    new_key: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    you = _you(request)
    overview = selectors.overview(user=you)
    waiting = confirmation_selectors.waiting_for(user=you)
    organised = set(confirmation_selectors.organised_leagues(user=you).values_list("pk", flat=True))
    response = render(
        request,
        "accounts/account.html",
        {
            "overview": overview,
            "name_form": name_form
            or DisplayNameForm(
                player=overview.player,
                initial={"name": overview.player.name if overview.player else ""},
            ),
            "token_form": token_form or TokenCreateForm(),
            "email_form": email_form
            or EmailPreferencesForm(preferences=overview.email_preferences),
            "new_key": new_key,
            "live_games": live_games_of(you, limit=5),
            "play_ratings": play_ratings_of(user=you),
            "waiting_for_you": waiting,
            "to_settle": confirmation_selectors.to_settle(user=you),
            "you_organise": organised,
            "confirm_many": any(game.league_id in organised for game in waiting),
        },
        status=status,
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def display_name(request: HttpRequest) -> HttpResponse:
    you = _you(request)
    player = selectors.overview(user=you).player
    form = DisplayNameForm(request.POST, player=player)
    if form.is_valid():
        try:
            if player is None:
                league_services.player_create(name=form.cleaned_data["name"], user=you, by=you)
            else:
                league_services.player_rename(player=player, name=form.cleaned_data["name"], by=you)
        except ValidationError as exc:
            for message in exc.message_dict.get("name", exc.messages):
                form.add_error("name", message)
        else:
            messages.success(request, "Display name saved.")
            return redirect("accounts:home")
    return _page(request, name_form=form, status=400)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    form = TokenCreateForm(request.POST)
    if form.is_valid():
        try:
            token, key = services.token_create(user=_you(request), name=form.cleaned_data["name"])
        except ValidationError as exc:
            for message in exc.message_dict.get("name", exc.messages):
                form.add_error("name", message)
        else:
            # Shown in this answer and never again: only the key's digest is stored.
            return _page(request, new_key={"name": token.name, "key": key})
    return _page(request, token_form=form, status=400)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    you = _you(request)
    token = ApiToken.objects.filter(pk=token_id, user=you).first()
    if token is None:
        raise Http404("No such token.")
    services.token_revoke(token=token, by=you)
    messages.success(request, f"Token “{token.name}” revoked; programs using it are refused now.")
    return redirect("accounts:home")


@login_required
@require_POST
def email_preferences(request: HttpRequest) -> HttpResponse:
    you = _you(request)
    form = EmailPreferencesForm(
        request.POST, preferences=selectors.email_preferences(user_id=you.pk)
    )
    if not form.is_valid():  # boxes cannot be wrong; kept for the form's contract
        return _page(request, email_form=form, status=400)
    services.email_preferences_set(user_id=you.pk, choices=form.cleaned_data)
    messages.success(request, "E-mail choices saved.")
    return redirect(reverse("accounts:home") + "#emails")


# The token in the address is the credential (it is signed and names one person), so the page
# needs no log-in, and mail programs may POST to it (RFC 8058 one-click unsubscribe) without a
# CSRF token.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def email_link(request: HttpRequest, token: str) -> HttpResponse:
    """Opened from an e-mail: stop that kind of e-mail in one click, or choose others.

    Only a POST changes anything: mail scanners that open every link must not unsubscribe."""
    found = emails.read_preferences_token(token)
    user = None
    if found is not None:
        user = get_user_model().objects.filter(pk=found[0]).first()
    if found is None or user is None:
        raise Http404("This link is not valid: open your account page to choose your e-mails.")
    kind = found[1]
    preferences = selectors.email_preferences(user_id=user.pk)
    form = EmailPreferencesForm(preferences=preferences)
    if request.method == "POST":
        one_click = request.POST.get("List-Unsubscribe") == "One-Click"
        if one_click or "stop" in request.POST:
            services.email_preferences_set(user_id=user.pk, choices={kind: False})
            messages.success(request, f"Done: no more e-mails for “{kind.label}”.")
            return redirect(request.path)
        form = EmailPreferencesForm(request.POST, preferences=preferences)
        if form.is_valid():
            services.email_preferences_set(user_id=user.pk, choices=form.cleaned_data)
            messages.success(request, "E-mail choices saved.")
            return redirect(request.path)
    response = render(
        request,
        "accounts/email_preferences.html",
        {
            "person": user,
            "kind": kind,
            "kind_on": preferences.wants(kind),
            "email_form": form,
        },
        status=400 if form.errors else 200,
    )
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response
