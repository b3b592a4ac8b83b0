"""A small test deck whose every card is known, and helpers to set up positions on it.

Card numbers (the tests name cards by number):

* 1-5 Affection 1, 6-10 Affection 2, 11-15 Affection 3, 16-20 Affection 4
* 21-24 Mischief 1 paw cost 1, 25-28 Mischief 2 paws cost 3, 29-31 Mischief 3 paws cost 4,
  32-33 Mischief 5 paws cost 6, 34 Mischief 9 paws cost 2
* 36 Event draw 2; 37 Event cancel; 38 Frenzy steal a random card; 39 Event random discard
  (opponent); 40 Event lose largest banked Affection (domestic opponent); 41 Frenzy take
  smallest banked Affection; 42 Event score +2; 43 Event gain a token (Basic: removed);
  44 Event opponent loses a token; 45 Event domestic opponent goes Feral; 46 Event adopt a
  Feral (Basic: removed); 47 Dog cancel
* with Instant Action icons: 48 Affection 2 (Mischief icon), 49 Mischief 2 paws cost 3
  (Event icon), 50 Frenzy draw 1 (Affection icon), 51 Affection 1 (Affection icon),
  52 Affection 3 (Dog icon), 53 Mischief 1 paw cost 1 (Mischief icon)
* 54-99 Affection 1 filler (so the Food Bowl never runs dry by accident)

Ranks: a card's rank is its number, except the ranks the First Bite tests need: 1 and 2
share rank 50 (their number otherwise would be lowest).
"""

from __future__ import annotations


def _card(
    number,
    name,
    kind,
    *,
    hearts=None,
    paws=None,
    cost=None,
    effect=None,
    instant=None,
    basic_removed=False,
    rank=None,
):
    return {
        "number": number,
        "name": name,
        "type": kind,
        "rank": rank or number,
        "hearts": hearts,
        "paws": paws,
        "cost": cost,
        "instant": instant,
        "basic_removed": basic_removed,
        "text": f"test card {name}",
        "effect": effect,
        "source": "TEST",
        "verified": False,
    }


def _effect(steps, target=None):
    return {"target": target, "steps": steps}


def deck_cards():
    cards = []
    for number in range(1, 21):
        hearts = (number - 1) // 5 + 1
        cards.append(
            _card(
                number,
                f"Affection {hearts}",
                "affection",
                hearts=hearts,
                rank=50 if number in (1, 2) else None,
            )
        )
    for number, paws, cost in (
        (21, 1, 1),
        (22, 1, 1),
        (23, 1, 1),
        (24, 1, 1),
        (25, 2, 3),
        (26, 2, 3),
        (27, 2, 3),
        (28, 2, 3),
        (29, 3, 4),
        (30, 3, 4),
        (31, 3, 4),
        (32, 5, 6),
        (33, 5, 6),
        (34, 9, 2),
    ):
        cards.append(_card(number, f"Mischief {paws}/{cost}", "mischief", paws=paws, cost=cost))
    cards += [
        _card(36, "Draw two", "event", effect=_effect([{"do": "draw", "who": "self", "n": 2}])),
        _card(37, "Cancel", "event", effect=_effect([{"do": "cancel"}])),
        _card(38, "Steal", "frenzy", effect=_effect([{"do": "steal_random", "n": 1}], "opponent")),
        _card(
            39,
            "Random discard",
            "event",
            effect=_effect([{"do": "discard_random", "who": "target", "n": 1}], "opponent"),
        ),
        _card(
            40,
            "Lose Affection",
            "event",
            effect=_effect(
                [{"do": "discard_banked", "who": "target", "n": 1, "pick": "largest"}],
                "domestic-opponent",
            ),
        ),
        _card(
            41,
            "Take Affection",
            "frenzy",
            effect=_effect([{"do": "steal_banked", "n": 1, "pick": "smallest"}], "opponent"),
        ),
        _card(42, "Two points", "event", effect=_effect([{"do": "score", "who": "self", "n": 2}])),
        _card(
            43,
            "Gain token",
            "event",
            basic_removed=True,
            effect=_effect([{"do": "gain_token", "who": "self", "n": 1}]),
        ),
        _card(
            44,
            "Lose token",
            "event",
            effect=_effect([{"do": "lose_token", "who": "target", "n": 1}], "opponent"),
        ),
        _card(
            45,
            "Go Feral",
            "event",
            effect=_effect([{"do": "go_feral", "who": "target"}], "domestic-opponent"),
        ),
        _card(
            46,
            "Adopt",
            "event",
            basic_removed=True,
            effect=_effect([{"do": "adopt", "who": "target"}], "feral"),
        ),
        _card(47, "Dog cancel", "dog", effect=_effect([{"do": "cancel"}])),
        _card(48, "Affection 2 (Mischief icon)", "affection", hearts=2, instant="mischief"),
        _card(49, "Mischief 2/3 (Event icon)", "mischief", paws=2, cost=3, instant="event"),
        _card(
            50,
            "Draw one (Affection icon)",
            "frenzy",
            instant="affection",
            effect=_effect([{"do": "draw", "who": "self", "n": 1}]),
        ),
        _card(51, "Affection 1 (Affection icon)", "affection", hearts=1, instant="affection"),
        _card(52, "Affection 3 (Dog icon)", "affection", hearts=3, instant="dog"),
        _card(53, "Mischief 1/1 (Mischief icon)", "mischief", paws=1, cost=1, instant="mischief"),
    ]
    cards += [_card(number, "Filler 1", "affection", hearts=1) for number in range(54, 100)]
    return cards


def deck_data():
    return {
        "format": "catleague.cantankerous-deck/1",
        "key": "test",
        "name": "test deck",
        "version": "1",
        "complete": True,
        "demo": False,
        "about": "cards for the rule tests",
        "sources": {"TEST": "made up for tests"},
        "cards": deck_cards(),
    }


def act(state, *texts):
    """Apply actions given in their text form, in order."""
    for text in texts:
        state = state.apply(state.game.parse_action(text))
    return state


def legal(state):
    return [str(a) for a in state.legal_actions()]


def all_events(*states):
    return [event for state in states for event in state.events]
