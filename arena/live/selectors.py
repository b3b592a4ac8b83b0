"""Reads for live play: the opponents a person may choose, a person's live games (the few on
the play page, and the whole list page by page), and the people-against-bots rating pools."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Case, Max, QuerySet, When

import engine
from arena.common import game_label, with_seats
from arena.models import (
    BotVersion,
    LadderEntry,
    LiveSeat,
    Match,
    MatchSeat,
    MoveReview,
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


def matches_sat_at(user: User) -> QuerySet[Match]:
    """The live matches ``user`` sat at (by their seat, not by who asked for the match)."""
    seats = LiveSeat.objects.filter(user=user).values("match_id")
    return Match.objects.filter(kind=Match.Kind.LIVE, pk__in=seats)


def live_games_of(user: User, *, limit: int = 20) -> list[Match]:
    """A person's live matches, unfinished first, then the newest."""
    matches = matches_sat_at(user).order_by(
        Case(When(status__in=[Match.Status.QUEUED, Match.Status.RUNNING], then=0), default=1),
        "-created_at",
        "-id",
    )
    return list(with_seats(matches)[:limit])


def person_games(user: User) -> QuerySet[Match]:
    """Every live match ``user`` sat at, newest first, for a list page by page."""
    matches = matches_sat_at(user).order_by("-created_at", "-id")
    return with_seats(matches.prefetch_related("live_seats", "reviews"))


@dataclass(frozen=True)
class PlayedGame:
    """One row of a person's game list: the match, their seat, the others, and their result
    once it is over."""

    match: Match
    game: str  # the game's display name
    you: MatchSeat
    opponents: list[MatchSeat]
    resigned: bool
    review: MoveReview | None

    @property
    def open(self) -> bool:
        """Still queued or being played: the table, not the replay, is where it is."""
        return self.match.status in Match.OPEN_STATUSES

    @property
    def players(self) -> int:
        return len(self.opponents) + 1

    @property
    def result(self) -> str:
        """The person's place in words ("" until it is over)."""
        if self.match.status == Match.Status.FAILED:
            return "Not played to the end"
        if self.match.status != Match.Status.FINISHED or self.you.rank is None:
            return ""
        if self.resigned:
            return f"Resigned ({_ordinal(self.you.rank)} of {self.players})"
        if self.you.forfeited:
            return f"Forfeited ({_ordinal(self.you.rank)} of {self.players})"
        if self.you.rank == 1:
            return f"Won (1st of {self.players})"
        return f"{_ordinal(self.you.rank)} of {self.players}"

    @property
    def flagged(self) -> int:
        """The moves the review flags (0 until it is done)."""
        moves = (self.review.review or {}).get("moves", []) if self.review else []
        return sum(bool(move.get("flagged")) for move in moves)


def played_games(matches: Iterable[Match], user: User) -> list[PlayedGame]:
    """:func:`person_games`' matches (a page of them) as rows for ``user``."""
    labels: dict[str, str] = {}
    rows = []
    for match in matches:
        seats = list(match.seats.all())
        held = {s.seat: s for s in match.live_seats.all() if s.user_id == user.pk}
        # A host who seated a guest holds the guest's seat too: theirs is the one without a guest.
        you = min((s for s in seats if s.seat in held), key=lambda s: (bool(s.guest), s.seat))
        live = held[you.seat]
        review = next((r for r in match.reviews.all() if r.seat == live.seat), None)
        if match.game not in labels:
            labels[match.game] = game_label(match.game)
        rows.append(
            PlayedGame(
                match=match,
                game=labels[match.game],
                you=you,
                opponents=[s for s in seats if s.seat != live.seat],
                resigned=bool(live.moves.get("resign")),
                # Shown only once the deal may be (the review's own rule: match_reviews).
                review=review if match.deal_revealed else None,
            )
        )
    return rows


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


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
