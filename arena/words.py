"""A move in people's words, as the live table offers it and the review after the game names
it: the engine's ``describe_move`` (each game's spec registers it), every card by its printed
name. Pure code over engine states, below every room (the table in :mod:`arena.live.moves`
and :mod:`arena.review` both read it)."""

from __future__ import annotations

from typing import Any

import engine

__all__ = ["move_label", "move_words"]


def move_words(game: engine.Game, state: engine.GameState, action: Any) -> dict[str, Any]:
    """``action``, legal in ``state``, in the mover's words: ``{"label", "rule", "picks"}``.

    >>> game = engine.load_game(options={"players": 2})
    >>> state = game.new_initial_state(1)
    >>> move_words(game, state, state.legal_actions()[0])["picks"]
    ['line:row 1']
    """
    return dict(engine.game_spec(game.name).describe_move(state, action))


def move_label(game: engine.Game, state: engine.GameState, action: Any) -> str:
    """The label of :func:`move_words` alone.

    >>> game = engine.load_game(options={"players": 2})
    >>> state = game.new_initial_state(1)
    >>> str(state.legal_actions()[0]), move_label(game, state, state.legal_actions()[0])
    ('place-token row 1', 'Place the cat token on row 1 (it blocks Scratching Post, Tuna, Costume)')
    """
    return str(move_words(game, state, action)["label"])
