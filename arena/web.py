"""What the rooms' pages, forms and API share: who is asking, ids in URLs, the game choices,
and service errors shown on a form."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from rest_framework.request import Request

from arena.common import game_label
from arena.models import BotVersion
from config.api.errors import error_response
from engine import PlaySetup, game_spec, play_setups, registered_games
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


JsonView = Callable[..., JsonResponse]


def json_endpoint(
    *, login: bool, missing: str = "No such table."
) -> Callable[[JsonView], JsonView]:
    """A page's JSON endpoint (a table's state, a move, a guest seated...): every failure in
    the API's error shape, never an HTML page that the page's script cannot read. With
    ``login``, a visitor whose session ended gets 403 ``not_authenticated`` instead of a
    redirect to the log-in page; a table that is gone or not theirs, 404 ``not_found`` (the
    same for both, as on the pages), said as ``missing``."""

    def decorate(view: JsonView) -> JsonView:
        @functools.wraps(view)
        def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if login and not request.user.is_authenticated:
                return error_response(
                    403, "not_authenticated", "Your session has ended: log in again."
                )
            try:
                return view(request, *args, **kwargs)
            except Http404:
                return error_response(404, "not_found", missing)
            except PermissionDenied as refused:
                return error_response(
                    403, "permission_denied", str(refused) or "You may not do this."
                )

        return answer

    return decorate


def json_refusal(detail: str, error: ValidationError) -> JsonResponse:
    """A service's refusal of a page's JSON request, by field (400 ``validation_error``)."""
    return JsonResponse(
        {"error": "validation_error", "detail": detail, "fields": error.message_dict}, status=400
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

# The house mcts searches this many playouts a move (the engine's default budget, which the
# arena's runner uses; tests/arena/test_bot_choices.py holds the two equal). Iterations, not
# seconds, so that a match replays the same on any machine.
HOUSE_MCTS_PLAYOUTS = 200

_HOUSE_BOT_WORDS = {
    "random": "a random legal move",
    "greedy": "the best-looking move now, no look-ahead",
    "mcts": f"Monte Carlo search, {HOUSE_MCTS_PLAYOUTS} playouts a move",
    "cat-player": "the solitaire cat player",
}


def game_name(game: str) -> str:
    """The game's short name, for messages (``Cantankerous Cats``, without its deck's note)."""
    return game_spec(game).label


def house_bot_label(game: str, name: str) -> str:
    """``House bot: mcts (Monte Carlo search, 200 playouts a move), Cat Lady``: what it plays
    and how hard it thinks, in the game's short name."""
    words = _HOUSE_BOT_WORDS.get(name)
    described = f"{name} ({words})" if words else name
    return f"House bot: {described}, {game_name(game)}"


class _GameTagged:
    """Options that say their game (``data-game``), so that a page script can offer only the
    chosen game's bots; ``games`` maps an option's value to its game."""

    def __init__(
        self, attrs: dict[str, Any] | None = None, games: dict[str, str] | None = None
    ) -> None:
        super().__init__(attrs)  # type: ignore[call-arg]
        self.games = games or {}

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option: dict[str, Any] = super().create_option(*args, **kwargs)  # type: ignore[misc]
        game = self.games.get(str(option["value"]))
        if game:
            option["attrs"]["data-game"] = game
        return option


class GameTaggedSelect(_GameTagged, forms.Select):
    pass


class GameTaggedCheckboxes(_GameTagged, forms.CheckboxSelectMultiple):
    pass


def version_label(version: BotVersion, user: User) -> str:
    who = "yours" if version.bot.owner_id == user.pk else f"by {version.bot.owner.username}"
    return f"{version.bot.name} v{version.number} ({who}, {version.bot.game})"


def unique_editions() -> list[PlaySetup]:
    seen: dict[str, PlaySetup] = {}
    for setup in play_setups():
        seen.setdefault(setup.edition, setup)
    return list(seen.values())
