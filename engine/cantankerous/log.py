"""Turn summaries of a Cantankerous Cats match log: a readable, checkable transcript.

Each summary is one turn (turn 0 is the First Bite): the Cat Toy holder and every decision
taken in it, in order, with the public events it caused::

    {"turn": 3, "toy_holder": 1, "steps": [
        {"seat": 1, "phase": "action", "action": "score 50",
         "events": ["seat 1 plays to score #50 Demo Mischief 3", "Pounce window after ...",]},
        {"seat": 0, "phase": "pounce", "action": "pass", "events": ["seat 0 has decided"]},
        ...]}

Actions are the full record (a bet or a Pounce choice is shown here as taken, even though
the other seats only saw it when revealed); the events are what the table saw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.cantankerous.game import State

__all__ = ["turn_summaries"]


def turn_summaries(states: list[State]) -> list[dict[str, Any]]:
    """One summary per turn from the successive states of a match."""
    summaries: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for before, after in zip(states, states[1:], strict=False):
        action = after.last_action
        if current is None or current["turn"] != before.turn:
            current = {"turn": before.turn, "toy_holder": before.toy_holder, "steps": []}
            summaries.append(current)
        current["steps"].append(
            {
                "seat": before.current_player,
                "phase": before.phase,
                "action": str(action),
                "events": [event["text"] for event in after.events],
            }
        )
    return summaries
