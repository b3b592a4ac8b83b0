"""Deck files: the shipped official and demo files, a club's own file, and every check the
loader makes (each with a message that says what to fix)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from engine.cantankerous.cards import DATA_DIR, bundled_decks, load_deck, parse_deck
from engine.errors import CardDataError, EngineError
from engine.registry import load_game
from tests.engine.cantankerous.helpers import deck_data

DEMO_LABEL = "demo — not the published cards"


def test_bundled_decks_are_the_official_reference_and_the_demo():
    assert bundled_decks() == ["demo", "official"]


def test_the_demo_deck_is_labelled_demo_in_its_name_and_its_file():
    deck = load_deck("demo")
    assert deck.name == DEMO_LABEL and deck.demo
    assert (DATA_DIR / "cantankerous-demo.json").is_file()
    assert "NOT the published deck" in deck.about
    assert deck.playable_problems() == []
    assert all(not card.verified and card.source == "DEMO" for card in deck.cards)
    assert all(card.name.startswith("Demo ") for card in deck.cards)


def test_the_official_file_holds_only_citable_facts_all_unverified():
    deck = load_deck("official")
    assert not deck.complete and not deck.demo
    assert all(card.verified is False for card in deck.cards)
    removed = sorted(card.number for card in deck.cards if card.basic_removed)
    assert removed == [4, 5, 36, 76, 83, 84]  # the manual's Basic-game removal list
    names = {card.name for card in deck.cards}
    assert {
        "Escape",
        "Adoption Day",
        "Enemy of My Enemy",
        "Scavenger",
        "Animal Control",
        "Blame the Dog",
        "Air Strike",
        "Fountain",
    } == names
    for card in deck.cards:  # nothing about a card's values is claimed
        assert {
            "rank",
            "hearts",
            "paws",
            "cost",
            "instant",
            "text",
            "effect",
            "type",
        } <= card.unknown
        assert card.rank is None and card.effect is None and card.type is None
    raw = json.loads((DATA_DIR / "cantankerous-official.json").read_text())
    assert all(card["rank"] == "unknown" for card in raw["cards"])


def test_the_official_deck_is_refused_for_play_with_what_is_missing():
    with pytest.raises(
        EngineError,
        match=r'cannot be played yet: the file says "complete": '
        r"false; #4 Escape: unknown .*use the demo deck",
    ):
        load_game("cantankerous-cats", options={"deck": "official"})


def test_the_default_deck_is_the_demo(make_game):
    game = load_game("cantankerous-cats")
    assert game.options["deck"] == "demo" and game.deck.name == DEMO_LABEL
    assert game.new_initial_state(1).observation(0)["deck"] == {
        "key": "demo",
        "name": DEMO_LABEL,
        "demo": True,
        "data_version": game.data_version,
    }


def test_a_club_loads_its_own_completed_deck_file(deck_path):
    game = load_game("cantankerous-cats", options={"players": 3, "deck": deck_path})
    assert game.deck.name == "test deck" and game.options["deck"] == deck_path
    assert game.deck.card(34).paws == 9


def test_a_missing_deck_file_is_a_clear_error(tmp_path):
    with pytest.raises(CardDataError, match="cannot read deck file .*nope.json"):
        load_deck(str(tmp_path / "nope.json"))
    with pytest.raises(CardDataError, match="no bundled Cantankerous Cats deck 'nope'"):
        load_deck("nope")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CardDataError, match="is not JSON"):
        load_deck(str(bad))


def test_a_deck_too_small_for_the_table_is_refused(tmp_path):
    data = deck_data()
    data["cards"] = data["cards"][:30]
    path = tmp_path / "small.json"
    path.write_text(json.dumps(data))
    with pytest.raises(EngineError, match="6 players with 6-card hands need at least 39"):
        load_game("cantankerous-cats", options={"players": 6, "deck": str(path)})


def broken(change):
    data = copy.deepcopy(deck_data())
    change(data)
    return data


def card(data, number):
    return next(c for c in data["cards"] if c["number"] == number)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="v0"), "'format' must be 'catleague.cantankerous-deck/1'"),
        (lambda d: d.pop("sources"), "missing sources"),
        (lambda d: d.update(colour="red"), "unknown key"),
        (lambda d: d.update(demo=True), "a demo deck's name must say 'demo'"),
        (lambda d: d.update(cards=[]), "'cards' must be a non-empty list"),
        (
            lambda d: card(d, 1).pop("rank"),
            r"card 1 \(Affection 1\): missing rank \(write \"unknown\"",
        ),
        (lambda d: card(d, 1).update(type="cat"), "'type' must be one of affection, mischief"),
        (lambda d: card(d, 1).update(paws=2), "an Affection card has no 'paws'"),
        (lambda d: card(d, 21).update(cost=None), "a Mischief card needs 'cost'"),
        (lambda d: card(d, 36).update(hearts=1), "an Event card has no 'hearts'"),
        (lambda d: card(d, 2).update(number=1), "card number.* used more than once: #1"),
        (lambda d: card(d, 3).update(rank=-1), "'rank' must be a whole number >= 0"),
        (lambda d: card(d, 3).update(source="X"), "source 'X' is not listed"),
        (lambda d: card(d, 3).update(verified="no"), "'verified' must be true or false"),
        (
            lambda d: card(d, 3).update(rank="unknown"),
            "the file says complete but these cards have unknown facts: #3",
        ),
        (
            lambda d: card(d, 21).update(effect={"target": None, "steps": []}),
            "only Event, Frenzy and Dog cards have an effect",
        ),
        (
            lambda d: card(d, 36).update(effect={"target": None, "steps": [{"do": "explode"}]}),
            "card #36: effect step 1: unknown primitive 'explode'; the engine knows: adopt, cancel",
        ),
        (
            lambda d: card(d, 36).update(
                effect={"target": None, "steps": [{"do": "draw", "who": "target", "n": 1}]}
            ),
            "acts on 'target' but the effect has no",
        ),
        (
            lambda d: card(d, 36).update(
                effect={"target": None, "steps": [{"do": "draw", "n": 1}]}
            ),
            "'draw' takes who, n \\(missing who\\)",
        ),
        (
            lambda d: card(d, 36).update(effect={"target": "friend", "steps": []}),
            "effect target 'friend' is not one of opponent",
        ),
        (
            lambda d: card(d, 36).update(
                effect={"target": None, "steps": [{"do": "draw", "who": "self", "n": 0}]}
            ),
            "n=0 is out of range",
        ),
        (
            lambda d: card(d, 36).update(
                effect={
                    "target": None,
                    "steps": [{"do": "discard_banked", "who": "self", "n": 1, "pick": "middle"}],
                }
            ),
            "pick must be 'largest' or 'smallest'",
        ),
    ],
)
def test_deck_checks_name_the_card_and_what_to_fix(change, message):
    with pytest.raises(CardDataError, match=message):
        parse_deck(broken(change), origin="club.json")


def test_an_incomplete_club_file_loads_but_does_not_play(tmp_path):
    data = broken(lambda d: (card(d, 3).update(rank="unknown"), d.update(complete=False)))
    deck = parse_deck(data)
    assert deck.playable_problems() == [
        'the file says "complete": false',
        "#3 Affection 1: unknown rank",
    ]


def test_an_incident_without_an_effect_is_not_playable():
    deck = parse_deck(broken(lambda d: card(d, 36).update(effect=None)))
    assert deck.playable_problems() == [
        "#36 Draw two: an Event card needs an effect the engine can run (see "
        "docs/cantankerous.md, effect vocabulary)"
    ]


def test_data_version_changes_with_the_content():
    one = parse_deck(deck_data())
    two = parse_deck(broken(lambda d: card(d, 3).update(rank=77)))
    assert one.version == two.version and one.data_version != two.data_version


def test_shipped_files_are_valid_json_with_one_card_per_line():
    for name in ("demo", "official"):
        text = Path(DATA_DIR / f"cantankerous-{name}.json").read_text()
        parsed = json.loads(text)
        lines = [line for line in text.splitlines() if line.strip().startswith('{"number"')]
        assert len(lines) == len(parsed["cards"])
