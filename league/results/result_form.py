"""The result form: one page in steps (setup: edition, players, how results are entered; the
table; a preview; save, which records exactly what was previewed), for a new game, a correction
or the game of a night's table (`Entry`)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from league.catalogue import ResultError, check_results
from league.models import Game, League, Membership, NightTable, Player
from league.results import checks, seating
from league.results import entry as result_entry
from league.results import services as result_services
from league.results.forms import (
    CARDS_PREFIX,
    TOTALS,
    GameForm,
    SeatForm,
    Setup,
    SetupForm,
    initial_from_cards,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from engine import PlayerScore


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


def loggable_leagues(user: User) -> QuerySet[League]:
    if user.is_superuser:
        return League.objects.order_by("name")
    return League.objects.filter(
        memberships__player__user=user,
        memberships__role__in=[Membership.Role.ORGANISER, Membership.Role.MEMBER],
    ).order_by("name")


@dataclass
class _Problems:
    """Errors that belong to the table as a whole rather than to one field."""

    messages: list[str]

    def add(self, message: str) -> None:
        if message not in self.messages:
            self.messages.append(message)


def _place_errors(
    errors: dict[str, list[str]],
    game_form: GameForm,
    seat_forms: list[SeatForm],
    problems: _Problems,
) -> None:
    """Put each error of the catalogue or the services (``participants.1.total_vp``,
    ``details.cat_player_vp``, ``played_on``) beside the form field it is about."""
    for path, path_messages in errors.items():
        parts = path.split(".")
        for message in path_messages:
            if parts[0] == "participants" and len(parts) >= 2 and parts[1].isdigit():
                index = int(parts[1])
                name = parts[2] if len(parts) > 2 else None
                if index < len(seat_forms):
                    form = seat_forms[index]
                    if name in form.fields:
                        form.add_error(name, message)
                    else:
                        form.add_error(None, message)
                    continue
            if parts[0] == "details" and len(parts) == 2 and parts[1] in game_form.fields:
                game_form.add_error(parts[1], message)
                continue
            if parts[0] in game_form.fields:
                game_form.add_error(parts[0], message)
                continue
            problems.add(message)


def _check_table(seat_forms: list[SeatForm], problems: _Problems) -> None:
    """Each player and each seat once: the error goes on the second occurrence."""
    players: dict[int, int] = {}
    seats: dict[int, int] = {}
    for form in seat_forms:
        player, seat = form.cleaned_data.get("player"), form.cleaned_data.get("seat")
        if player is not None:
            if player in players:
                form.add_error(
                    "player",
                    f"Already playing in seat row {players[player] + 1}: choose someone else.",
                )
            else:
                players[player] = form.index
        if seat is not None:
            if seat in seats:
                form.add_error("seat", f"Seat {seat} is already taken by row {seats[seat] + 1}.")
            else:
                seats[seat] = form.index


def _error_links(game_form: GameForm, seat_forms: list[SeatForm]) -> list[tuple[str, str, str]]:
    """(field id, where, message) for the error summary, so each problem links to its field."""
    links: list[tuple[str, str, str]] = []
    # (where, the anchor of its form-wide errors, the form)
    places: list[tuple[str, str, GameForm | SeatForm]] = [("", "entry-top", game_form)]
    places += [(f"Player {f.index + 1}", f"seat-{f.index + 1}", f) for f in seat_forms]
    for where, top, form in places:
        for name, errors in form.errors.items():
            if name == "__all__":
                anchor, label = top, where
            else:
                anchor = form[name].auto_id
                label = f"{where}, {form[name].label}" if where else str(form[name].label)
            # An ErrorList yields each error's text (the stubs say ValidationError too).
            links.extend((anchor, label, str(message)) for message in errors)
    return links


def _failed(
    request: HttpRequest,
    context: dict[str, Any],
    problems: _Problems,
    game_form: GameForm,
    seat_forms: list[SeatForm],
) -> HttpResponse:
    context["error_links"] = _error_links(game_form, seat_forms)
    context["error_count"] = len(problems.messages) + len(context["error_links"])
    return render(request, "league/result_entry.html", context, status=400)


@dataclass(frozen=True)
class PreviewSeat:
    name: str
    seat: int
    rank: int
    result: dict[str, Any]
    score: PlayerScore | None  # when cards were scored


@dataclass(frozen=True)
class Preview:
    seats: list[PreviewSeat]  # in seat order
    pad: list[tuple[str, list[int]]]  # score-pad lines, seat order; empty for totals
    settled: bool
    rated: bool


def _digest(setup: Setup, game_form: GameForm, seat_forms: list[SeatForm]) -> str:
    """What was previewed, so that Save records exactly that and nothing edited since."""
    payload = {
        "setup": setup.as_query(),
        "game": {k: str(v) for k, v in sorted(game_form.cleaned_data.items())},
        "seats": [{k: str(v) for k, v in sorted(f.cleaned_data.items())} for f in seat_forms],
    }
    canonical = json.dumps(payload, sort_keys=True)
    return hmac.new(settings.SECRET_KEY.encode(), canonical.encode(), hashlib.sha256).hexdigest()


def _evaluate(
    setup: Setup,
    game_form: GameForm,
    seat_forms: list[SeatForm],
    names: list[str],
    problems: _Problems,
) -> tuple[list[dict[str, Any]], Preview] | None:
    """Score (cards) or take (totals) every seat's result, rank the table with the league's
    catalogue, and return the results with their preview; None when something is wrong."""
    order = sorted(range(len(seat_forms)), key=lambda i: seat_forms[i].cleaned_data["seat"])
    scored = None
    if setup.deck is not None:
        try:
            scored = result_entry.score_table(
                [seat_forms[i].holdings(names[i]) for i in order], setup.deck.edition
            )
        except result_entry.TableError as exc:
            for (position, field), field_messages in exc.errors.items():
                for message in field_messages:
                    if position is None:
                        problems.add(message)
                    else:
                        seat_forms[order[position]].add_error(field, message)
            return None
        by_form = dict(zip(order, result_entry.league_results(scored), strict=True))
        results = [by_form[i] for i in range(len(seat_forms))]
    else:
        results = [form.result() for form in seat_forms]
    try:
        checked = check_results(setup.game.key, setup.edition.key, results, game_form.details())
    except ResultError as exc:
        _place_errors(exc.errors, game_form, seat_forms, problems)
        return None
    engine_players = dict(zip(order, scored.players, strict=True)) if scored else {}
    seats = [
        PreviewSeat(
            name=names[i],
            seat=seat_forms[i].cleaned_data["seat"],
            rank=checked.ranks[i],
            result=checked.results[i],
            score=engine_players.get(i),
        )
        for i in order
    ]
    pad = []
    if scored is not None:
        # scored.players are the seats' scores, in the order of `seats`
        pad = [
            (result_entry.pad_label(key), [p.breakdown[key] for p in scored.players])
            for key in scored.players[0].breakdown
        ]
    preview = Preview(
        seats=seats,
        pad=pad,
        settled=scored.feeding_settled if scored else True,
        rated=checked.rated and len(seats) >= 2,
    )
    return checked.results, preview


def _edit_setup(game: Game) -> dict[str, str]:
    """A logged game reopens as it was entered: with its cards when the calculator scored it
    (and its card data can still score the table), else with the totals recorded."""
    players = game.participants.count()
    mode = TOTALS
    if game.scored_with:
        deck = result_entry.deck(game.scored_with)
        if deck is not None and deck.playable and players in deck.supported_players:
            mode = f"{CARDS_PREFIX}{deck.name}"
    return {
        "league": game.league.slug,
        "edition": game.edition,
        "players": str(players),
        "mode": mode,
    }


def _edit_initial(game: Game, game_form: GameForm, seat_forms: list[SeatForm]) -> None:
    game_form.initial.update(
        {
            "played_on": game.played_on,
            "played_time": game.played_time,
            "place": game.place,
            "notes": game.notes,
            **game.details,
        }
    )
    for form, participant in zip(seat_forms, game.participants.order_by("seat"), strict=False):
        form.initial.update(
            {"player": participant.player_id, "seat": participant.seat, **participant.result}
        )
        if form.setup.deck is not None and participant.cards:
            form.initial.update(initial_from_cards(participant.cards))


@dataclass(frozen=True)
class Entry:
    """What the result form is for: a new game, a correction (`editing`) or the game of a
    night's table (`table`, whose players and seats it starts with)."""

    league: League
    here: str
    editing: Game | None = None
    table: NightTable | None = None
    # For a night's table (`league.nights`): what its game starts with (edition, date, place)
    # and the service that records it.
    table_values: Mapping[str, Any] = field(default_factory=dict)
    record_table: Callable[..., Game] | None = None


