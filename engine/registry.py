"""Games by name and rules version: the one place that lists the game packages.

Each game package exports one :class:`~engine.contract.GameSpec` (``engine.<game>.spec``);
adding a game is one new folder and one line in :data:`_SPECS`. A change to a game's rules
(the turn structure, setup, the order of random draws, anything that could make an old match
log play out differently) adds a new version to its spec instead of changing an old one, so
every stored match replays under the rules it was played with. A version that is no longer
implemented is refused with a clear message.

>>> from engine.registry import load_game, registered_games
>>> registered_games()
[('cat-lady', '1'), ('cantankerous-cats', '1')]
>>> load_game("cat-lady", options={"players": 3}).num_players
3
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any

from engine.cantankerous.spec import SPEC as CANTANKEROUS_CATS
from engine.catlady.spec import SPEC as CAT_LADY
from engine.contract import Game, GameSpec
from engine.errors import EngineError
from engine.forward import ForwardModel

__all__ = [
    "DEFAULT_GAME",
    "forward_model",
    "game_spec",
    "latest_version",
    "load_game",
    "registered_games",
    "supported_players",
]

_SPECS: dict[str, GameSpec] = {spec.name: spec for spec in (CAT_LADY, CANTANKEROUS_CATS)}

DEFAULT_GAME = CAT_LADY.name


def game_spec(name: str = DEFAULT_GAME) -> GameSpec:
    """The spec a game registered: its label, versions, options, strategies, replay frames.

    >>> game_spec("cat-lady").label
    'Cat Lady'

    Raises :class:`EngineError` for an unknown game.
    """
    try:
        return _SPECS[name]
    except KeyError:
        raise EngineError(f"unknown game {name!r}; known: {', '.join(sorted(_SPECS))}") from None


def registered_games() -> list[tuple[str, str]]:
    """Every (game name, rules version) this engine can play and replay."""
    return [(name, version) for name, spec in _SPECS.items() for version in spec.versions]


def supported_players(name: str = DEFAULT_GAME) -> tuple[int, ...]:
    """The player counts a game is played by with its default options.

    >>> supported_players("cantankerous-cats")
    (2, 3, 4, 5, 6)

    Raises :class:`EngineError` for an unknown game.
    """
    return load_game(name).supported_players


def latest_version(name: str = DEFAULT_GAME) -> str:
    """The newest rules version of a game; raises :class:`EngineError` for an unknown game."""
    return list(game_spec(name).versions)[-1]


def load_game(
    name: str = DEFAULT_GAME,
    *,
    version: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> Game:
    """A configured game: the latest rules version unless ``version`` is given.

    >>> load_game(options={"players": 2}).version
    '1'

    Raises :class:`EngineError` for an unknown game, version or option, or an unsupported
    player count.
    """
    versions = game_spec(name).versions
    chosen = latest_version(name) if version is None else str(version)
    if chosen not in versions:
        raise EngineError(
            f"{name} rules version {chosen!r} is not implemented by this engine "
            f"(it plays: {', '.join(versions)})"
        )
    return versions[chosen](dict(options or {}))


def forward_model(info: Mapping[str, Any]) -> ForwardModel:
    """The forward model of the game a bot's start message or any observation names (its
    ``game``, ``version`` and ``options``), cached: bots may ask on every move.

    >>> forward_model({"game": "cantankerous-cats", "version": "1",
    ...                "options": {"players": 3}}).num_players
    3

    Raises :class:`EngineError` for a message without them, or a game, version or options
    this engine does not have.
    """
    try:
        key = (str(info["game"]), str(info["version"]), json.dumps(info["options"], sort_keys=True))
    except (KeyError, TypeError, ValueError):
        raise EngineError(
            "a forward model needs the start message or an observation "
            "(with game, version and options)"
        ) from None
    return _forward_model(*key)


@functools.lru_cache(maxsize=16)
def _forward_model(name: str, version: str, options: str) -> ForwardModel:
    game = load_game(name, version=version, options=json.loads(options))
    return ForwardModel(game, game_spec(name).sample_state)
