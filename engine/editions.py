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

from engine.cards import bundled_editions, load_edition
from engine.errors import EngineError

__all__ = ["PlaySetup", "check_ranked", "describe_options", "play_setups"]


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
            setups.append(PlaySetup(f"{name}-{players}p", f"{label}, {players} players", name,
                                    edition.status, players, "", playable, ranked, options))
        if edition.goals:
            for players in [n for n in edition.supported_players if n >= 3]:
                options = {"edition": name, "players": players, "shared_goals": True}
                setups.append(PlaySetup(f"{name}-{players}p-goals",
                                        f"{label}, {players} players, shared goals", name,
                                        edition.status, players, "shared goals", playable,
                                        ranked, options))
        if edition.solitaire is not None:
            options = {"edition": name, "players": 2, "solitaire": True}
            # Solitaire is one bot against the built-in cat player: never ranked.
            setups.append(PlaySetup(f"{name}-solitaire",
                                    f"{label}, solitaire against the cat player", name,
                                    edition.status, 2, "solitaire", playable, False, options))
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
