"""Replay frames of a Cantankerous Cats match, with every text a person reads in the game's
words (:mod:`engine.cantankerous.words`): cards by printed name, seats counted from 1 as the
viewer counts them.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 2})
>>> built = replay_frames(game, [game.new_initial_state(3)])
>>> sorted(built["frames"][0]["hidden"])
['bowl_next', 'hands', 'window']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cantankerous.game import Game, State
from engine.cantankerous.words import choice_label, describe_event, people_text
from engine.frames import frame, split_views

__all__ = ["replay_frames"]

# Observation keys constant through a Cantankerous Cats match: sent once in "meta".
_CC_CONSTANT = ("deck", "variant", "turn_indicator", "direction")
# How many of the Food Bowl's next cards the full view shows.
NEXT_BOWL_CARDS_SHOWN = 6


def replay_frames(game: Game, states: Sequence[State]) -> dict[str, Any]:
    """Frames of a Cantankerous Cats match. ``public`` is what every seat sees (every Cat's
    status, points, House, tokens and hand size; the table; the Litter Box; the pending
    decision's public side) and ``own[seat]`` what only that seat sees (its hand, its bet or
    Pounce choice before the reveal, a Feral's Meal Time draw, its legal moves). ``hidden``
    is the rest, for the full view: every hand, every pending bet and Pounce choice, the
    Food Bowl's next cards. ``events`` are what the move made happen, as the table saw it."""
    seats = range(game.num_players)
    frames: list[dict[str, Any]] = []
    numbers: set[int] = set()
    for state in states:
        observations = [state.observation(seat) for seat in seats]
        for obs in observations:
            numbers.update(int(n) for n in obs.pop("cards"))
        shared, own = split_views(observations)
        for key in ("current_player", "phase", "turn", *_CC_CONSTANT):
            shared.pop(key, None)
            for mine in own:
                mine.pop(key, None)
        litter = shared.pop("litter_box", [])
        shared["litter_box"] = {"count": len(litter), "top": litter[-1] if litter else None}
        numbers.update(litter[-1:])
        full = state.full_view()
        hidden = {
            "hands": full["hands"],
            "window": full["window"],
            "bowl_next": full["bowl"][:NEXT_BOWL_CARDS_SHOWN],
        }
        numbers.update(n for hand in full["hands"] for n in hand)
        numbers.update(hidden["bowl_next"])
        window = hidden["window"]
        if window and window.get("choices"):  # the Pounce choices made so far, by seat
            choices = {seat: choice_label(game, text) for seat, text in window["choices"].items()}
            hidden["window"] = {**window, "choices": choices}
        for mine in own:
            if mine.get("legal_actions"):  # the engine's texts, seats counted from 1 as shown
                mine["legal_actions"] = [people_text(text) for text in mine["legal_actions"]]
            if (mine.get("window") or {}).get("my_choice"):
                mine["window"] = {
                    **mine["window"],
                    "my_choice": choice_label(game, mine["window"]["my_choice"]),
                }
        events = [describe_event(game, event) for event in state.events]
        frames.append(frame(state, shared, own, hidden, list(state.points), events=events))
    first = states[0].observation(0)
    move_texts = [people_text(str(state.history[-1])) for state in states[1:]]
    meta = {
        "deck": first["deck"],
        "variant": first["variant"],
        "turn_indicator": first["turn_indicator"],
        "direction": first["direction"],
        "players": game.num_players,
        "cards": {str(n): game.deck.card(n).summary() for n in sorted(numbers)},
    }
    return {"meta": meta, "frames": frames, "move_texts": move_texts}
