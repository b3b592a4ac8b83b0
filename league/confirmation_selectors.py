"""Reads about results that wait for confirmation: what waits for someone, open disputes."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from league.models import Game, GameDispute, League, Membership, Participant

_WAITING_FOR_PARTICIPANTS = (League.Confirmation.ANOTHER, League.Confirmation.ALL)


def _with_table(games: QuerySet[Game]) -> QuerySet[Game]:
    participants = Participant.objects.select_related("player").order_by("rank", "seat")
    return games.select_related("league").prefetch_related(
        Prefetch("participants", queryset=participants)
    )


def waiting_for(*, user) -> list[Game]:
    """Games waiting for this user's confirmation: one they played and did not log or confirm
    yet, or (for an organiser) one of their league's games that waits for an organiser."""
    if not user.is_authenticated:
        return []
    as_player = (
        Game.objects.filter(
            status=Game.Status.PENDING,
            league__confirmation__in=_WAITING_FOR_PARTICIPANTS,
            participants__player__user=user,
        )
        .exclude(logged_by=user)
        .exclude(confirmations__user=user)
    )
    organised = Membership.objects.filter(
        player__user=user, role=Membership.Role.ORGANISER
    ).values_list("league_id", flat=True)
    as_organiser = Game.objects.filter(
        status=Game.Status.PENDING,
        league__confirmation=League.Confirmation.ORGANISER,
        league_id__in=organised,
    )
    ids = set(as_player.values_list("pk", flat=True)) | set(
        as_organiser.values_list("pk", flat=True)
    )
    return list(_with_table(Game.objects.filter(pk__in=ids)).order_by("played_on", "id"))


def open_disputes(*, leagues) -> list[GameDispute]:
    """Unresolved disputes of these leagues, oldest first (the organisers settle them)."""
    return list(
        GameDispute.objects.filter(league__in=leagues, resolved_at__isnull=True)
        .select_related("game", "league", "raised_by")
        .order_by("raised_at", "id")
    )


def organised_leagues(*, user) -> QuerySet[League]:
    if not user.is_authenticated:
        return League.objects.none()
    if user.is_superuser:
        return League.objects.all()
    return League.objects.filter(
        memberships__player__user=user, memberships__role=Membership.Role.ORGANISER
    )


def confirmed_by(*, game: Game) -> list[str]:
    """Who has confirmed a game so far, by name."""
    return [
        c.player.name if c.player else (c.user.get_username() if c.user else "someone")
        for c in game.confirmations.select_related("player", "user")
    ]