def _choosable_players(entry: Entry) -> list[Player]:
    """Who a seat can be given to: the league's members and, in a correction, whoever played
    the game, though they have left the league since (`checks.check_game`'s `played_it`)."""
    seated = Q(memberships__league=entry.league)
    if entry.editing is not None:
        seated |= Q(participations__game=entry.editing)
    return list(Player.objects.filter(seated).order_by("name").distinct())


def _setup_form(request: HttpRequest, entry: Entry) -> SetupForm:
    if entry.table is not None:
        # The night knows the table's edition and size: only the way results are entered is
        # asked, and the query string cannot change the other two.
        fixed = {"edition": entry.table_values["edition"], "players": entry.table.seats.count()}
        if "mode" in request.GET:
            data = request.GET.copy()
            for name, value in fixed.items():
                data[name] = str(value)
            form = SetupForm(data, league=entry.league)
        else:
            form = SetupForm(None, league=entry.league, initial=fixed)
        form.keep_table_setup()
        return form
    if "mode" in request.GET:
        return SetupForm(request.GET, league=entry.league)
    if entry.editing is not None:
        return SetupForm(_edit_setup(entry.editing), league=entry.league)
    return SetupForm(None, league=entry.league)


def _start_values(
    request: HttpRequest, entry: Entry, game_form: GameForm, seat_forms: list[SeatForm]
) -> None:
    """What an unsent form starts with: the game being corrected, the night's table, or the
    logger in the first seat."""
    if entry.editing is not None:
        _edit_initial(entry.editing, game_form, seat_forms)
    elif entry.table is not None:
        game_form.initial.update(entry.table_values)
        for form, player_id in zip(seat_forms, seating.table_setup(entry.table), strict=False):
            form.initial.update({"player": player_id, "seat": form.index + 1})
    else:
        me = Player.objects.filter(user=_you(request), memberships__league=entry.league).first()
        if me is not None:
            seat_forms[0].initial["player"] = me.pk


