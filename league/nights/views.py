"""The game-night pages: the league's nights, opening one, and the night itself (people,
rounds, tables, tonight's standings). Organisers open nights and draw; members enter their
table's result through the league's result form."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.clubs.forms import GuestForm, submit
from league.models import GameNight, League, NightTable, Player
from league.nights import selectors, services
from league.nights.forms import ArrivalForm, NightOpenForm
from league.permissions import can_log_games, can_organise, visible_league
from league.results import result_form
from league.results.confirmation import ManyConfirmed

# What an organiser's button made (a drawn round, confirmed games...).
Done = TypeVar("Done")


def _league(request, slug: str, *, organise: bool = False) -> League:
    return visible_league(
        request.user,
        slug,
        organise=organise,
        refusal="Only this league's organisers run its game nights.",
    )


def _night(request, slug: str, night_id: int, *, organise: bool = False) -> GameNight:
    league = _league(request, slug, organise=organise)
    return get_object_or_404(GameNight, pk=night_id, league=league)


def night_list(request, slug):
    league = _league(request, slug)
    return render(
        request,
        "league/nights/list.html",
        {
            "league": league,
            "nights": selectors.nights_of(league=league),
            "can_organise": can_organise(league, request.user),
        },
    )


@login_required
def night_open(request, slug):
    league = _league(request, slug, organise=True)
    form = NightOpenForm(request.POST or None, league=league)
    night = request.method == "POST" and submit(
        form,
        lambda data: services.night_open(
            league=league, by=request.user, **data | {"present": list(data["present"])}
        ),
    )
    if night:
        messages.success(request, "Night opened: add anyone missing, then draw round 1.")
        return redirect("league:night", slug=league.slug, night_id=night.pk)
    return render(
        request,
        "league/nights/open.html",
        {"league": league, "form": form},
        status=400 if form.errors else 200,
    )


def night_detail(request, slug, night_id):
    night = _night(request, slug, night_id)
    return _night_page(request, night)


def _night_page(request, night, *, guest_form=None, arrival_form=None, status=200):
    organiser = can_organise(night.league, request.user)
    view = selectors.night_view(night=night)
    return render(
        request,
        "league/nights/night.html",
        {
            "league": night.league,
            "night": night,
            "view": view,
            "rounds": list(reversed(view.rounds)),
            "attendees": list(night.attendees.select_related("player")),
            "can_organise": organiser,
            "can_log": can_log_games(night.league, request.user),
            "guest_form": guest_form or GuestForm(),
            "arrival_form": arrival_form or (ArrivalForm(night=night) if organiser else None),
        },
        status=status,
    )


def _button(
    request: HttpRequest,
    night: GameNight,
    service: Callable[..., Done],
    said: Callable[[Done], str],
    *,
    then: str = "",
) -> HttpResponse:
    """What an organiser's button on a night's page does: ``service(night=, by=)``; its
    refusal becomes error messages and its success the message ``said(result)``; then back
    to the night's page, at the part ``then`` ("#rounds") when given."""
    try:
        done = service(night=night, by=request.user)
    except ValidationError as exc:
        for message in exc.messages:
            messages.error(request, message)
    else:
        messages.success(request, said(done))
    return redirect(reverse("league:night", args=[night.league.slug, night.pk]) + then)


def _confirmed(done: ManyConfirmed) -> str:
    count = len(done.confirmed)
    message = f"{count} game{'s' if count != 1 else ''} confirmed and rated."
    if done.disputed:
        message += f" {len(done.disputed)} disputed: settle each from its game's page."
    return message


@login_required
@require_POST
def round_draw(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    return _button(
        request,
        night,
        services.round_draw,
        lambda drawn: f"Round {drawn.number} drawn.",
        then="#rounds",
    )


@login_required
@require_POST
def night_confirm(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    return _button(request, night, services.night_confirm, _confirmed, then="#rounds")


@login_required
@require_POST
def round_undo(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    return _button(
        request,
        night,
        services.round_undo,
        lambda _: "The latest round is taken back: draw it again when ready.",
    )


@login_required
@require_POST
def attendance(request, slug, night_id):
    """Someone leaves, comes back, or (a member not on tonight's list) arrives."""
    night = _night(request, slug, night_id, organise=True)
    if "present" not in request.POST:
        form = ArrivalForm(request.POST, night=night)
        if not form.is_valid():
            return _night_page(request, night, arrival_form=form, status=400)
        player, present = form.cleaned_data["player"], True
    else:
        raw = request.POST.get("player", "")
        player = get_object_or_404(Player, pk=int(raw) if raw.isdigit() else 0)
        present = request.POST["present"] == "1"
    return _button(
        request,
        night,
        functools.partial(services.attendance_set, player=player, present=present),
        lambda _: f"{player} {'is here' if present else 'left'}: counted from the next round.",
        then="#people",
    )


@login_required
@require_POST
def guest_add(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    form = GuestForm(request.POST)
    attendee = submit(
        form,
        lambda data: services.night_guest_add(night=night, name=data["name"], by=request.user),
    )
    if attendee:
        messages.success(request, f"{attendee.player} joined the league and is here tonight.")
        return redirect(reverse("league:night", args=[slug, night.pk]) + "#people")
    return _night_page(request, night, guest_form=form, status=400)


@login_required
def table_result(request, slug, night_id, table_id):
    night = _night(request, slug, night_id)
    table = get_object_or_404(NightTable, pk=table_id, round__night=night)
    if not can_log_games(night.league, request.user):
        raise PermissionDenied("Only this league's members enter its results.")
    if table.game_id is not None:
        messages.info(request, f"Table {table.number}'s result is already entered.")
        return redirect("league:game", slug=slug, game_id=table.game_id)
    here = reverse("league:night-table", args=[slug, night.pk, table.pk])
    entry = result_form.Entry(
        league=night.league,
        here=here,
        table=table,
        table_values=services.entry_values(night),
        record_table=services.table_game_record,
    )
    return result_form.result_form(request, entry)
