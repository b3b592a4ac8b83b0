"""Telling people by e-mail what happened to their games and bots.

The league's and the arena's services call these inside their transaction; the e-mails are
queued when it commits (`transaction.on_commit`), so a write that is rolled back e-mails
nobody. Callers pass plain values (user ids, names, dates, paths): this module imports
neither app, so both may call it without importing each other.

Who gets an e-mail is decided when the transaction commits: people with an address and the
kind switched on (`EmailPreferences`); guests without an account have no user id to pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from accounts import emails, tasks
from accounts.models import EmailKind, EmailPreferences

__all__ = ["EmailKind", "invite", "notify", "bot_rejected", "recipients"]


def recipients(*, kind: str, user_ids: Iterable[int]) -> list[int]:
    """Those of `user_ids` who get e-mails of `kind`: active, with an address, kind switched on
    (people who never changed their choices have the defaults)."""
    kind = EmailKind(kind)
    users = get_user_model().objects.filter(pk__in=set(user_ids), is_active=True).exclude(email="")
    column = f"email_preferences__{kind.value}"
    if EmailPreferences.default(kind):
        users = users.exclude(**{column: False})
    else:
        users = users.filter(**{column: True})
    return list(users.order_by("pk").values_list("pk", flat=True))


def notify(
    *, kind: str, user_ids: Iterable[int], context: Mapping[str, Any], exclude: int | None = None
) -> None:
    """E-mail `kind` to these people once the current transaction commits (at once outside
    one). `exclude` is whoever did it: nobody is told about their own action. `context` must
    be JSON values: it travels to the worker."""
    kind = EmailKind(kind).value
    ids = sorted({pk for pk in user_ids if pk is not None and pk != exclude})
    payload = dict(context)

    def queue_emails() -> None:
        for user_id in recipients(kind=kind, user_ids=ids):
            tasks.send_email.delay(kind=kind, context=payload, user_id=user_id)

    if ids:
        # robust: the write has committed; a broker that is down loses the e-mails (logged),
        # never the page.
        transaction.on_commit(queue_emails, robust=True)


def invite(*, to: str, context: Mapping[str, Any]) -> None:
    """E-mail a league invitation to an address once the invitation is committed."""
    payload = dict(context)

    def queue_email() -> None:
        tasks.send_email.delay(kind=emails.INVITATION, context=payload, to=to)

    transaction.on_commit(queue_email, robust=True)


def bot_rejected(*, owner_id: int, bot: str, version: int, reason: str) -> None:
    """The arena's validation refused a version of a bot: tell its owner."""
    notify(
        kind=EmailKind.BOT_REJECTED,
        user_ids=[owner_id],
        context={
            "bot": bot,
            "version": version,
            "reason": reason[:2000],
            "path": reverse("arena:bot", args=[bot]),
        },
    )
