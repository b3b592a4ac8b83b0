"""Composing Catleague's e-mails: a template per kind, absolute links, and the signed link
that lets the recipient change which e-mails they get without logging in.

Plain values in, an `EmailMessage` out; sending is `accounts.tasks.send_email`'s job. Neither
league nor arena is imported here: callers hand over names, dates and paths already made.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.models import EmailKind

# Sent to an address an organiser typed, not to an account: no preference applies.
INVITATION = "invitation"
_SALT = "accounts.email-preferences"


def preferences_token(*, user_id: int, kind: str) -> str:
    """A signed (not encrypted) token naming a person and a kind of e-mail. It does not expire:
    a link in an old e-mail must still stop the next one."""
    return signing.dumps({"u": user_id, "k": EmailKind(kind).value}, salt=_SALT)


def read_preferences_token(token: str) -> tuple[int, EmailKind] | None:
    """The person and kind a token names, or None if it was not made here."""
    try:
        data = signing.loads(token, salt=_SALT)
        return int(data["u"]), EmailKind(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def absolute(path: str) -> str:
    """A link for an e-mail: there is no request to take the host from."""
    return settings.CATLEAGUE_SITE_URL.rstrip("/") + path


def preferences_url(*, user_id: int, kind: str) -> str:
    token = preferences_token(user_id=user_id, kind=kind)
    return absolute(reverse("accounts:email-link", args=[token]))


def compose(
    *, kind: str, context: Mapping[str, Any], to: str, user_id: int | None = None
) -> EmailMessage:
    """The e-mail of `kind` (templates/emails/<kind>.txt and <kind>_subject.txt) for `to`.

    An e-mail to a person (`user_id`) carries the signed link to their e-mail choices, also as
    List-Unsubscribe headers so that mail programs can offer one-click unsubscribing."""
    values = {**context, "site": absolute("/")}
    if "path" in context:
        values["url"] = absolute(context["path"])
    headers = {}
    if user_id is not None:
        link = preferences_url(user_id=user_id, kind=kind)
        values["preferences_url"] = link
        values["kind_label"] = EmailKind(kind).label
        headers = {
            "List-Unsubscribe": f"<{link}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
    subject = " ".join(render_to_string(f"emails/{kind}_subject.txt", values).split())
    body = render_to_string(f"emails/{kind}.txt", values).strip() + "\n"
    return EmailMessage(subject=f"[Catleague] {subject}", body=body, to=[to], headers=headers)
