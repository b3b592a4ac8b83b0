"""Reads of leagues, players and members that pages and the API share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import (
    Case,
    Count,
    Exists,
    OuterRef,
    Q,
    QuerySet,
    When,
)
from django.utils import timezone

from league.models import (
    AuditEntry,
    Invitation,
    League,
    Membership,
    Participant,
    Player,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


# --- pages ----------------------------------------------------------------------------------


def visible_players(*, user: User | AnonymousUser) -> QuerySet[Player]:
    """The players `user` may see: themselves, the guests they entered, and whoever plays in or
    belongs to a league the user may see (the rule of the player page: someone only in private
    leagues stays hidden)."""
    leagues = League.objects.visible_to(user)
    played = Participant.objects.filter(player=OuterRef("pk"), game__league__in=leagues)
    member = Membership.objects.filter(player=OuterRef("pk"), league__in=leagues)
    if getattr(user, "is_authenticated", False):
        mine = Q(user=user) | Q(user__isnull=True, created_by=user)
    else:
        mine = Q(pk__in=[])
    return Player.objects.filter(mine | Exists(played) | Exists(member))


def player_leagues(*, player: Player, leagues: QuerySet[League]) -> list[League]:
    """The leagues among `leagues` where the player has played or is a member, by name."""
    played = Participant.objects.filter(player=player, game__league=OuterRef("pk"))
    member = Membership.objects.filter(player=player, league=OuterRef("pk"))
    return list(leagues.filter(Exists(played) | Exists(member)).order_by("name"))


# --- club management ------------------------------------------------------------------------


def usable_invitation(*, token: str) -> Invitation | None:
    """The invitation with this token if it can still be accepted."""
    invitation = (
        Invitation.objects.select_related("league", "player").filter(token=token).first()
        if token
        else None
    )
    if invitation is None or invitation.revoked_at is not None:
        return None
    if invitation.player_id is not None and invitation.accepted_at is not None:
        return None
    if invitation.expires_at <= timezone.now():
        return None
    return invitation


def open_invitations(*, league: League) -> list[Invitation]:
    return list(
        league.invitations.select_related("player", "created_by")
        .filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
        .exclude(player__isnull=False, accepted_at__isnull=False)
    )


def members(*, league: League) -> list[Membership]:
    """Organisers first, then by name."""
    return list(
        league.memberships.select_related("player__user")
        .annotate(
            games=Count(
                "player__participations", filter=Q(player__participations__game__league=league)
            )
        )
        .order_by(Case(When(role=Membership.Role.ORGANISER, then=0), default=1), "player__name")
    )


def audit_entries(*, league: League) -> QuerySet[AuditEntry]:
    return league.audit.select_related("user").order_by("-at", "-id")


@dataclass(frozen=True)
class UserLeague:
    league: League
    role: str
    player_name: str


def user_leagues(*, user: User) -> list[UserLeague]:
    rows = (
        Membership.objects.filter(player__user=user)
        .select_related("league", "player")
        .order_by("league__name")
    )
    return [UserLeague(league=m.league, role=m.role, player_name=m.player.name) for m in rows]
