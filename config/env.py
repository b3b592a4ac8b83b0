"""Read settings from the environment, failing loudly on values that make no sense.

Every variable the service reads is listed in `.env.example`.
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no)")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} must be at least {minimum}")
    return value


def env_choice(name: str, default: str, choices: list[str]) -> str:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} must be one of: {', '.join(choices)}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# The same bar as Django's deployment check (security.W009): long, varied, not a known default.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5
_PLACEHOLDER_PREFIXES = ("change-me", "django-insecure-", "insecure-development-key")
_HOW_TO_SET = (
    'Generate one with `python -c "import secrets; print(secrets.token_urlsafe(50))"` and set '
    "it as DJANGO_SECRET_KEY (or set DJANGO_DEBUG=1 for local development)."
)


def env_secret_key(name: str, *, debug: bool) -> str:
    """The secret key from the environment. Debug runs may go without one; anything else refuses
    to start rather than sign sessions and tokens with a key that is public or guessable."""
    raw = os.environ.get(name, "")
    if debug:
        return raw or "insecure-development-key"
    if not raw:
        raise ImproperlyConfigured(f"{name} is not set and DJANGO_DEBUG is off. {_HOW_TO_SET}")
    if (
        len(raw) < SECRET_KEY_MIN_LENGTH
        or len(set(raw)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or raw.startswith(_PLACEHOLDER_PREFIXES)
    ):
        raise ImproperlyConfigured(
            f"{name} is too weak or a placeholder: it needs at least {SECRET_KEY_MIN_LENGTH} "
            f"characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different. {_HOW_TO_SET}"
        )
    return raw
