"""Confirming, disputing and settling results that wait for confirmation (the league's
setting). Participants act from the game's page; organisers settle disputes there too."""

from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from league import confirmation_selectors, services
from league.models import Game, GameDispute, League
from league.permissions import can_organise, can_view


class DisputeForm(forms.Form):
    reason = forms.CharField(
        label="What is wrong?",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text="The organisers read this and correct, confirm or delete the game.",
    )


class ResolveForm(forms.Form):
    note = forms.CharField(label="Note (optional)", max_length=2000, required=False)


@dataclass(frozen=True)
class ConfirmationState:
    """What the game page shows about a result's confirmation, and what this visitor may do."""

    game: Game
    confirmed_by: list[str]
    may_confirm: bool
    may_dispute: bool
    dispute: GameDispute | None
    may_resolve: bool
    dispute_form: DisputeForm
    resolve_form: ResolveForm


def state_for(request, game: Game, *, organiser: bool) -> ConfirmationState | None:
    """None for a confirmed game: its page says nothing about confirmation, so nothing is read.
    ``organiser`` is whether the visitor organises the game's league (the page knows already);
    the game's participants are read with their players (`selectors.game_detail` has them)."""
    if game.status == Game.Status.CONFIRMED:
        return None
    user = request.user
    waiting = game.status == Game.Status.PENDING
    participant = user.is_authenticated and any(
        p.player.user_id == user.pk for p in game.participants.all()
    )
    already = user.is_authenticated and game.confirmations.filter(user=user).exists()
    dispute = (
        game.disputes.filter(resolved_at__isnull=True).select_related("raised_by__player").first()
    )
    return ConfirmationState(
        game=game,
        confirmed_by=confirmation_selectors.confirmed_by(game=game),
        may_confirm=waiting
        and not already
        and (organiser or (user.is_authenticated and user.pk in services.confirmers(game))),
        may_dispute=waiting and participant,
        dispute=dispute,
        may_resolve=organiser and dispute is not None,
        dispute_form=DisputeForm(),
        resolve_form=ResolveForm(),
    )


def _game(request, slug: str, game_id: int) -> Game:
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, request.user):
        raise Http404("No such league.")
    return get_object_or_404(Game, pk=game_id, league=league)


def _report(request, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


@login_required
@require_POST
def confirm(request, slug, game_id):
    game = _game(request, slug, game_id)
    try:
        game = services.game_confirm(game=game, by=request.user)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(
            request,
            "Confirmed: the game is rated."
            if game.status == Game.Status.CONFIRMED
            else "Confirmed: the game still waits for the other players.",
        )
    return redirect("league:game", slug=slug, game_id=game_id)


@login_required
@require_POST
def dispute(request, slug, game_id):
    game = _game(request, slug, game_id)
    form = DisputeForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Say what is wrong with this result.")
        return redirect("league:game", slug=slug, game_id=game_id)
    try:
        services.game_dispute(game=game, by=request.user, reason=form.cleaned_data["reason"])
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(request, "Disputed: the organisers will settle it.")
    return redirect("league:game", slug=slug, game_id=game_id)


@login_required
@require_POST
def resolve(request, slug, dispute_id):
    league = get_object_or_404(League, slug=slug)
    if not can_organise(league, request.user):
        raise PermissionDenied("Only this league's organisers settle disputes.")
    dispute_row = get_object_or_404(GameDispute, pk=dispute_id, league=league)
    form = ResolveForm(request.POST)
    note = form.cleaned_data["note"] if form.is_valid() else ""
    delete = request.POST.get("action") == "delete"
    game_id = dispute_row.game_id
    try:
        services.dispute_resolve(dispute=dispute_row, by=request.user, delete=delete, note=note)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(
            request, "Game deleted and ratings rebuilt." if delete else "Game confirmed and rated."
        )
        if delete or game_id is None:
            return redirect("league:detail", slug=slug)
    if game_id is None:
        return redirect("league:detail", slug=slug)
    return redirect("league:game", slug=slug, game_id=game_id)
