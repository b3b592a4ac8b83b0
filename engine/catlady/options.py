"""Which Cat Lady editions and variants can be played, and which may be ranked.

The arena and the league ask here instead of deciding for themselves:

* an edition whose card data is **incomplete** (Premium, Box of Treats) is listed, labelled
  "incomplete card data", and is not playable;
* a **placeholder** edition is playable in unranked matches only, and its label says it is not
  the published card list;
* only **complete** editions may be ranked (ladders, tournaments): today the base game at 2-4
  players. A 5-6 player ladder appears when a complete Box of Treats edition does.

>>> [s.key for s in play_setups() if s.ranked]
['base-2p', 'base-3p', 'base-4p']
>>> six = next(s for s in play_setups() if s.key == "box-of-treats-placeholder-6p")
>>> six.ranked, six.playable, six.options
(False, True, {'edition': 'box-of-treats-placeholder', 'players': 6})
>>> describe_options({"edition": "box-of-treats-placeholder", "solitaire": True})
'Box of Treats (placeholder — not the published card list), solitaire against the cat player'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.catlady.cards import bundled_editions, load_edition
from engine.errors import EngineError

__all__ = [
    "OPTIONS",
    "PlaySetup",
    "check_ranked",
    "describe_options",
    "play_setups",
    "resolve_options",
]

# Option name -> (default, description). Every option is stored in the game (and the match
# log) with its value, defaults included, so a log is complete without knowing the defaults.
OPTIONS: dict[str, tuple[object, str]] = {
    "players": (4, "number of players, 2-4 (2-6 with Box of Treats)"),
    "edition": ("base", "card data file engine/catlady/data/catlady-<edition>.json"),
    "scoring": ({}, "ScoringRules settings, e.g. a club's costume-split rounding"),
    "custom_strays": ([], "a club's own stray cats (Premium blank cards), see docs/engine.md"),
    "shared_goals": (False, "Box of Treats shared goals (3 or more players)"),
    "solitaire": (False, "Box of Treats solitaire: players 2, the second seat is the cat player"),
    "starting_cards": (None, "solitaire: the cat player's starting cards (default: the data's 2)"),
}
# Options added after the first match logs were written: stored only when not the default, so
# a base game's options (and so its log) stay exactly what they were.
_STORED_WHEN_USED = frozenset({"custom_strays", "shared_goals", "solitaire", "starting_cards"})


def resolve_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults filled in and every value's type checked (the card data checks the rest);
    raises :class:`EngineError` saying which option is wrong.

    >>> resolve_options({"players": 2})
    {'players': 2, 'edition': 'base', 'scoring': {}}
    >>> resolve_options({"colour": "tabby"})
    Traceback (most recent call last):
    ...
    engine.errors.EngineError: unknown option(s) for cat-lady: colour; known: players (number of players, 2-4 (2-6 with Box of Treats)), edition (card data file engine/catlady/data/catlady-<edition>.json), scoring (ScoringRules settings, e.g. a club's costume-split rounding), custom_strays (a club's own stray cats (Premium blank cards), see docs/engine.md), shared_goals (Box of Treats shared goals (3 or more players)), solitaire (Box of Treats solitaire: players 2, the second seat is the cat player), starting_cards (solitaire: the cat player's starting cards (default: the data's 2))
    """
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        known = ", ".join(f"{k} ({desc})" for k, (_, desc) in OPTIONS.items())
        raise EngineError(f"unknown option(s) for cat-lady: {', '.join(unknown)}; known: {known}")
    resolved = {
        key: default for key, (default, _) in OPTIONS.items() if key not in _STORED_WHEN_USED
    }
    resolved.update(options)
    for key in _STORED_WHEN_USED:
        if key in resolved and resolved[key] == OPTIONS[key][0]:
            del resolved[key]  # a default value of a later option is not stored
    players = resolved["players"]
    if not isinstance(players, int) or isinstance(players, bool):
        raise EngineError(f"option 'players' must be an integer, not {players!r}")
    if not isinstance(resolved["edition"], str):
        raise EngineError(f"option 'edition' must be a name, not {resolved['edition']!r}")
    if not isinstance(resolved["scoring"], Mapping):
        raise EngineError(f"option 'scoring' must be an object, not {resolved['scoring']!r}")
    for flag in ("shared_goals", "solitaire"):
        if not isinstance(resolved.get(flag, False), bool):
            raise EngineError(f"option {flag!r} must be true or false, not {resolved[flag]!r}")
    starting = resolved.get("starting_cards")
    if starting is not None and (
        not isinstance(starting, int) or isinstance(starting, bool) or not resolved.get("solitaire")
    ):
        raise EngineError(
            f"option 'starting_cards' is a number of solitaire starting cards, not {starting!r}"
        )
    return resolved


