"""Replay frames of a Cat Lady match: per position, what every seat's observation shows
(shared once, plus each seat's differences), the hidden part only the full view shows, and
the running scores; with the card catalogue the viewer needs once.

>>> from engine import load_game
>>> game = load_game(options={"players": 2})
>>> built = replay_frames(game, [game.new_initial_state(3)])
>>> sorted(built["frames"][0]["hidden"])
['next_cards', 'removed', 'strays_face_down']
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from engine.catlady.cards import CardSpec
from engine.catlady.game import Game, State
from engine.frames import frame, split_views

__all__ = ["NEXT_CARDS_SHOWN", "RUNNING_SCORE_BUDGET_S", "replay_frames"]

# How many of the next deck cards the full view shows (the whole deck would bloat the page).
NEXT_CARDS_SHOWN = 9
# Tableau keys a replay leaves out: the card catalogue names every key, and hand cards say
# their kind and toy.
_DERIVED = frozenset({"cat_names", "toys", "costumes", "catnip"})
# Time the running score of every position may take when a replay is built.
RUNNING_SCORE_BUDGET_S = 0.15


def replay_frames(game: Game, states: Sequence[State]) -> dict[str, Any]:
    edition = game.edition
    deck = edition.deck
    seats = range(game.num_players)
    frames: list[dict[str, Any]] = []
    keys: set[str] = set()
    running_scores = _running_scores_affordable(states)
    for state in states:
        observations = [state.observation(seat) for seat in seats]
        shared, own = split_views(observations)
        for key in ("current_player", "phase", "turn"):
            shared.pop(key, None)  # the frame says these once
        if "tableaux" in shared:
            shared["tableaux"] = [
                {key: value for key, value in tableau.items() if key not in _DERIVED}
                for tableau in shared["tableaux"]
            ]
        hidden = _cat_lady_hidden(state)
        keys.update(k for k in shared.get("grid", []) if k)
        keys.update(hidden["next_cards"])
        keys.update(hidden["removed"])
        keys.update(shared.get("unseen", {}))
        keys.update(shared.get("discard", {}))
        for tableau in shared.get("tableaux", []):
            keys.update(tableau["cats"])
            keys.update(tableau["hand"])
            keys.update(tableau.get("boxes", []))
        if state is states[-1] and state.is_terminal():
            scores = [p.total for p in state.result().players]
        elif running_scores or state is states[-1]:
            scores = [p.total for p in state.score().players]
        else:
            scores = None
        frames.append(frame(state, shared, own, hidden, scores))
    by_key = {card.key: card for card in deck}
    # A key the deck does not hold (an expansion's extra card) is shown by its key, never
    # with made-up facts.
    cards = {
        key: _card_json(by_key[key]) if key in by_key else {"name": key, "kind": "other"}
        for key in sorted(keys)
    }
    strays = {
        s.name: {
            "colours": sorted(str(c) for c in s.colours),
            "needs": dict(s.needs),
            "vp": s.vp,
            "ability": s.ability,
            "note": s.note,
        }
        for s in edition.strays
    }
    meta = {
        "edition": edition.name,
        "edition_label": edition.label,
        "data_version": edition.version,
        "data_status": edition.status,
        "players": game.num_players,
        "cards": cards,
        "strays": strays,
        "toy_types": [list(t) for t in edition.toy_types],
        "food_tokens": list(game.food_tokens),
    }
    return {"meta": meta, "frames": frames}


def _running_scores_affordable(states: Sequence[State]) -> bool:
    """Whether scoring every position fits RUNNING_SCORE_BUDGET_S. The position before the
    last holds (nearly) the most cards, so its scoring time bounds the others'. The base game
    scores a position in well under a millisecond; an expansion's general scorer can take
    tens of milliseconds, and then only the final position is scored (the viewer says so)."""
    if len(states) < 2:
        return True
    begun = time.perf_counter()
    states[-2].score()
    return (time.perf_counter() - begun) * len(states) <= RUNNING_SCORE_BUDGET_S


def _cat_lady_hidden(state: State) -> dict[str, Any]:
    """What no seat's observation contains, from the state's full view (for finished
    matches only): the deck's next cards, the cards removed unseen at the deal and the
    strays never dealt face up."""
    full = state.full_view()
    return {
        "next_cards": full["deck"][:NEXT_CARDS_SHOWN],
        "removed": full["removed"],
        "strays_face_down": full["strays_face_down"],
    }


def _card_json(card: CardSpec) -> dict[str, Any]:
    data: dict[str, Any] = {"name": card.name, "kind": str(card.kind)}
    if card.cat is not None:
        data["colours"] = sorted(str(c) for c in card.cat.colours)
        data["vp"] = card.cat.vp
        data["needs"] = dict(card.cat.needs)
        data["ability"] = card.cat.ability
    if card.food:
        data["food"] = dict(card.food)
    if card.toy:
        data["toy"] = card.toy
    if card.provisional:
        data["provisional"] = True
    return data
