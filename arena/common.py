"""What every arena room shares: a match's seats, creating and queueing a match, the games the
arena plays, and the match lists the rooms' pages show.

A match goes queued -> running -> finished (or failed); ``arena.matches.services`` claims and
records it. Every room that starts matches (validation, ladders, tournaments, challenges, live
play) creates them here, so the checks and the hand-over to the broker live in one place.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch, QuerySet
from django.utils import timezone

import engine
from arena.models import (
    BotVersion,
    Ladder,
    Match,
    MatchSeat,
    Tournament,
)
from arena.sandbox import Limits
from config.celery import app as celery_app
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


logger = logging.getLogger(__name__)


MATCH_TASK = "arena.tasks.match_run"


@dataclass(frozen=True)
class SeatInput:
    """One seat of a match: a bot version, a house bot, or (live matches only) a person."""

    version: BotVersion | None = None
    builtin: str = ""
    player: User | None = None


def enqueue(match: Match) -> None:
    """Hand the match (its ``dispatch`` already counted) to the broker once this transaction
    commits.

    The task is sent by name (the tasks module calls these services, not the other way).
    If the broker is down the write still stands: the failure is logged, the client gets its
    answer, and the reaper sends the match again later.
    """
    match_id, dispatch = match.pk, match.dispatch
    # Live matches wait for people: their own queue keeps them from holding up the others.
    queue = settings.ARENA_LIVE_QUEUE if match.kind == Match.Kind.LIVE else None

    def send() -> None:
        try:
            celery_app.signature(MATCH_TASK, args=(match_id, dispatch)).apply_async(queue=queue)
        except Exception:  # any broker error: the reaper queues it again
            logger.exception("match %s could not be queued; the reaper will retry", match_id)

    transaction.on_commit(send)


def default_limits() -> dict[str, Any]:
    return Limits(move_ms=1000, bank_ms=10_000, max_faults=5).to_json()


def check_game(game: str) -> str:
    """The game's name if the engine plays it, else a ValidationError listing the games."""
    known = sorted({name for name, _ in engine.registered_games()})
    if game not in known:
        raise ValidationError(
            {"game": [f"Unknown game {game!r}; the arena plays: {', '.join(known)}."]}
        )
    return game


def game_label(game: str) -> str:
    """A game's display name, saying when its default deck is a demo (never the real cards)."""
    label: str = engine.load_game(game).label
    return label


@transaction.atomic
def match_create(
    *,
    kind: str,
    seats: Sequence[SeatInput],
    seed: int,
    ladder: Ladder | None = None,
    tournament: Tournament | None = None,
    tournament_round: int | None = None,
    duplicate_set: str = "",
    requested_by: User | AnonymousUser | None = None,
    game: str = "cat-lady",
    options: dict[str, Any] | None = None,
) -> Match:
    errors: dict[str, list[str]] = {}
    options = dict(options or {})
    if "players" in options:
        errors.setdefault("options", []).append("The player count is the number of seats.")
    if options and kind in (Match.Kind.LADDER, Match.Kind.TOURNAMENT, Match.Kind.VALIDATION):
        errors.setdefault("options", []).append(
            "Ranked and validation matches use the game's default options."
        )
    if kind != Match.Kind.LIVE and any(s.player is not None for s in seats):
        errors.setdefault("seats", []).append("Only live matches have people at the table.")
    versions = [s.version.pk for s in seats if s.version is not None]
    if len(versions) != len(set(versions)):
        errors.setdefault("seats", []).append("A bot version can take only one seat in a match.")
    for index, seat in enumerate(seats):
        if seat.version is not None and seat.version.bot.game != game:
            errors.setdefault(f"seats.{index}", []).append(
                f"{seat.version} plays {seat.version.bot.game}, not {game}."
            )
        if seat.builtin and seat.builtin not in strategy_names(game):
            errors.setdefault(f"seats.{index}", []).append(
                f"{game} has no house bot {seat.builtin!r} (house bots: "
                f"{', '.join(strategy_names(game))})."
            )
    if not errors:
        try:
            engine.load_game(game, options={**options, "players": len(seats)})
        except engine.EngineError as exc:
            errors.setdefault("options" if options else "seats", []).append(str(exc))
    if errors:
        raise ValidationError(errors)
    match = Match.objects.create(
        kind=kind,
        seed=seed,
        ladder=ladder,
        tournament=tournament,
        options=options,
        tournament_round=tournament_round,
        duplicate_set=duplicate_set,
        game=game,
        requested_by=requested_by
        if requested_by is not None and requested_by.is_authenticated
        else None,
        limits=default_limits(),
        dispatch=1,
        queued_at=timezone.now(),
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=index, version=s.version, builtin=s.builtin, player=s.player)
        for index, s in enumerate(seats)
    )
    enqueue(match)
    return match


def seat_rank(seat: MatchSeat) -> int:
    # match_record ranks every seat before it rates a match.
    assert seat.rank is not None
    return seat.rank


RECENT_MATCHES = 15


def with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    seats = MatchSeat.objects.select_related("version__bot", "player").order_by("seat")
    return matches.defer("log", "limits").prefetch_related(Prefetch("seats", queryset=seats))


def recent_matches(*, limit: int = RECENT_MATCHES, **filters: Any) -> list[Match]:
    """Finished matches, newest first (validation matches are the owners' business)."""
    matches = (
        Match.objects.filter(status=Match.Status.FINISHED, **filters)
        .exclude(kind=Match.Kind.VALIDATION)
        .order_by("-finished_at", "-id")
    )
    return list(with_seats(matches)[:limit])
