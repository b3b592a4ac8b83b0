"""Writes to accounts: named API tokens. Keyword-only, atomic; bad input raises ValidationError."""

from __future__ import annotations

import hashlib
import secrets
from typing import TYPE_CHECKING

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import ApiToken

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
