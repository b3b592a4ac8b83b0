"""What several Cat Lady test modules build the same way."""

from __future__ import annotations

import json
from typing import Any

from engine.catlady.cards import DATA_DIR
from engine.catlady.game import State
from engine.registry import load_game
from tests.engine.helpers import played


def random_midgame(players: int, seed: int, moves: int) -> State:
    """The state after ``moves`` random legal moves of a ``players``-seat game dealt from
    ``seed``."""
    state: State = played(load_game(options={"players": players}), seed, moves)
    return state


def premium_completed_by_a_club(unknown_ability_vp: int = 3) -> dict[str, Any]:
    """Premium's card data with its unknown facts filled in, as a club that owns the cards
    would: every stray black, worth 3 VP (``unknown_ability_vp`` where the ability is
    unknown), eating a milk where its needs are unknown, with no ability where that is
    unknown; the status "complete"."""
    data = json.loads((DATA_DIR / "catlady-premium.json").read_text(encoding="utf-8"))
    for stray in data["strays"]:
        vp = 3 if stray["ability"] != "unknown" else unknown_ability_vp
        stray.update(colours=["black"], vp=vp)
        if stray["needs"] == "unknown":
            stray["needs"] = {"milk": 1}
        if stray["ability"] == "unknown":
            stray.update(ability=None, params={})
    data.pop("unknown_facts")
    data["status"] = "complete"
    return data
