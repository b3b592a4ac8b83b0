"""Invitations to join a league: made and revoked by its organisers, accepted by whoever holds
the link. Atomic under the league's lock (`league.common`)."""

from __future__ import annotations

import datetime as dt
import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import notifications
from league import common
from league.clubs.services import member_add, player_for_user
from league.models import (
    AuditEntry,
    Invitation,
    League,
    Membership,
    Player,
)


@transaction.atomic
def invitation_create(
    *,
    league: League,
    by: User,
    player: Player | None = None,
    days: int | None = None,
    email: str = "",
) -> Invitation:
    """A link to join `league`; with `player`, for the one person who takes over that guest.
    With `email`, the link is also e-mailed to that address once the invitation is saved."""
    errors = common.Errors()
    if player is not None:
        if player.user_id is not None:
            errors.add("player", f"{player} already has a login.")
        elif not league.memberships.filter(player=player).exists():
            errors.add("player", f"{player} is not a guest of {league}.")
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            errors.add("email", f"{email!r} is not an e-mail address.")
    errors.raise_if_any()
    valid_for = dt.timedelta(days=days or settings.CATLEAGUE_INVITATION_DAYS)
    invitation = Invitation.objects.create(
        league=league,
        player=player,
        created_by=by,
        token=secrets.token_urlsafe(24),
        expires_at=timezone.now() + valid_for,
    )
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=invitation,
        changes={
            "player": player.name if player else None,
            "expires_at": invitation.expires_at,
            **({"emailed_to": email} if email else {}),
        },
    )
    if email:
        notifications.invite(
            to=email,
            context={
                "league": league.name,
                "game_name": league.get_game_display(),
                "by": common.name_of(by),
                "guest": player.name if player else "",
                "expires": common.mail_day(timezone.localdate(invitation.expires_at)),
                "path": reverse("league:invitation", args=[invitation.token]),
            },
        )
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by: AbstractBaseUser) -> None:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        common.record_audit(
            league=invitation.league,
            user=by,
            action=AuditEntry.Action.DELETE,
            obj=invitation,
            changes={"revoked": True},
        )


def invitation_problem(invitation: Invitation) -> str | None:
    """Why this invitation cannot be accepted any more, or None."""
    if invitation.revoked_at is not None:
        return "This invitation was withdrawn by the league's organisers."
    if invitation.player_id is not None and invitation.accepted_at is not None:
        return "This invitation has already been used."
    if invitation.expires_at <= timezone.now():
        return "This invitation has expired; ask the organisers for a new link."
    return None


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """The invitee joins, by their own consent. A guest invitation gives them that guest player
    and its games; their own player, if they had one without games, gives way to it."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("league", "player")
        .get(pk=invitation.pk)
    )
    league = common.lock_league(invitation.league)
    problem = invitation_problem(invitation)
    if problem:
        raise ValidationError({"invitation": [problem]})
    own = Player.objects.filter(user=user).first()
    if invitation.player is not None:
        guest = Player.objects.select_for_update().get(pk=invitation.player.pk)
        if guest.user_id is not None:
            raise ValidationError({"invitation": [f"{guest} already belongs to an account."]})
        if own is not None:
            if own.participations.exists():
                raise ValidationError(
                    {
                        "invitation": [
                            f"Your account already plays as {own}, with games of its own; ask an "
                            "administrator to merge the two players."
                        ]
                    }
                )
            for membership in own.memberships.select_related("league"):
                if not guest.memberships.filter(league=membership.league).exists():
                    # Names are unique within each league: the guest's name must be free there.
                    if (
                        membership.league.memberships.filter(player__name__iexact=guest.name)
                        .exclude(player=own)
                        .exists()
                    ):
                        raise ValidationError(
                            {
                                "invitation": [
                                    f"{membership.league} already has a player called "
                                    f"{guest.name!r}: ask the organisers of {league} to rename "
                                    "the guest first."
                                ]
                            }
                        )
                    membership.player = guest
                    membership.save(update_fields=["player"])
            own.delete()
        guest.user = user
        guest.save(update_fields=["user"])
        common.record_audit(
            league=league,
            user=user,
            action=AuditEntry.Action.UPDATE,
            obj=guest,
            changes={"claimed_by": user.get_username()},
        )
        membership = league.memberships.get(player=guest)
    else:
        player = own or player_for_user(user)
        if league.memberships.filter(player=player).exists():
            raise ValidationError({"invitation": [f"You are already a member of {league}."]})
        membership = member_add(league=league, player=player, by=user)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return membership
