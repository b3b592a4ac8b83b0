"""Reads for the account page."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Prefetch

from accounts.models import ApiToken, EmailPreferences
from arena.models import Bot, BotVersion
from league.clubs import selectors as league_selectors
from league.models import Player

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def tokens(*, user: User) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def bots(*, user: User) -> list[Bot]:
    return list(
        Bot.objects.filter(owner=user)
        .select_related("active_version")
        .prefetch_related(Prefetch("versions", queryset=BotVersion.objects.order_by("-number")))
    )


def email_preferences(*, user_id: int) -> EmailPreferences:
    """The person's e-mail choices (the defaults until they change one)."""
    return EmailPreferences.objects.of(user_id)


@dataclass(frozen=True)
class AccountOverview:
    player: Player | None
    leagues: list[league_selectors.UserLeague]
    bots: list[Bot]
    tokens: list[ApiToken]
    email_preferences: EmailPreferences


def overview(*, user: User) -> AccountOverview:
    return AccountOverview(
        player=Player.objects.filter(user=user).first(),
        leagues=league_selectors.user_leagues(user=user),
        bots=bots(user=user),
        tokens=tokens(user=user),
        email_preferences=email_preferences(user_id=user.pk),
    )
