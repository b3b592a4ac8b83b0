"""What the rooms' pages, forms and API share: who is asking, ids in URLs, the game choices,
and service errors shown on a form."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.request import Request

from arena.common import game_label
from arena.models import BotVersion
from engine import PlaySetup, play_setups, registered_games
from engine.registry import DEFAULT_GAME


def you(request: HttpRequest) -> User:
    """The person on a @login_required page."""
    user = request.user
    assert user.is_authenticated
    return user


# Ids are PostgreSQL bigints; the router refuses anything else in a URL with a 404.
ID_PATTERN = r"[0-9]+"
MAX_ID = 2**63 - 1


def form_page(
    request: HttpRequest, template: str, form: forms.Form, context: dict[str, Any] | None = None
) -> HttpResponse:
    """The page of ``form`` with ``context``: 400 when the form was refused (so a client and
    a test see the refusal), else 200."""
    return render(
        request, template, {"form": form, **(context or {})}, status=400 if form.errors else 200
    )


def logged_in(request: Request) -> User:
    """Who makes a write: the permission classes (IsAuthenticatedOrReadOnly, IsAuthenticated)
    let no visitor write."""
    user = request.user
    assert isinstance(user, User)  # not AnonymousUser
    return user


def game_names() -> list[str]:
    return sorted({name for name, _ in registered_games()})


def apply_service_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's refusal beside the field it is about (the source is the file)."""
    for key, messages in error.message_dict.items():
        field_name = {"source": "file"}.get(key, key)
        for message in messages:
            form.add_error(field_name if field_name in form.fields else None, message)


def choice_field(form: forms.Form, name: str) -> forms.ChoiceField:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)  # declared as one on the form's class
    return field


def game_choices() -> list[tuple[str, str]]:
    """Every game the engine plays, labelled as on the ladders (a demo deck says so)."""
    names = sorted({name for name, _ in registered_games()}, key=lambda n: n != DEFAULT_GAME)
    return [(name, game_label(name)) for name in names]


MAX_SEATS = 6


def version_label(version: BotVersion, user: User) -> str:
    who = "yours" if version.bot.owner_id == user.pk else f"by {version.bot.owner.username}"
    return f"{version.bot.name} v{version.number} ({who}, {version.bot.game})"


def unique_editions() -> list[PlaySetup]:
    seen: dict[str, PlaySetup] = {}
    for setup in play_setups():
        seen.setdefault(setup.edition, setup)
    return list(seen.values())
