"""Pages of live matches, where a person plays against bots: start one, sit at the table.

The table page is a shell that ``static/js/play.js`` fills from :func:`table_state`
(long-polled: given the version the page shows, it answers when the table changes, woken by
the worker through :mod:`arena.live.wakeup`), and moves go back through :func:`table_move`. Only the person in the seat sees the table
while the match runs: its state is that seat's observation, exactly what a bot would get.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

import engine
from arena import web
from arena.common import SeatInput, default_limits, game_label
from arena.live import wakeup
from arena.live.company.services import company_of, company_version
from arena.live.company.views import company_page, company_state
from arena.live.forms import FRIEND, PlayForm
from arena.live.selectors import (
    live_games_of,
    live_opponents,
    person_games,
    play_pool,
    play_ratings_of,
    played_games,
)
from arena.live.services import (
    board_key,
    live_answer,
    live_create,
    live_rematch,
    live_resign,
    person_seat,
)
from arena.live.strength import parse_house, with_strengths
from arena.live.takeback import controls_state, live_takeback
from arena.models import BotVersion, LiveSeat, Match
from arena.sandbox import Limits

# What the table says while a match whose worker was lost waits for another one (the reaper
# queues it again within ARENA_LIVE_STALE_S + ARENA_REAP_EVERY_S of the loss).
LOST_WORKER = (
    "The table lost its server; your game resumes from the moves already made as soon as "
    "another server takes it over, usually within half a minute. Nothing you played is lost: "
    "keep this page open."
)


@login_required
def play(request: HttpRequest) -> HttpResponse:
    """Start a live match, and see your games and your ratings against bots."""
    opponents = with_strengths(live_opponents())
    form = PlayForm(request.POST or None, opponents=opponents)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = data["players"]
        chosen = [data[name] for name in PlayForm.OPPONENTS[: players - 1]]
        you = random.randrange(players) if data["seat"] == "random" else int(data["seat"]) - 1
        seats: list[SeatInput | None] = [
            None if value == FRIEND else _seat(value) for value in chosen
        ]
        seats.insert(you, None)
        friends = [i for i, seat in enumerate(seats) if seat is None and i != you]
        strengths = [parse_house(v)[1] if v.startswith("house:") else "" for v in chosen]
        strengths.insert(you, "")
        try:
            match = live_create(
                user=request.user,
                game=data["game"],
                seats=seats,
                friends=friends,
                rated=data["rated"],
                strengths=strengths,
            )
        except ValidationError as error:
            _errors_to_form(form, error, you)
        else:
            return redirect("arena:play-table", pk=match.pk)
    pools = sorted({(r.game, r.players) for r in play_ratings_of(user=web.you(request))})
    return render(
        request,
        "arena/play.html",
        {
            "form": form,
            "arena_section": "play",
            "opponent_fields": [form[name] for name in PlayForm.OPPONENTS],
            "move_limit": _duration(settings.ARENA_HUMAN_MOVE_S),
            "max_faults": Limits.from_json(default_limits()).max_faults,
            "games": live_games_of(web.you(request)),
            "ratings": play_ratings_of(user=web.you(request)),
            "pools": [
                (
                    game_label(game),
                    players,
                    play_pool(game=game, players=players, limit=10),
                )
                for game, players in pools
            ],
            "supported": {game: list(engine.supported_players(game)) for game in opponents},
        },
    )


GAMES_PER_PAGE = 20


@login_required
def games(request: HttpRequest) -> HttpResponse:
    """Your games against bots, newest first, page by page: only your own (the list is read
    from your seats, there is no one else's to ask for)."""
    page = Paginator(person_games(web.you(request)), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    return render(
        request,
        "arena/play_games.html",
        {
            "page": page,
            "games": played_games(page.object_list, web.you(request)),
            "arena_section": "play",
        },
    )


def _duration(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} seconds"
    return f"{minutes} minute{'s' * (minutes != 1)}" + (f" {rest} seconds" if rest else "")


def _seat(value: str) -> SeatInput:
    kind, _, name = value.partition(":")
    if kind == "house":
        return SeatInput(builtin=parse_house(value)[0])
    return SeatInput(version=BotVersion.objects.select_related("bot").get(pk=int(name)))


def _errors_to_form(form: PlayForm, error: ValidationError, you: int) -> None:
    for key, messages in error.message_dict.items():
        field = None
        if key.startswith("seats."):
            index = int(key.split(".")[1])
            opponent = index - (index > you)  # the person's seat is not an opponent field
            field = PlayForm.OPPONENTS[opponent] if 0 <= opponent < 5 else None
        elif key in form.fields:
            field = key
        for message in messages:
            form.add_error(field, message)


def _own_seat(request: HttpRequest, pk: int) -> tuple[Match, LiveSeat]:
    """The match and the seat the page shows: ``?seat=`` picks a guest's on this device."""
    if not request.user.is_authenticated:
        raise Http404
    match = get_object_or_404(Match.objects.filter(kind=Match.Kind.LIVE), pk=pk)
    wanted = request.GET.get("seat", "")
    seat = person_seat(match, web.you(request), int(wanted) if wanted.isdigit() else None)
    if seat is None:
        raise Http404  # another person's table: not even whether it exists
    return match, seat


@login_required
def table(request: HttpRequest, pk: int) -> HttpResponse:
    match, seat = _own_seat(request, pk)
    seats = list(match.seats.select_related("version__bot", "player").order_by("seat"))
    company = company_of(match, web.you(request), seat.seat)
    open_seats = {item["seat"] for item in company["open"]}
    names = [
        "waiting for a friend"
        if s.seat in open_seats
        else s.label
        if s.seat != seat.seat
        else f"{s.label} (you)"
        for s in seats
    ]
    board = {"names": names}  # the renderer and card data come with the first state
    on_device = f"?seat={seat.seat}" if len(company["device"]) > 1 else ""
    return render(
        request,
        "arena/play_table.html",
        {
            "match": match,
            "seat": seat,
            "seats": seats,
            "names": names,
            "arena_section": "play",
            "game_label": game_label(match.game),
            "board_data": board,
            "company": company_page(request, match, company),
            "urls": {
                "state": reverse("arena:play-state", args=[match.pk]) + on_device,
                "move": reverse("arena:play-move", args=[match.pk]) + on_device,
                "resign": reverse("arena:play-resign", args=[match.pk]) + on_device,
                "rematch": reverse("arena:play-rematch", args=[match.pk]),
                "takeback": reverse("arena:play-takeback", args=[match.pk]),
                "replay": reverse("arena:match", args=[match.pk]),
            },
        },
    )


def _version(match: Match, seat: LiveSeat, company: dict[str, Any]) -> str:
    """Everything a table page shows changes this (the clock runs on the page)."""
    return (
        f"{match.status}.{match.attempts}.{seat.step}.{seat.asked_step}.{seat.faults}"
        f".{seat.takebacks}.{seat.rewound_to}.{company_version(company)}"
    )


@web.json_endpoint(login=True)
def table_state(request: HttpRequest, pk: int) -> JsonResponse:
    """The seat's table; with ``since`` (the ``version`` the page shows) the answer waits until
    the table changes or ARENA_LIVE_LONG_POLL_S pass."""
    match, seat = _own_seat(request, pk)
    you = web.you(request)
    company = company_of(match, you, seat.seat)
    since = request.GET.get("since")
    if since:
        give_up = time.monotonic() + settings.ARENA_LIVE_LONG_POLL_S
        try:
            with wakeup.listening(board_key(seat.pk)) as wait:
                # Read again once listening, so a change made just before is not missed.
                match.refresh_from_db()
                seat.refresh_from_db()
                company = company_of(match, you, seat.seat)
                while (
                    _version(match, seat, company) == since
                    and (left := give_up - time.monotonic()) > 0
                ):
                    wait(min(left, wakeup.SAFETY_S))  # rung, or a look in case a ring was lost
                    match.refresh_from_db()
                    seat.refresh_from_db()
                    company = company_of(match, you, seat.seat)
        except (Match.DoesNotExist, LiveSeat.DoesNotExist):
            raise Http404 from None  # deleted while the page waited (by an admin, say)
    queued = match.status == Match.Status.QUEUED
    # Back in the queue after a worker started it (an infrastructure wait gives its attempt
    # back): its worker was lost. The question it asked is asked again when the game resumes.
    lost = queued and match.attempts > 0 and seat.rewound_to is None
    asked = seat.asked_step is not None and not queued
    state = {
        "status": match.status,
        "version": _version(match, seat, company),
        "company": company_state(company),
        "you": seat.seat,
        "step": seat.step,
        "board": {key: seat.board.get(key) for key in ("view", "to_move", "scores", "events")},
        "cards": (seat.board.get("meta") or {}).get("cards", {}),
        # The board's constant facts (card data...) once: the page says when it has them.
        "renderer": seat.board.get("renderer"),
        "meta": seat.board.get("meta") if request.GET.get("meta") != "have" else None,
        "log": seat.log,
        "faults": seat.faults,
        "resigned": bool(seat.moves.get("resign")),
        "max_faults": (match.limits or {}).get("max_faults"),
        "move_seconds": (match.limits or {}).get("human_move_ms", 0) // 1000,
        "asked_step": seat.asked_step if asked else None,
        "legal": [item["label"] for item in seat.legal] if asked else [],
        # The same moves with their rules and the board things each takes (the tap targets).
        "moves": [
            {
                key: item.get(key, default)
                for key, default in (("label", ""), ("rule", ""), ("picks", []))
            }
            for item in seat.legal
        ]
        if asked
        else [],
        "seconds_left": (
            max(0, round((seat.deadline - timezone.now()).total_seconds()))
            if asked and seat.deadline
            else None
        ),
        "failure": match.failure if match.status == Match.Status.FAILED else "",
        "waiting": match.infra_failure if queued else "",
        "lost": LOST_WORKER if lost else "",
        "result": None,
        **controls_state(match, seat),
    }
    if match.status == Match.Status.FINISHED and match.log:
        seats = list(match.seats.order_by("seat"))
        state["result"] = {
            "ranks": [s.rank for s in seats],
            "scores": [s.score for s in seats],
            "forfeited": match.log.get("forfeited", []),
            "resigned": bool(seat.moves.get("resign")),
            "rating": next(
                (
                    [s.rating_before, s.rating_after]
                    for s in seats
                    if s.seat == seat.seat and s.rating_after is not None
                ),
                None,
            ),
        }
    response = JsonResponse(state)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@web.json_endpoint(login=True)
def table_move(request: HttpRequest, pk: int) -> JsonResponse:
    match, seat = _own_seat(request, pk)
    try:
        body = json.loads(request.body or b"{}")
        step, index = body["step"], body["index"]
        if not isinstance(step, int) or not isinstance(index, int):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        return JsonResponse(
            {"error": "validation_error", "detail": 'Send {"step": <int>, "index": <int>}.'},
            status=400,
        )
    try:
        live_answer(
            match=match, user=web.you(request), step=step, index=index, seat_number=seat.seat
        )
    except ValidationError as error:
        return JsonResponse(
            {
                "error": "validation_error",
                "detail": "The move was refused.",
                "fields": error.message_dict,
            },
            status=400,
        )
    return JsonResponse({"ok": True, "step": step, "index": index})


@require_POST
@web.json_endpoint(login=True)
def table_resign(request: HttpRequest, pk: int) -> JsonResponse:
    """Give up the game: rated as a loss; the bots play it out."""
    match, seat = _own_seat(request, pk)
    try:
        live_resign(match=match, user=web.you(request), seat_number=seat.seat)
    except ValidationError as error:
        return web.json_refusal("The resignation was refused.", error)
    return JsonResponse({"ok": True, "resigned": True})


@require_POST
@web.json_endpoint(login=True)
def table_rematch(request: HttpRequest, pk: int) -> JsonResponse:
    """The same opponents again, seats moved one place on: the new table's address."""
    match, _ = _own_seat(request, pk)
    try:
        again = live_rematch(match=match, user=web.you(request))
    except ValidationError as error:
        return web.json_refusal("No rematch.", error)
    return JsonResponse(
        {"ok": True, "match": again.pk, "url": reverse("arena:play-table", args=[again.pk])}
    )


@require_POST
@web.json_endpoint(login=True)
def table_takeback(request: HttpRequest, pk: int) -> JsonResponse:
    """Take back your last move (unrated games only): the table goes back to before it."""
    match, _ = _own_seat(request, pk)
    try:
        seat = live_takeback(match=match, user=web.you(request))
    except PermissionDenied as refused:
        return JsonResponse(
            {
                "error": "permission_denied",
                "detail": str(refused),
                "fields": {"match": [str(refused)]},
            },
            status=403,
        )
    except ValidationError as error:
        return web.json_refusal("Nothing was taken back.", error)
    return JsonResponse({"ok": True, "step": seat.rewound_to, "takebacks": seat.takebacks})
