"""Replay frames of a Cantankerous Cats match, with every text a person reads counting
seats from 1 as the viewer does.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 2})
>>> built = replay_frames(game, [game.new_initial_state(3)])
>>> sorted(built["frames"][0]["hidden"])
['bowl_next', 'hands', 'window']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from engine.cantankerous.game import Game, State
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
        events = [event["text"] for event in state.events]
        frames.append(frame(state, shared, own, hidden, list(state.points), events=events))
    first = states[0].observation(0)
    move_texts = [_cc_people_text(str(state.history[-1])) for state in states[1:]]
    for built in frames:  # every text a person reads counts seats from 1, as the viewer does
        built["events"] = [_cc_people_text(text) for text in built["events"]]
        choices = (built["hidden"]["window"] or {}).get("choices")
        if choices:
            built["hidden"]["window"]["choices"] = {
                seat: _cc_people_text(text) for seat, text in choices.items()
            }
        for own in built["own"]:
            if own.get("legal_actions"):
                own["legal_actions"] = [_cc_people_text(text) for text in own["legal_actions"]]
            if (own.get("window") or {}).get("my_choice"):
                own["window"]["my_choice"] = _cc_people_text(own["window"]["my_choice"])
    meta = {
        "deck": first["deck"],
        "variant": first["variant"],
        "turn_indicator": first["turn_indicator"],
        "direction": first["direction"],
        "players": game.num_players,
        "cards": {str(n): game.deck.card(n).summary() for n in sorted(numbers)},
    }
    return {"meta": meta, "frames": frames, "move_texts": move_texts}


_CC_SEATS = re.compile(r"\b([Ss])eats? (\d+(?:, \d+)*)")
_CC_ATTACK = re.compile(r"\battack (\d+) with\b")
_CC_ON = re.compile(r" on (\d+)\b")


def _cc_people_text(text: str) -> str:
    """Engine texts count seats from 0 (bots index them); the viewer says "Seat 1" for seat 0.

    >>> _cc_people_text("seat 0 banks #6: seats 1, 2 decide")
    'Seat 1 banks #6: Seats 2, 3 decide'
    >>> _cc_people_text("pounce attack 0 with 70"), _cc_people_text("play 71 on 2")
    ('pounce attack Seat 1 with 70', 'play 71 on Seat 3')
    >>> _cc_people_text("Pounces revealed: seat 1 pounce attack 0 with 21, seat 2 pass")
    'Pounces revealed: Seat 2 pounce attack Seat 1 with 21, Seat 3 pass'
    """

    def seats(found: re.Match[str]) -> str:
        numbers = [str(int(n) + 1) for n in found.group(2).split(", ")]
        return f"{'Seats' if len(numbers) > 1 else 'Seat'} {', '.join(numbers)}"

    text = _CC_SEATS.sub(seats, text)
    text = _CC_ATTACK.sub(lambda m: f"attack Seat {int(m.group(1)) + 1} with", text)
    return _CC_ON.sub(lambda m: f" on Seat {int(m.group(1)) + 1}", text)
