"""The arena's public pages: home, ladders, bots, matches with their replay, tournaments.

Views read through ``arena.selectors`` and write through ``arena.services``. A bot's source,
its fault reasons and its stderr are shown to its owner and nobody else.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from arena import selectors, services
from arena.forms import BotCreateForm, ChallengeForm, TournamentForm, VersionUploadForm
from arena.models import Bot, BotVersion, Ladder, Match, Tournament
from arena.replay import REPLAY_SCHEMA, build_replay
from ratings.charts import rating_chart

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def _you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


def home(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "arena/home.html",
        {
            "ladders": selectors.ladder_summaries(top=5),
            "live": selectors.live_matches(limit=8),
            "waiting": selectors.queued_count(),
            "recent": selectors.recent_matches(limit=12),
            "tournaments": selectors.tournaments(limit=8),
        },
    )


LADDER_PAGE_SIZE = 100


def ladder_detail(request: HttpRequest, pk: int) -> HttpResponse:
    ladder = get_object_or_404(Ladder, pk=pk)
    # Positions come from the whole ladder; a page shows LADDER_PAGE_SIZE of them.
    page = Paginator(selectors.ladder_standings(ladder), LADDER_PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    rows = page.object_list
    return render(
        request,
        "arena/ladder.html",
        {
            "ladder": ladder,
            "rows": rows,
            "page": page,
            # One reverse() for the page, not one per row: a ladder can rank hundreds of bots.
            "bot_url": reverse("arena:bot", args=["-"])[:-2],
            "seat_numbers": range(1, ladder.players + 1),
            "recent": selectors.recent_matches(limit=10, ladder=ladder),
        },
    )


@require_http_methods(["GET", "POST"])
def bot_detail(request: HttpRequest, name: str) -> HttpResponse:
    bot = get_object_or_404(Bot.objects.select_related("owner", "active_version"), name=name)
    owner = selectors.owns_bot(bot, request.user)
    form = VersionUploadForm()
    if request.method == "POST":
        if not owner:
            raise PermissionDenied("Only the bot's owner may upload versions.")
        user = request.user
        assert user.is_authenticated  # owns_bot is false for visitors
        form = VersionUploadForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                version = services.version_upload(
                    bot=bot, source=form.cleaned_data["file"], by=user
                )
            except ValidationError as exc:
                form.apply_service_errors(exc)
            else:
                messages.success(request, f"Version {version.number} uploaded.")
                return redirect("arena:bot", name=bot.name)
    versions = selectors.bot_versions(bot)
    reports = selectors.owner_fault_reports(bot) if owner else []
    shown = bot.active_version or next(
        (v for v in versions if v.status == BotVersion.Status.RETIRED), None
    )
    context = {
        "bot": bot,
        "owner": owner,
        "versions": versions,
        "latest": versions[0] if versions else None,
        "stats_version": shown,
        "ladder_rates": selectors.bot_ladder_rates(shown),
        "chart": rating_chart(
            selectors.bot_rating_series(bot),
            width=720,
            height=260,
            max_points=selectors.CHART_POINTS_DRAWN,
            title=f"Rating of {bot.name} per ladder",
        ),
        "matches": selectors.bot_matches(bot),
        "against_people": selectors.play_ratings_of(versions=versions),
        "form": form,
        "fault_reports": reports,
        "quiet_reports": sum(1 for r in reports if not r.faults and not r.stderr),
    }
    return render(request, "arena/bot.html", context, status=400 if form.errors else 200)


def version_source(request: HttpRequest, name: str, number: int) -> HttpResponse:
    version = get_object_or_404(
        BotVersion.objects.select_related("bot"), bot__name=name, number=number
    )
    if not selectors.owns_bot(version.bot, request.user):
        # Not a 403: to anyone else the source does not exist.
        raise Http404("No such source.")
    return render(request, "arena/version_source.html", {"version": version, "bot": version.bot})


@login_required
@require_http_methods(["GET", "POST"])
def bot_create(request: HttpRequest) -> HttpResponse:
    form = BotCreateForm()
    if request.method == "POST":
        form = BotCreateForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                bot = services.bot_create(
                    owner=_you(request),
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    source=form.cleaned_data["file"],
                    game=form.cleaned_data["game"] or "cat-lady",
                )
            except ValidationError as exc:
                form.apply_service_errors(exc)
            else:
                messages.success(request, f"{bot.name} created; its first version is validating.")
                return redirect("arena:bot", name=bot.name)
    return render(
        request,
        "arena/bot_new.html",
        {"form": form, "starter": _starter_source()},
        status=400 if form.errors else 200,
    )


@functools.cache
def _starter_source() -> str:
    return (Path(__file__).resolve().parent / "botkit" / "starter_bot.py").read_text()


def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        Match.objects.select_related("ladder", "tournament").prefetch_related(
            "seats__version__bot"
        ),
        pk=pk,
    )
    seats = list(match.seats.all())
    owned = selectors.owned_seats(match, request.user)
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
            "seats": seats,
            "replay": replay,
            "moves": _moves_with_names(replay, names) if replay else [],
            "score_rows": _score_rows(replay, names) if replay else [],
            "score_categories": _score_categories(replay) if replay else [],
            "has_feeding": has_feeding,
            "owned": owned,
            "owner_stderr": stderr,
            "owner_faults": faults,
            "page_data": _page_data(replay, names, owned, match) if replay else None,
        },
    )


REPLAY_CACHE_SECONDS = 24 * 3600


def _replay_of(match: Match, log: dict[str, Any]) -> dict[str, Any]:
    """The replay of ``match``, whose log is ``log``, built once per process and day: a
    finished match's log never changes, and an expansion game's replay can take a good part of
    a second to build."""
    finished = match.finished_at.timestamp() if match.finished_at else 0
    key = f"arena:{REPLAY_SCHEMA}:{match.pk}:{finished}"
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


# Score-pad row labels; a game whose breakdown has other keys gets them title-cased.
SCORE_LABELS = {
    "fed_cats": "Fed cats",
    "toys": "Toys",
    "costumes": "Costumes",
    "catnip": "Catnip",
    "vp_tokens": "VP tokens",
    "food_penalty": "Food penalty",
}


def _score_categories(replay: dict[str, Any]) -> list[tuple[str, str]]:
    sheet = replay["result"].get("score_sheet") or {}
    keys = [
        key
        for key in SCORE_LABELS
        if any(key in p.get("breakdown", {}) for p in sheet.get("players", []))
    ]
    for player in sheet.get("players", []):
        keys += [key for key in player.get("breakdown", {}) if key not in keys]
    return [(key, SCORE_LABELS.get(key, key.replace("_", " ").capitalize())) for key in keys]


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
    matches = selectors.matches_page(status=status, duplicate_set=duplicate_set)
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


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament.objects.select_related("organiser"), pk=pk)
    return render(
        request,
        "arena/tournament.html",
        {
            "tournament": tournament,
            **selectors.tournament_overview(tournament),
            "rounds": selectors.tournament_matches_by_round(tournament),
            "progress": selectors.tournament_progress(tournament),
            "refresh_seconds": TOURNAMENT_REFRESH_SECONDS
            if tournament.status == Tournament.Status.RUNNING
            else None,
        },
    )


# A running tournament's page reloads itself, so its progress shows without JavaScript.
TOURNAMENT_REFRESH_SECONDS = 10


@login_required
def my_bots(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "arena/my_bots.html",
        {
            "arena_section": "mine",
            "bots": selectors.own_bots(request.user),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def challenge_new(request: HttpRequest) -> HttpResponse:
    user = _you(request)
    versions = selectors.challenge_candidates(user)
    form = ChallengeForm(
        request.POST or None,
        user=user,
        versions=versions,
        initial={"seat1": request.GET.get("seat1", "")},
    )
    if request.method == "POST" and form.is_valid():
        try:
            match = services.challenge_create(
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
    return render(
        request,
        "arena/challenge_new.html",
        {"form": form, "arena_section": "challenge"},
        status=400 if form.errors else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    user = _you(request)
    versions = selectors.challenge_candidates(user)
    form = TournamentForm(request.POST or None, user=user, versions=versions)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.tournament_start(
                name=data["name"],
                organiser=user,
                entrants=form.entrant_versions(),
                table_size=data["table_size"],
                format=data["format"],
                rounds=data["rounds"],
                seed=data.get("seed"),
                final_size=data["final_size"],
            )
        except ValidationError as exc:
            form.apply_service_errors(exc)
        else:
            messages.success(request, f"{tournament.name} has started: round 1 is queued.")
            return redirect("arena:tournament", pk=tournament.pk)
    return render(
        request,
        "arena/tournament_new.html",
        {"form": form, "arena_section": "tournament"},
        status=400 if form.errors else 200,
    )
