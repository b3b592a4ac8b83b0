"""The account page: display name, league player, API tokens, leagues and bots."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import DisplayNameForm, TokenCreateForm
from accounts.models import ApiToken
from arena import selectors as arena_selectors
from league import confirmation_selectors
from league import services as league_services


def _page(request, *, name_form=None, token_form=None, new_key=None, status=200):
    overview = selectors.overview(user=request.user)
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
            "live_games": arena_selectors.live_games_of(request.user, limit=5),
            "play_ratings": arena_selectors.play_ratings_of(user=request.user),
            "waiting_for_you": confirmation_selectors.waiting_for(user=request.user),
        },
        status=status,
    )
    response["Cache-Control"] = "no-store"
    return response


@login_required
def account(request):
    return _page(request)


@login_required
@require_POST
def display_name(request):
    player = selectors.overview(user=request.user).player
    form = DisplayNameForm(request.POST, player=player)
    if form.is_valid():
        try:
            if player is None:
                league_services.player_create(
                    name=form.cleaned_data["name"], user=request.user, by=request.user
                )
            else:
                league_services.player_rename(
                    player=player, name=form.cleaned_data["name"], by=request.user
                )
        except ValidationError as exc:
            for message in exc.message_dict.get("name", exc.messages):
                form.add_error("name", message)
        else:
            messages.success(request, "Display name saved.")
            return redirect("accounts:home")
    return _page(request, name_form=form, status=400)


@login_required
@require_POST
def token_create(request):
    form = TokenCreateForm(request.POST)
    if form.is_valid():
        try:
            token, key = services.token_create(user=request.user, name=form.cleaned_data["name"])
        except ValidationError as exc:
            for message in exc.message_dict.get("name", exc.messages):
                form.add_error("name", message)
        else:
            # Shown in this answer and never again: only the key's digest is stored.
            return _page(request, new_key={"name": token.name, "key": key})
    return _page(request, token_form=form, status=400)


@login_required
@require_POST
def token_revoke(request, token_id: int):
    token = ApiToken.objects.filter(pk=token_id, user=request.user).first()
    if token is None:
        raise Http404("No such token.")
    services.token_revoke(token=token, by=request.user)
    messages.success(request, f"Token “{token.name}” revoked; programs using it are refused now.")
    return redirect("accounts:home")
