"""Actions: every kind round-trips through its text and JSON forms; bad input is refused."""

from __future__ import annotations

import json

import pytest

from engine.cantankerous import actions
from engine.cantankerous.actions import action_from_json, parse_action
from engine.errors import EngineError

EVERY_KIND = [
    (actions.Bet(12), "bet 12"),
    (actions.Keep(40), "keep 40"),
    (actions.Bank(3), "bank 3"),
    (actions.Score(50), "score 50"),
    (actions.Play(71, 2), "play 71 on 2"),
    (actions.Play(71), "play 71"),
    (actions.Attack(50, 1), "attack 1 with 50"),
    (actions.PickyEater(), "picky-eater"),
    (actions.BuyToken((9, 3)), "buy-token 3 9"),
    (actions.BuyToken((1, 2, 3)), "buy-token 1 2 3"),
    (actions.Discard(7), "discard 7"),
    (actions.Pass(), "pass"),
    (actions.PounceAttack(50, 1), "pounce attack 1 with 50"),
    (actions.PouncePlay(77), "pounce play 77"),
    (actions.PouncePlay(77, 0), "pounce play 77 on 0"),
    (actions.CounterBank(5), "counter bank 5"),
    (actions.CounterPlay(77), "counter play 77"),
    (actions.Done(), "done"),
    (actions.Instant(20), "instant 20"),
    (actions.Instant(36, 3), "instant 36 on 3"),
]


@pytest.mark.parametrize(("action", "text"), EVERY_KIND, ids=[t for _, t in EVERY_KIND])
def test_text_and_json_forms_round_trip(action, text):
    assert str(action) == text
    assert parse_action(text) == action
    assert parse_action(text.upper().replace(" ", "   ")) == action
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_buy_token_cards_are_kept_sorted_so_equal_purchases_compare_equal():
    assert actions.BuyToken((9, 3)) == actions.BuyToken((3, 9))
    assert action_from_json({"type": "buy-token", "cards": [9, 3]}).to_json() == {
        "type": "buy-token",
        "cards": [3, 9],
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("bank", "not a Cantankerous Cats action"),
        ("bank three", "the card in 'bank three' must be a number"),
        ("attack 1 50", "not a Cantankerous Cats action"),
        ("pounce", "not a Cantankerous Cats action"),
        ("take row 1", "not a Cantankerous Cats action"),
        ("play 7 at 2", "not a Cantankerous Cats action"),
    ],
)
def test_bad_text_is_refused(text, message):
    with pytest.raises(EngineError, match=message):
        parse_action(text)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ([], "must be a JSON object"),
        ({"type": "fly"}, "unknown Cantankerous Cats action type 'fly'"),
        ({"type": "bank"}, "has exactly a 'card'"),
        ({"type": "bank", "card": "7"}, "'card' must be a whole number"),
        ({"type": "bank", "card": True}, "'card' must be a whole number"),
        ({"type": "pass", "card": 1}, "takes no other keys"),
        ({"type": "attack", "card": 1}, "exactly a 'card' and a 'target'"),
        ({"type": "play", "card": 1, "target": "x"}, "'target' must be a whole number"),
        ({"type": "buy-token", "cards": []}, "exactly a 'cards' list"),
    ],
)
def test_bad_json_is_refused(obj, message):
    with pytest.raises(EngineError, match=message):
        action_from_json(obj)
