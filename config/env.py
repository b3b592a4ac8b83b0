"""Read settings from the environment, failing loudly on values that make no sense.

Every variable the service reads is listed in `.env.example`.
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

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
    "it as DJANGO_SECRET_KEY, or unset it to use the key kept in the var folder."
)


def _check_key(source: str, key: str) -> str:
    if (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(_PLACEHOLDER_PREFIXES)
    ):
        raise ImproperlyConfigured(
            f"{source} is too weak or a placeholder: it needs at least {SECRET_KEY_MIN_LENGTH} "
            f"characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different. {_HOW_TO_SET}"
        )
    return key


def env_secret_key(name: str, *, key_file: Path) -> str:
    """The secret key: from the environment when set, else the one kept in ``key_file``,
    made on the first start (readable by its owner only) and reused after, so a club's own
    server signs sessions with a key nobody else has and keeps them across restarts.

    A weak or placeholder key is refused rather than used to sign sessions and tokens."""
    raw = os.environ.get(name, "")
    if raw:
        return _check_key(name, raw)
    cannot_keep = (
        f"{name} is not set and the key cannot be kept in {key_file} ({{}}): make "
        f"{key_file.parent} writable (CATLEAGUE_VAR_DIR) or set {name}."
    )
    try:
        key_file.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImproperlyConfigured(cannot_keep.format(exc.strerror)) from None
    try:
        # O_EXCL: of several processes starting at once, one writes the key, the others read it.
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as exc:
        raise ImproperlyConfigured(cannot_keep.format(exc.strerror)) from None
    else:
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
    for _ in range(50):  # another process may be between creating the file and writing it
        try:
            key = key_file.read_text().strip()
        except OSError as exc:
            raise ImproperlyConfigured(
                f"{name} is not set and {key_file} cannot be read ({exc.strerror}): set {name} "
                "or fix the file's permissions."
            ) from None
        if key:
            return _check_key(str(key_file), key)
        time.sleep(0.02)
    raise ImproperlyConfigured(f"{key_file} is empty: delete it to make a new key, or set {name}.")


def make_folder(path: Path, variable: str) -> None:
    """Make a folder the service writes in, or say in one line which variable to change."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ImproperlyConfigured(
            f"cannot make the folder {path} ({exc.strerror}): make it writable or set {variable}"
        ) from None
