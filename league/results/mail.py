"""E-mail about games to the people concerned (queued when the transaction commits)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from accounts import notifications
from accounts.notifications import EmailKind
from league import common
from league.models import (
    Game,
    League,
)
from league.results import checks


def mail_table(game: Game) -> list[str]:
    return [
        f"{p.rank}. {p.player.name}: {p.score}"
        for p in game.participants.select_related("player").order_by("rank", "seat")
    ]


def game_mail(game: Game, *, by: AbstractBaseUser | None) -> dict[str, Any]:
    """What every e-mail about a game says: league, game, date, table, who, and its page."""
    league = game.league
    return {
        "league": league.name,
        "game_name": game.get_game_display(),
        "played_on": common.mail_day(game.played_on),
        "table": mail_table(game),
        "by": common.name_of(by),
        "days": league.confirmation_days,
        "path": reverse("league:game", args=[league.slug, game.pk]),
    }


def result_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a correction changed the result (not only the place or the notes)."""
    return any(before[key] != after[key] for key in before if key not in ("place", "notes"))


def notify_pending(league: League, game: Game, logged_by: AbstractBaseUser | None) -> None:
    """A game waits for confirmation: tell whoever the league's rule asks to confirm it."""
    confirmers = set(checks.confirmers(game))
    if league.confirmation == League.Confirmation.ORGANISER or not confirmers:
        # Nobody else at the table can confirm (guests only): it waits for an organiser.
        kind, user_ids = EmailKind.LEAGUE_PENDING, common.organiser_ids(league)
    else:
        kind, user_ids = EmailKind.GAME_PENDING, confirmers
    notifications.notify(
        kind=kind,
        user_ids=user_ids,
        context={
            **game_mail(game, by=logged_by),
            "guests_only": league.confirmation != League.Confirmation.ORGANISER,
        },
        exclude=common.user_id_of(logged_by),
    )