def _checked(
    game_form: GameForm,
    seat_forms: list[SeatForm],
    setup: Setup,
    members: list[Player],
    problems: _Problems,
) -> tuple[list[dict[str, Any]], Preview] | None:
    """Every field valid, each player and seat once, and the table scored and ranked: the
    results and their preview, or None (the errors are on the forms and in `problems`)."""
    valid = game_form.is_valid() & all([f.is_valid() for f in seat_forms])
    if valid:
        _check_table(seat_forms, problems)
        valid = not any(f.errors for f in seat_forms)
    if not valid:
        return None
    names_by_id = {p.pk: p.name for p in members}
    names = [names_by_id[f.cleaned_data["player"]] for f in seat_forms]
    return _evaluate(setup, game_form, seat_forms, names, problems)


def _game_values(
    setup: Setup, game_form: GameForm, seat_forms: list[SeatForm], results: list[dict[str, Any]]
) -> dict[str, Any]:
    return {
        "edition": setup.edition.key,
        "played_on": game_form.cleaned_data["played_on"],
        "played_time": game_form.cleaned_data.get("played_time"),
        "place": game_form.cleaned_data.get("place", ""),
        "notes": game_form.cleaned_data.get("notes", ""),
        "details": game_form.details(),
        # The cards are kept with what they scored, so a correction opens with them.
        "scored_with": setup.deck.name if setup.deck is not None else "",
        "participants": [
            checks.ParticipantInput(
                player_id=form.cleaned_data["player"],
                seat=form.cleaned_data["seat"],
                result=result,
                cards=form.cards() if setup.deck is not None else None,
            )
            for form, result in zip(seat_forms, results, strict=True)
        ],
    }


