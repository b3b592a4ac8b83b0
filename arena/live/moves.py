"""The live table's moves in people's words, from the engine's ``describe_move`` (each game's
spec registers it; :mod:`arena.words` reads it, for the table and the review alike): the legal
moves of the seat to move, with their rules and the board things each takes, and a played move
as its log line says it to one seat. Pure code over engine states."""

from __future__ import annotations

from typing import Any

import engine
from arena.words import move_words


def legal_words(game: engine.Game, state: engine.GameState, seat: int) -> list[dict[str, Any]]:
    """``seat``'s legal moves in ``state`` (in the engine's order, the order the runner asks
    in), or none when another seat is to move or the game is over."""
    if state.is_terminal() or state.current_player != seat:
        return []
    return [move_words(game, state, action) for action in state.legal_actions()]


def played_words(
    game: engine.Game, before: engine.GameState | None, action: Any, *, actor: int, seat: int
) -> dict[str, str]:
    """The log line of ``action``, played by ``actor`` in ``before``, as ``seat`` observed it
    (the engine's ``describe_seen``): its label and its rule. Another seat's hidden choice
    (a face-down bet...) says only that it was made. Without the position it was played in (a
    resumed table's first line) only the actor's own line says the move."""
    if before is None:
        return {"label": str(action) if actor == seat else "A move", "rule": ""}
    words = engine.game_spec(game.name).describe_seen(before, action, seat)
    return {"label": words["label"], "rule": words["rule"]}
