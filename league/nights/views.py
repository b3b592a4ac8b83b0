"""The game-night pages: the league's nights, opening one, and the night itself (people,
rounds, tables, tonight's standings). Organisers open nights and draw; members enter their
table's result through the league's result form."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from league.clubs.forms import GuestForm, submit
from league.models import GameNight, League, NightTable, Player
from league.nights import selectors, services
from league.nights.forms import ArrivalForm, NightOpenForm
from league.permissions import can_log_games, can_organise, can_view
from league.results import result_form


def _league(request, slug: str, *, organise: bool = False) -> League:
    league = get_object_or_404(League, slug=slug)
    if not can_view(league, request.user):
        raise Http404("No such league.")  # a private league is not admitted to exist
    if organise and not can_organise(league, request.user):
        raise PermissionDenied("Only this league's organisers run its game nights.")
    return league


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
            league=league,
            by=request.user,
            played_on=data["played_on"],
            edition=data["edition"],
            rounds=data["rounds"],
            min_table=data["min_table"],
            max_table=data["max_table"],
            first_round=data["first_round"],
            place=data["place"],
            present=list(data["present"]),
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


def _report(request, exc: ValidationError) -> None:
    for message in exc.messages:
        messages.error(request, message)


@login_required
@require_POST
def round_draw(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    try:
        drawn = services.round_draw(night=night, by=request.user)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(request, f"Round {drawn.number} drawn.")
    return redirect(reverse("league:night", args=[slug, night.pk]) + "#rounds")


@login_required
@require_POST
def night_confirm(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    try:
        done = services.night_confirm(night=night, by=request.user)
    except ValidationError as exc:
        _report(request, exc)
    else:
        count = len(done.confirmed)
        message = f"{count} game{'s' if count != 1 else ''} confirmed and rated."
        if done.disputed:
            message += f" {len(done.disputed)} disputed: settle each from its game's page."
        messages.success(request, message)
    return redirect(reverse("league:night", args=[slug, night.pk]) + "#rounds")


@login_required
@require_POST
def round_undo(request, slug, night_id):
    night = _night(request, slug, night_id, organise=True)
    try:
        services.round_undo(night=night, by=request.user)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(request, "The latest round is taken back: draw it again when ready.")
    return redirect("league:night", slug=slug, night_id=night.pk)


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
    try:
        services.attendance_set(night=night, player=player, present=present, by=request.user)
    except ValidationError as exc:
        _report(request, exc)
    else:
        messages.success(
            request, f"{player} {'is here' if present else 'left'}: counted from the next round."
        )
    return redirect(reverse("league:night", args=[slug, night.pk]) + "#people")


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
