"""The options of Cantankerous Cats (rules version 1) and building a game from them.

Every option is stored with its value, defaults included, in the game and in every match
log. Where the printings differ, or our manual is silent, the option's description says so
and docs/cantankerous.md explains the default.

>>> from engine.cantankerous.options import resolve_options
>>> resolve_options({"players": 3})["token_bank"]
'players'
>>> resolve_options({"variant": "expert"})
Traceback (most recent call last):
...
engine.errors.EngineError: option 'variant' must be one of basic, standard, not 'expert'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from engine.errors import EngineError

__all__ = ["OPTIONS", "PLAYERS", "resolve_options"]

PLAYERS = (2, 3, 4, 5, 6)

# name -> (default, description). "not official" marks a default our manual does not give.
OPTIONS: dict[str, tuple[object, str]] = {
    "players": (4, "number of players, 2-6"),
    "variant": (
        "standard",
        "basic (no Pounce Tokens or Feral Cats, listed cards removed) or standard",
    ),
    "deck": (
        "demo",
        "a bundled deck (demo, official) or a path to a club's .json deck file; "
        "default demo: the official file is incomplete",
    ),
    "start_hand": (6, "cards dealt to each Cat: 6 in our manual (third edition: 3)"),
    "meal_draw": (3, "cards drawn at Meal Time: 3 in our manual (third edition: 2)"),
    "token_bank": (
        "players",
        "Pounce Tokens left in the Token Bank after each Cat takes one: "
        "a number, or 'players' (one per player, the third edition's "
        "rule; our manual is silent: not official)",
    ),
    "turn_indicator": (
        "flip",
        "who wins the First Bite: 'high' rank, 'low' rank, or 'flip' "
        "the Turn Indicator like a coin (not official: the manual does "
        "not say how it is set)",
    ),
    "direction": (
        "clockwise",
        "direction of play: clockwise, counter-clockwise (third "
        "edition) or flip (the manual's optional coin flip)",
    ),
    "dog_cards": (
        "incident",
        "how a Dog card is played, which our manual never says: "
        "'incident' (like an Event or Frenzy) or 'pounce-only' (only in "
        "a Pounce or a Counter); not official",
    ),
    "turn_limit": (
        300,
        "engine safeguard, not a rule: the game stops unfinished after this "
        "many turns (ranked by Mischief points, no winner)",
    ),
}

_CHOICES = {
    "variant": ("basic", "standard"),
    "turn_indicator": ("flip", "high", "low"),
    "direction": ("clockwise", "counter-clockwise", "flip"),
    "dog_cards": ("incident", "pounce-only"),
}


def resolve_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults filled in and every value checked; raises :class:`EngineError` saying which
    option is wrong and what it accepts."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        known = "; ".join(f"{k} ({desc})" for k, (_, desc) in OPTIONS.items())
        raise EngineError(
            f"unknown option(s) for cantankerous-cats: {', '.join(unknown)}; known: {known}"
        )
    resolved = {key: default for key, (default, _) in OPTIONS.items()}
    resolved.update(options)
    players = resolved["players"]
    if not _is_int(players) or players not in PLAYERS:
        raise EngineError(f"Cantankerous Cats is played by 2-6 players, not {players!r}")
    for key, choices in _CHOICES.items():
        if resolved[key] not in choices:
            raise EngineError(
                f"option '{key}' must be one of {', '.join(choices)}, not {resolved[key]!r}"
            )
    if not isinstance(resolved["deck"], str) or not resolved["deck"].strip():
        raise EngineError(f"option 'deck' must be a deck name or a path, not {resolved['deck']!r}")
    for key, low, high in (("start_hand", 1, 10), ("meal_draw", 1, 6), ("turn_limit", 1, 10_000)):
        value = resolved[key]
        if not _is_int(value) or not low <= value <= high:
            raise EngineError(f"option '{key}' must be a whole number {low}-{high}, not {value!r}")
    bank = resolved["token_bank"]
    if bank != "players" and (not _is_int(bank) or not 0 <= bank <= 60):
        raise EngineError(
            f"option 'token_bank' must be 'players' or a whole number 0-60, not {bank!r}"
        )
    return resolved


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