def _save(request: HttpRequest, entry: Entry, values: dict[str, Any]) -> Game:
    """Record the game through the service that fits; raises ValidationError."""
    if entry.editing is not None:
        # The season follows the (possibly new) date, as when the game was first logged.
        return result_services.game_edit(
            game=entry.editing, by=_you(request), season=None, **values
        )
    if entry.table is not None:
        assert entry.record_table is not None, "a table's Entry names its service"
        return entry.record_table(table=entry.table, logged_by=_you(request), **values)
    return result_services.game_record(league=entry.league, logged_by=_you(request), **values)


def _check_seating(entry: Entry, participants: list[checks.ParticipantInput]) -> None:
    """A night table's game is played by the people drawn to it: the preview checks it as Save
    does (`_save`'s services), so that the error shows before anything is previewed."""
    ids = [p.player_id for p in participants]
    if entry.editing is not None:
        seating.check_correction(entry.editing, ids)
    elif entry.table is not None:
        seating.check_seated(entry.table, ids)


def _saved(request: HttpRequest, entry: Entry, game: Game) -> HttpResponse:
    if entry.editing is not None:
        messages.success(request, "Game corrected and ratings rebuilt.")
    elif game.status != Game.Status.CONFIRMED:
        messages.success(
            request,
            f"Game saved: it is rated once confirmed ({game.league.get_confirmation_display().lower()}).",
        )
    else:
        messages.success(request, "Game saved and ratings updated.")
    if entry.table is not None:
        night = entry.table.round.night
        return redirect("league:night", slug=entry.league.slug, night_id=night.pk)
    return redirect("league:game", slug=entry.league.slug, game_id=game.pk)


def result_form(request: HttpRequest, entry: Entry) -> HttpResponse:
    """The result form's steps: setup (edition, players, how results are entered), the table,
    a preview, then save — which records exactly what was previewed."""
    league = entry.league
    setup_form = _setup_form(request, entry)
    context: dict[str, Any] = {
        "editing": entry.editing,
        # A correction of a night table's game keeps its players: the page says so.
        "editing_table": seating.table_of(entry.editing) if entry.editing else None,
        "table": entry.table,
        "league": league,
        "setup_form": setup_form,
        "step": "setup",
        "here": entry.here,
    }
    if not setup_form.is_bound or not setup_form.is_valid() or "change" in request.GET:
        return render(request, "league/result_entry.html", context)
    setup = setup_form.setup()
    members = _choosable_players(entry)
    data = request.POST if request.method == "POST" else None
    game_form = GameForm(data, setup=setup)
    seat_forms = [
        SeatForm(data, setup=setup, index=i, members=members) for i in range(setup.players)
    ]
    problems = _Problems([])
    context.update(
        {
            "step": "entry",
            "setup": setup,
            "setup_query": urlencode(setup.as_query()),
            "game_form": game_form,
            "seat_forms": seat_forms,
            "problems": problems.messages,
        }
    )
    if data is None:
        _start_values(request, entry, game_form, seat_forms)
        return render(request, "league/result_entry.html", context)
    evaluated = _checked(game_form, seat_forms, setup, members, problems)
    if evaluated is None:
        return _failed(request, context, problems, game_form, seat_forms)
    results, preview = evaluated
    values = _game_values(setup, game_form, seat_forms, results)
    try:
        _check_seating(entry, values["participants"])
    except ValidationError as exc:
        _place_errors(exc.message_dict, game_form, seat_forms, problems)
        return _failed(request, context, problems, game_form, seat_forms)
    digest = _digest(setup, game_form, seat_forms)
    context.update({"preview": preview, "digest": digest})
    if request.POST.get("action") != "save":
        return render(request, "league/result_entry.html", context)
    if not hmac.compare_digest(request.POST.get("previewed", ""), digest):
        context["changed_since_preview"] = True
        return render(request, "league/result_entry.html", context)
    try:
        game = _save(request, entry, values)
    except ValidationError as exc:
        _place_errors(exc.message_dict, game_form, seat_forms, problems)
        context.pop("preview")
        return _failed(request, context, problems, game_form, seat_forms)
    return _saved(request, entry, game)
