"""What the services of every room share: the league row lock, the change log, the error
collector, and how e-mails name people and dates.

Each service is atomic and takes a lock on the league row first (`lock_league`), so two results
posted to the same league at the same moment are rated one after the other, never interleaved.
Bad input raises `django.core.exceptions.ValidationError` with a message per field.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import ValidationError

from league.models import (
    AuditEntry,
    League,
    Membership,
    Player,
)


@dataclass
class Errors:
    fields: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, message: str) -> None:
        self.fields.setdefault(path, []).append(message)

    def raise_if_any(self) -> None:
        if self.fields:
            raise ValidationError(self.fields)


def account_of(user: AbstractBaseUser | None) -> User | None:
    """The login `user` is, for a foreign key; None for nobody, or a visitor (the untyped views
    may pass an AnonymousUser). Catleague's logins are django.contrib.auth's User."""
    return user if isinstance(user, User) else None


def record_audit(
    *,
    league: League | None,
    user: AbstractBaseUser | None,
    action: str,
    obj: Any,
    changes: Mapping[str, Any],
) -> None:
    """One line of the league's change log (who, what, on which object, which fields), written
    in the caller's transaction so it exists exactly when the change does."""
    AuditEntry.objects.create(
        league=league,
        user=account_of(user),
        action=action,
        object_type=type(obj).__name__,
        object_id=obj.pk,
        changes=json.loads(json.dumps(changes, default=str)),
    )


def save_audited(
    obj: Any,
    *,
    field_name: str,
    value: Any,
    league: League | None,
    by: AbstractBaseUser | None,
    context: Mapping[str, Any] | None = None,
) -> None:
    """Set one field of ``obj`` to ``value``, save that field alone, and log the change with
    its value before and after (plus ``context``, such as whose membership it is)."""
    before = getattr(obj, field_name)
    setattr(obj, field_name, value)
    obj.save(update_fields=[field_name])
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=obj,
        changes={**(context or {}), field_name: {"before": before, "after": value}},
    )


def lock_league(league: League) -> League:
    """The league's row, locked until the transaction ends: every service that changes a
    league's games, members or nights takes it first, so two writers never interleave."""
    return League.objects.select_for_update().get(pk=league.pk)


# --- e-mail -------------------------------------------------------------------------------------


def mail_day(day: dt.date) -> str:
    return f"{day.day} {day:%b %Y}"


def user_id_of(user: AbstractBaseUser | None) -> int | None:
    account = account_of(user)
    return None if account is None else account.pk


def name_of(user: AbstractBaseUser | None) -> str:
    """How an e-mail names who did something: their player's name, else their username."""
    account = account_of(user)
    if account is None:
        return "Catleague"
    name = Player.objects.filter(user=account).values_list("name", flat=True).first()
    return name or account.get_username()


def users_of(player_ids: set[int]) -> set[int]:
    """The logins of these players; guests have none and get no e-mail."""
    return set(
        Player.objects.filter(pk__in=player_ids, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def organiser_ids(league: League) -> set[int]:
    return set(
        league.memberships.filter(
            role=Membership.Role.ORGANISER, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )
