"""Cantankerous Cats' decisions in people's words: over many random positions, every legal
move names each card it uses by its printed number and name, and seats count from 1."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.cantankerous.actions import Attack, BuyToken, PickyEater, PounceAttack
from engine.cantankerous.game import State
from engine.cantankerous.words import describe_event, describe_move, describe_seen
from tests.engine.cantankerous.helpers import act


def positions(players: int, games: int = 8) -> list[State]:
    game = engine.load_game("cantankerous-cats", options={"players": players})
    found = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal() and len(found) < 4000 * (seed + 1):
            found.append(state)
            state = state.apply(rng.choice(state.legal_actions()))
    return found


def used_cards(action: object) -> list[int]:
    if isinstance(action, BuyToken):
        return list(action.cards)
    card = getattr(action, "card", None)
    return [card] if isinstance(card, int) else []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_move_names_its_cards_and_holds_no_bare_number(players):
    kinds = set()
    for state in positions(players):
        for action in state.legal_actions():
            words = describe_move(state, action)
            label = words["label"]
            assert words["rule"], action
            stripped = label
            for number in used_cards(action):
                card = state.game.deck.card(number)
                assert card.label in label, f"{label!r} does not name card #{number}"
                assert f"card:{number}" in words["picks"]
                stripped = stripped.replace(card.label, "")
            target = getattr(action, "target", None)
            if target is not None:
                assert f"Seat {target + 1}" in label
                stripped = stripped.replace(f"Seat {target + 1}", "")
            assert not re.search(r"\d", stripped), f"bare number in {label!r} ({action})"
            kinds.add(action.type)
    # The positions reach the moves the issue names, and the attacks' targets.
    assert {"bet", "bank", "buy-token", "picky-eater", "pass"} <= kinds
    assert kinds & {Attack.type, PounceAttack.type}


def test_picky_eater_says_what_it_does():
    for state in positions(3, games=2):
        if PickyEater() in state.legal_actions():
            words = describe_move(state, PickyEater())
            assert "Litter Box" in words["rule"] and "draw" in words["rule"]
            assert words["picks"] == ["hand"]
            return
    pytest.fail("no position offered Picky Eater")


@pytest.mark.parametrize("players", [2, 4])
def test_another_seat_sees_a_hidden_choice_only_as_made(players):
    """In a bet, a Feral's keep or a Pounce window every choice looks the same to the other
    seats (nothing tells one card or a Pass from a Pounce), and in full to its player; every
    other move looks the same to everyone."""
    phases = set()
    for state in positions(players, games=3):
        actor = state.current_player
        for action in state.legal_actions():
            full = describe_move(state, action)
            assert describe_seen(state, action, actor) == full
            for seat in set(range(players)) - {actor}:
                seen = describe_seen(state, action, seat)
                if state.phase in ("bet", "keep", "pounce"):
                    phases.add(state.phase)
                    assert seen == describe_seen(state, state.legal_actions()[0], seat)
                    assert seen["picks"] == [] and not re.search(r"#\d", str(seen))
                else:
                    assert seen == full
    assert phases == {"bet", "keep", "pounce"}


def test_pounce_events_name_each_card_and_count_seats_from_1(position):
    """The engine's event texts stay as logged ("seat 1 pounce attack 0 with 32"); people
    read the Pounces revealed, and a Pounce withdrawn, in the table's words."""
    start = position(3, hands=[[6], [32], [33]], houses=[[1], [], []])
    decided = act(start, "bank 6", "pounce attack 0 with 32")
    revealed = act(decided, "pounce attack 0 with 33")
    game = revealed.game
    said = {event["type"]: describe_event(game, event) for event in revealed.events}
    first, second = (game.deck.card(n).label for n in (32, 33))
    assert said["pounces-revealed"] == (
        f"Pounces revealed: Seat 2: Pounce: attack Seat 1 with {first}; "
        f"Seat 3: Pounce: attack Seat 1 with {second}"
    )
    assert said["pounce-withdrawn"] == (
        f"Seat 3's Pounce (Pounce: attack Seat 1 with {second}) is no longer possible: "
        "withdrawn, card and token kept"
    )
    assert "Pounces revealed: seat 1 pounce attack 0 with 32, seat 2 pounce attack 0 with 33" in [
        event["text"] for event in revealed.events
    ]


@pytest.mark.parametrize("players", [2, 4])
def test_every_event_counts_seats_from_1_and_quotes_no_engine_move(players):
    seen = set()
    for state in positions(players, games=2):
        for event in state.events:
            said = describe_event(state.game, event)
            seen.add(event["type"])
            assert not re.search(r"\bseats? \d|\bSeats? 0\b", said), said
            assert not re.search(r"\b(?:pounce|counter) (?:attack|play|bank)\b", said), said
    assert {"pounces-revealed", "banked", "nap"} <= seen