@dataclass(frozen=True)
class PlaySetup:
    """One way to play: an edition, a player count and a variant, with the options that
    :func:`engine.load_game` takes for it."""

    key: str
    label: str
    edition: str
    status: str  # complete | incomplete | placeholder
    players: int
    variant: str  # "" | "shared goals" | "solitaire"
    playable: bool
    ranked: bool
    options: dict[str, Any] = field(default_factory=dict)


def play_setups() -> list[PlaySetup]:
    """Every edition x player count x variant, incomplete editions included (unplayable)."""
    setups = []
    for name in bundled_editions():
        edition = load_edition(name)
        playable = edition.playable
        ranked = edition.status == "complete"
        label = _edition_label(edition.label, edition.status)
        for players in edition.supported_players:
            options = {"edition": name, "players": players}
            setups.append(
                PlaySetup(
                    f"{name}-{players}p",
                    f"{label}, {players} players",
                    name,
                    edition.status,
                    players,
                    "",
                    playable,
                    ranked,
                    options,
                )
            )
        if edition.goals:
            for players in [n for n in edition.supported_players if n >= 3]:
                options = {"edition": name, "players": players, "shared_goals": True}
                setups.append(
                    PlaySetup(
                        f"{name}-{players}p-goals",
                        f"{label}, {players} players, shared goals",
                        name,
                        edition.status,
                        players,
                        "shared goals",
                        playable,
                        ranked,
                        options,
                    )
                )
        if edition.solitaire is not None:
            options = {"edition": name, "players": 2, "solitaire": True}
            # Solitaire is one bot against the built-in cat player: never ranked.
            setups.append(
                PlaySetup(
                    f"{name}-solitaire",
                    f"{label}, solitaire against the cat player",
                    name,
                    edition.status,
                    2,
                    "solitaire",
                    playable,
                    False,
                    options,
                )
            )
    return setups


def _edition_label(label: str, status: str) -> str:
    if status == "incomplete" and "incomplete" not in label.lower():
        return f"{label} (incomplete card data)"
    return label


def describe_options(options: Mapping[str, Any]) -> str:
    """A label for a Cat Lady game's options (shown with every match that uses them)."""
    name = str(options.get("edition", "base"))
    try:
        edition = load_edition(name)
        label = _edition_label(edition.label, edition.status)
    except EngineError:
        label = name
    parts = [label]
    if options.get("shared_goals"):
        parts.append("shared goals")
    if options.get("solitaire"):
        parts.append("solitaire against the cat player")
    if options.get("custom_strays"):
        parts.append(f"{len(options['custom_strays'])} custom stray(s)")
    return ", ".join(parts)


def check_ranked(options: Mapping[str, Any]) -> None:
    """Raise :class:`EngineError` unless these options may be played in ranked matches:
    complete card data, no solitaire, no custom strays.

    >>> check_ranked({"edition": "box-of-treats-placeholder", "players": 5})
    Traceback (most recent call last):
    ...
    engine.errors.EngineError: ranked matches use complete card data; the box-of-treats-placeholder edition is a placeholder
    """
    name = str(options.get("edition", "base"))
    edition = load_edition(name)
    if edition.status != "complete":
        state = "a placeholder" if edition.status == "placeholder" else "incomplete"
        raise EngineError(f"ranked matches use complete card data; the {name} edition is {state}")
    if options.get("solitaire"):
        raise EngineError("solitaire matches are not ranked")
    if options.get("custom_strays"):
        raise EngineError("ranked matches use the edition's own strays, not custom ones")
