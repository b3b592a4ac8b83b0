"""The account page: display name, league player, API tokens, leagues and bots."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import DisplayNameForm, TokenCreateForm
from accounts.models import ApiToken
from arena import selectors as arena_selectors
from league import confirmation_selectors
from league import services as league_services

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
    new_key: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    you = _you(request)
    overview = selectors.overview(user=you)
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
            "new_key": new_key,
            "live_games": arena_selectors.live_games_of(you, limit=5),
            "play_ratings": arena_selectors.play_ratings_of(user=you),
            "waiting_for_you": confirmation_selectors.waiting_for(user=you),
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
