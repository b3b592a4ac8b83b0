"""Games by name and rules version.

A change to the rules (the turn structure, setup, the order of random draws, anything that
could make an old match log play out differently) adds a new version here instead of
changing an old one, so every stored match replays under the rules it was played with.
A version that is no longer implemented is refused with a clear message.

>>> from engine.registry import load_game, registered_games
>>> registered_games()
[('cat-lady', '1'), ('cantankerous-cats', '1')]
>>> load_game("cat-lady", options={"players": 3}).num_players
3
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from engine.cantankerous.game import build_game as build_cantankerous
from engine.cards import Edition, load_edition
from engine.errors import EngineError
from engine.game import Game
from engine.scoring import ScoringRules

__all__ = ["DEFAULT_GAME", "load_game", "latest_version", "registered_games", "supported_players"]

DEFAULT_GAME = "cat-lady"

# Option name -> (default, description). Every option is stored in the game (and the match
# log) with its value, defaults included, so a log is complete without knowing the defaults.
_CAT_LADY_OPTIONS: dict[str, tuple[object, str]] = {
    "players": (4, "number of players, 2-4"),
    "edition": ("base", "card data file engine/data/catlady-<edition>.json"),
    "scoring": ({}, "ScoringRules settings, e.g. a club's costume-split rounding"),
    "custom_strays": ([], "a club's own stray cats (Premium blank cards), see docs/engine.md"),
    "shared_goals": (False, "Box of Treats shared goals (3 or more players)"),
    "solitaire": (False, "Box of Treats solitaire: players 2, seat 1 is the cat player"),
    "starting_cards": (None, "solitaire: the cat player's starting cards (default: the data's 2)"),
}
# Options added after the first match logs were written: stored only when not the default, so
# a base game's options (and so its log) stay exactly what they were.
_STORED_WHEN_USED = frozenset({"custom_strays", "shared_goals", "solitaire", "starting_cards"})


@functools.cache
def _edition(name: str) -> Edition:
    return load_edition(name)


def _cat_lady_v1(options: Mapping[str, Any]) -> Game:
    resolved = _resolve_options("cat-lady", options)
    players = resolved["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise EngineError(f"option 'players' must be an integer, not {players!r}")
    if not isinstance(resolved["edition"], str):
        raise EngineError(f"option 'edition' must be a name, not {resolved['edition']!r}")
    scoring = resolved["scoring"]
    if not isinstance(scoring, Mapping):
        raise EngineError(f"option 'scoring' must be an object, not {scoring!r}")
    edition = _edition(resolved["edition"])
    # An edition with unknown card facts can be shown but not dealt: say what is missing.
    edition.require_playable()
    if resolved.get("custom_strays"):
        edition = edition.with_custom_strays(resolved["custom_strays"])
    flags = {}
    for flag in ("shared_goals", "solitaire"):
        value = resolved.get(flag, False)
        if not isinstance(value, bool):
            raise EngineError(f"option {flag!r} must be true or false, not {value!r}")
        flags[flag] = value
    starting = resolved.get("starting_cards")
    if starting is not None and (not isinstance(starting, int) or isinstance(starting, bool)
                                 or not flags["solitaire"]):
        raise EngineError(f"option 'starting_cards' is a number of solitaire starting cards, "
                          f"not {starting!r}")
    return Game(
        name="cat-lady",
        version="1",
        num_players=players,
        options=resolved,
        edition=edition,
        scoring_rules=_scoring_rules(dict(scoring)),
        starting_cards=starting,
        **flags,
    )


def _resolve_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(options) - set(_CAT_LADY_OPTIONS))
    if unknown:
        known = ", ".join(f"{k} ({desc})" for k, (_, desc) in _CAT_LADY_OPTIONS.items())
        raise EngineError(f"unknown option(s) for {game}: {', '.join(unknown)}; known: {known}")
    resolved = {key: default for key, (default, _) in _CAT_LADY_OPTIONS.items()
                if key not in _STORED_WHEN_USED}
    resolved.update(options)
    for key in _STORED_WHEN_USED:
        if key in resolved and resolved[key] == _CAT_LADY_OPTIONS[key][0]:
            del resolved[key]  # a default value of a later option is not stored
    return resolved


def _scoring_rules(settings: dict[str, Any]) -> ScoringRules:
    try:
        return ScoringRules(**settings)
    except TypeError as exc:
        raise EngineError(f"bad 'scoring' option {settings!r}: {exc}") from None


def _cantankerous_v1(options: Mapping[str, Any]) -> Any:
    return build_cantankerous("1", options)


# name -> version -> factory. Keep old versions when adding a new one.
_GAMES: dict[str, dict[str, Callable[[Mapping[str, Any]], Any]]] = {
    "cat-lady": {"1": _cat_lady_v1},
    "cantankerous-cats": {"1": _cantankerous_v1},
}


def registered_games() -> list[tuple[str, str]]:
    """Every (game name, rules version) this engine can play and replay."""
    return [(name, version) for name, versions in _GAMES.items() for version in versions]


def supported_players(name: str = DEFAULT_GAME) -> tuple[int, ...]:
    """The player counts a game is played by with its default options.

    >>> supported_players("cantankerous-cats")
    (2, 3, 4, 5, 6)

    Raises :class:`EngineError` for an unknown game.
    """
    game = load_game(name)
    players = getattr(game, "supported_players", None)
    return tuple(players if players is not None else game.edition.supported_players)


def latest_version(name: str = DEFAULT_GAME) -> str:
    """The newest rules version of a game; raises :class:`EngineError` for an unknown game."""
    return list(_versions(name))[-1]


def _versions(name: str) -> dict[str, Callable[[Mapping[str, Any]], Any]]:
    try:
        return _GAMES[name]
    except KeyError:
        raise EngineError(
            f"unknown game {name!r}; known: {', '.join(sorted(_GAMES))}"
        ) from None


def load_game(
    name: str = DEFAULT_GAME,
    *,
    version: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Any:
    """A configured game: the latest rules version unless ``version`` is given.

    ``"cat-lady"`` gives an :class:`engine.game.Game`, ``"cantankerous-cats"`` an
    :class:`engine.cantankerous.game.Game`; both have the same game API.

    >>> load_game(options={"players": 2}).version
    '1'

    Raises :class:`EngineError` for an unknown game, version or option, or an unsupported
    player count.
    """
    versions = _versions(name)
    chosen = latest_version(name) if version is None else str(version)
    if chosen not in versions:
        raise EngineError(
            f"{name} rules version {chosen!r} is not implemented by this engine "
            f"(it plays: {', '.join(versions)})"
        )
    return versions[chosen](dict(options or {}))
