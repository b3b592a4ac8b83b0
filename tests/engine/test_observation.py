"""engine.catlady.observation: the full view (for replays of finished matches) holds exactly the
hidden part that observations leave out."""

from __future__ import annotations

import random
from collections import Counter

from engine import load_game


def test_full_view_holds_the_unseen_cards_in_draw_order_and_the_face_down_strays() -> None:
    game = load_game(options={"players": 3})
    state = game.new_initial_state(11)
    rng = random.Random(11)
    while not state.is_terminal():
        view = state.full_view()
        obs = state.observation(0)
        assert view["seat"] is None
        assert len(view["deck"]) == obs["deck_size"]
        assert len(view["removed"]) == obs["removed_unseen"]
        assert Counter(view["deck"] + view["removed"]) == Counter(obs["unseen"])
        shown = set(obs["strays"]) | {s for t in obs["tableaux"] for s in t["strays"]}
        assert not shown & set(view["strays_face_down"])
        assert "deck" not in obs and "strays_face_down" not in obs
        before = view["deck"]
        state = state.apply(rng.choice(state.legal_actions()))
        drawn = len(before) - state.observation(0)["deck_size"]
        # The cards drawn are the ones the full view said came next, and the grid shows them.
        if drawn:
            grid = Counter(k for k in state.observation(0)["grid"] if k)
            assert not Counter(before[:drawn]) - grid
