"""How django-allauth and django-axes fit this site: who may sign up, and which name a failed
log-in counts against."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.http import HttpRequest

from league.clubs import selectors as league_selectors
from league.models import Invitation


def pending_invitation_token(request: HttpRequest) -> str | None:
    """The invitation a visitor opened before signing up (kept by the invitation page)."""
    session = getattr(request, "session", None)
    return session.get(Invitation.SESSION_KEY) if session is not None else None


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """CATLEAGUE_SIGNUP: open to all, only to someone holding a valid league invitation,
        or closed (accounts are then made by an administrator)."""
        mode = settings.CATLEAGUE_SIGNUP
        if mode == "open":
            return True
        if mode == "invite":
            token = pending_invitation_token(request)
            return token is not None and league_selectors.usable_invitation(token=token) is not None
        return False


def attempted_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The name a log-in attempt was for, whichever form sent it: allauth's form passes
    `username` or `email`, the API's token endpoint `username`."""
    for key in ("username", "email", "login"):
        value = (credentials or {}).get(key)
        if value:
            return str(value).strip().lower()
    data = getattr(request, "data", None) or getattr(request, "POST", {})
    for key in ("login", "username"):
        value = data.get(key) if hasattr(data, "get") else None
        if value:
            return str(value).strip().lower()
    return None
