"""Writes to accounts: named API tokens and e-mail choices. Keyword-only, atomic; bad input
raises ValidationError."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import ApiToken, EmailKind, EmailPreferences

if TYPE_CHECKING:
    from django.contrib.auth.models import User

MAX_TOKENS_PER_USER = 20
KEY_BYTES = 30  # 40 characters of URL-safe base64


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


@transaction.atomic
def token_create(*, user: User, name: str) -> tuple[ApiToken, str]:
    """A new token and its key; the key is not stored and cannot be shown again."""
    name = name.strip()
    errors: dict[str, list[str]] = {}
    if not name:
        errors["name"] = ["Give the token a name, e.g. the bot or script that will use it."]
    elif len(name) > 60:
        errors["name"] = ["A token name is at most 60 characters."]
    elif ApiToken.objects.filter(user=user, name__iexact=name).exists():
        errors["name"] = [f"You already have a token called {name!r}."]
    elif ApiToken.objects.filter(user=user).count() >= MAX_TOKENS_PER_USER:
        errors["name"] = [f"You have {MAX_TOKENS_PER_USER} tokens; revoke one first."]
    if errors:
        raise ValidationError(errors)
    key = secrets.token_urlsafe(KEY_BYTES)
    token = ApiToken.objects.create(user=user, name=name, prefix=key[:8], digest=key_digest(key))
    return token, key


@transaction.atomic
def token_revoke(*, token: ApiToken, by: AbstractBaseUser) -> None:
    if token.user_id != by.pk:
        raise ValidationError({"token": ["This token is not yours."]})
    token.delete()


# --- e-mail choices -------------------------------------------------------------------------


@transaction.atomic
def email_preferences_set(*, user_id: int, choices: Mapping[str, bool]) -> EmailPreferences:
    """Turn kinds of e-mail on or off (kinds not named keep their setting); the person's row is
    made on first use."""
    unknown = sorted(set(choices) - set(EmailKind.values))
    if unknown:
        raise ValidationError({"kind": [f"Unknown kinds of e-mail: {', '.join(unknown)}."]})
    preferences, _ = EmailPreferences.objects.select_for_update().get_or_create(user_id=user_id)
    for kind, wanted in choices.items():
        setattr(preferences, kind, bool(wanted))
    preferences.save()
    return preferences


def email_failure_record(*, user_id: int, address: str, reason: str) -> None:
    """An e-mail to this person still failed after every retry: the account page says so."""
    preferences, _ = EmailPreferences.objects.get_or_create(user_id=user_id)
    preferences.failed_at = timezone.now()
    preferences.failed_address = address[:254]
    preferences.failed_reason = reason[:200]
    preferences.save(update_fields=["failed_at", "failed_address", "failed_reason"])


def email_failure_clear(*, user_id: int) -> None:
    """An e-mail reached this person: an earlier failure no longer needs their attention."""
    EmailPreferences.objects.filter(user_id=user_id, failed_at__isnull=False).update(
        failed_at=None, failed_address="", failed_reason=""
    )
