"""Reads for live play: the opponents a person may choose, a person's live games, and the
people-against-bots rating pools."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Case, Max, When

import engine
from arena.common import with_seats
from arena.models import (
    BotVersion,
    LadderEntry,
    LiveSeat,
    Match,
    PlayRating,
)
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.contrib.auth.models import User


def match_reviews(match: Match) -> list[dict[str, Any]]:
    """The reviews of a live match's people, once its deal may be shown (never while it is
    played): ``{"seat", "status", "reason", "flagged", "review"}`` by seat; ``review`` is
    :func:`arena.review.review_seat`'s, or None while it is being prepared; ``flagged``
    counts the moves it flags."""
    if match.kind != Match.Kind.LIVE or not match.deal_revealed:
        return []
    return [
        {
            "seat": r.seat,
            "status": r.status,
            "reason": r.reason,
            "flagged": sum(m["flagged"] for m in (r.review or {}).get("moves", [])),
            "review": r.review,
        }
        for r in sorted(match.reviews.all(), key=lambda r: r.seat)  # prefetched by lists
    ]


def live_opponents() -> dict[str, list[tuple[str, str]]]:
    """For each game, the seats a person may fill: house bots, then every active version with
    its best ladder rating (values ``house:<game>:<name>`` and ``v:<id>``)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for game in sorted({name for name, _ in engine.registered_games()}):
        found[game] = [
            (f"house:{game}:{name}", f"House bot: {name}") for name in strategy_names(game)
        ]
    best = dict(
        LadderEntry.objects.values("version_id")
        .annotate(best=Max("rating"))
        .values_list("version_id", "best")
    )
    versions = (
        BotVersion.objects.filter(status=BotVersion.Status.ACTIVE)
        .select_related("bot")
        .order_by("bot__name")
    )
    for version in versions:
        rating = best.get(version.pk)
        label = f"{version} (rated {rating:.0f})" if rating is not None else f"{version} (unrated)"
        found.setdefault(version.bot.game, []).append((f"v:{version.pk}", label))
    return found


def live_games_of(user: User, *, limit: int = 20) -> list[Match]:
    """A person's live matches, unfinished first, then the newest."""
    # By subquery: a host holding a guest's seat too has two seats in one match.
    held = LiveSeat.objects.filter(user=user).values("match_id")
    matches = Match.objects.filter(kind=Match.Kind.LIVE, pk__in=held).order_by(
        Case(When(status__in=[Match.Status.QUEUED, Match.Status.RUNNING], then=0), default=1),
        "-created_at",
        "-id",
    )
    return list(with_seats(matches)[:limit])


def play_pool(*, game: str, players: int, limit: int = 50) -> list[PlayRating]:
    """One pool's standings: people and bots on one scale, best first."""
    return list(
        PlayRating.objects.filter(game=game, players=players)
        .select_related("user", "version__bot")
        .order_by("-rating")[:limit]
    )


def play_ratings_of(
    *, user: User | None = None, versions: Iterable[BotVersion] | None = None
) -> list[PlayRating]:
    """A person's ratings against bots, or bot versions' ratings against people."""
    ratings = PlayRating.objects.select_related("user", "version__bot")
    if user is not None:
        ratings = ratings.filter(user=user)
    else:
        assert versions is not None  # callers give one of the two
        ratings = ratings.filter(version__in=versions)
    return list(ratings.order_by("game", "players"))
