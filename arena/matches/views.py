"""Match pages: the matches list, a match with its replay, a new challenge."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods

from arena.live.selectors import match_reviews
from arena.matches.forms import ChallengeForm, seat_games
from arena.matches.selectors import matches_page, owned_seats
from arena.matches.services import challenge_create
from arena.models import BotVersion, Match
from arena.replay import REPLAY_SCHEMA, build_replay
from arena.submissions.selectors import challenge_candidates
from arena.watch.services import SHARED_DEAL
from arena.web import form_page, game_names, you
from engine import BREAKDOWN_LABELS
from engine.registry import DEFAULT_GAME


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("ladder", "tournament").prefetch_related(
            "seats__version__bot"
        ),
        pk=pk,
    )
    seats = list(match.seats.all())
    owned = owned_seats(match, request.user)
    replay = None
    stderr: list[tuple[int, str]] = []
    faults: list[tuple[int, list[Any]]] = []
    if match.log is not None and match.deal_revealed:
        replay = _replay_of(match, match.log)
        for index in sorted(owned):
            text = (match.log.get("stderr") or [""] * len(seats))[index] or ""
            stderr.append((index, text))
            faults.append((index, (match.log.get("faults") or [[]] * len(seats))[index]))
    names = [seat.label for seat in seats]
    reviews = match_reviews(match) if replay else []
    has_feeding = False
    if replay:
        sheet = replay["result"].get("score_sheet") or {}
        has_feeding = any("feeding" in p for p in sheet.get("players", []))
    return render(
        request,
        "arena/match.html",
        {
            "match": match,
            "deal_revealed": match.deal_revealed,
            "shared_deal": SHARED_DEAL,
            "seats": seats,
            "replay": replay,
            "moves": _moves_with_names(replay, names) if replay else [],
            "score_rows": _score_rows(replay, names) if replay else [],
            "score_categories": _score_categories(replay) if replay else [],
            "has_feeding": has_feeding,
            "owned": owned,
            "owner_stderr": stderr,
            "owner_faults": faults,
            "reviews": reviews,
            "flagged_moves": _flagged_moves(reviews),
            "page_data": {**_page_data(replay, names, owned, match), "reviews": reviews}
            if replay
            else None,
        },
    )


REPLAY_CACHE_SECONDS = 24 * 3600


def _flagged_moves(reviews: list[dict[str, Any]]) -> dict[int, int]:
    """Move number (from 1, as in the move list) -> the win chance it gave away, in percent,
    for the moves a review flagged."""
    return {
        move["step"] + 1: round(100 * move["loss"])
        for review in reviews
        if review["review"]
        for move in review["review"]["moves"]
        if move["flagged"]
    }


def _replay_of(match: Match, log: dict[str, Any]) -> dict[str, Any]:
    """The replay of ``match``, whose log is ``log``, built once per process and day: a
    finished match's log never changes, and an expansion game's replay can take a good part of
    a second to build."""
    finished = match.finished_at.timestamp() if match.finished_at else 0
    # "words": replays cached before moves had the table's labels are built anew.
    key = f"arena:{REPLAY_SCHEMA}:words2:{match.pk}:{finished}"
    replay: dict[str, Any] | None = cache.get(key)
    if replay is None:
        replay = build_replay(log)
        cache.set(key, replay, REPLAY_CACHE_SECONDS)
    return replay


def _moves_with_names(replay: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    return [
        {
            **move,
            "player": names[move["seat"]]
            if move["seat"] is not None and move["seat"] < len(names)
            else "?",
        }
        for move in replay["moves"]
    ]


def _score_rows(replay: dict[str, Any], names: list[str]) -> list[dict[str, Any]]:
    """The final score pad: one row per seat, the breakdown and each cat's feeding."""
    sheet = replay["result"].get("score_sheet") or {}
    rows = []
    for seat, player in enumerate(sheet.get("players", [])):
        rows.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else player.get("name"),
                "rank": replay["result"]["ranks"][seat]
                if seat < len(replay["result"]["ranks"])
                else player.get("rank"),
                "forfeited": seat in replay["result"]["forfeited"],
                "total": player.get("total"),
                "breakdown": player.get("breakdown", {}),
                "feeding": player.get("feeding", []),
                "leftover": player.get("leftover", {}),
            }
        )
    return rows


def _score_categories(replay: dict[str, Any]) -> list[tuple[str, str]]:
    """The score sheet's rows in the score pad's order, named as on the pad; a game whose
    breakdown has keys the pad does not name gets them capitalised."""
    sheet = replay["result"].get("score_sheet") or {}
    keys = [
        key
        for key in BREAKDOWN_LABELS
        if any(key in p.get("breakdown", {}) for p in sheet.get("players", []))
    ]
    for player in sheet.get("players", []):
        keys += [key for key in player.get("breakdown", {}) if key not in keys]
    return [(key, BREAKDOWN_LABELS.get(key, key.replace("_", " ").capitalize())) for key in keys]


def _page_data(
    replay: dict[str, Any], names: list[str], owned: set[int], match: Match
) -> dict[str, Any]:
    """What replay.js reads: the replay plus the seat names. Fault reasons stay out: they can
    quote a bot's error text, which only its owner sees (in the page, not in this data)."""
    return {**replay, "names": names, "owned": sorted(owned), "match": match.pk}


def matches_list(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status") or None
    if status not in (None, *Match.Status.values):
        status = None
    duplicate_set = request.GET.get("set", "")[:40]
    matches = matches_page(status=status, duplicate_set=duplicate_set)
    page = Paginator(matches, 30).get_page(request.GET.get("page"))
    return render(
        request,
        "arena/matches.html",
        {
            "page": page,
            "status": status,
            "duplicate_set": duplicate_set,
            "statuses": Match.Status.choices,
        },
    )


def _game_asked(request: HttpRequest, versions: list[BotVersion]) -> str:
    game = request.GET.get("game", "")
    if game in game_names():
        return game
    seat1 = request.GET.get("seat1", "")
    games = seat_games(versions)
    return games.get(seat1, DEFAULT_GAME)


@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    user = you(request)
    versions = challenge_candidates(user)
    # A page opened for one game (?game=, or the game of the bot in ?seat1=) offers its bots
    # only; the page script narrows the lists again when the game is changed.
    offer_game = _game_asked(request, versions)
    form = ChallengeForm(
        request.POST or None,
        user=user,
        versions=versions,
        offer_game=offer_game,
        initial={"seat1": request.GET.get("seat1", ""), "game": offer_game},
    )
    if request.method == "POST" and form.is_valid():
        try:
            match = challenge_create(
                seats=form.seats,
                by=user,
                seed=form.cleaned_data.get("seed"),
                game=form.cleaned_data["game"],
                options=form.options() or None,
            )
        except ValidationError as exc:
            form.apply_service_errors(exc)
        else:
            match.refresh_from_db(fields=["status"])  # without a broker it has been played
            messages.success(
                request,
                f"Match {match.pk} played."
                if match.status in (Match.Status.FINISHED, Match.Status.FAILED)
                else f"Match {match.pk} is queued; "
                "its replay appears here when it has been played.",
            )
            return redirect("arena:match", pk=match.pk)
    return form_page(request, "arena/challenge_new.html", form, {"arena_section": "challenge"})
