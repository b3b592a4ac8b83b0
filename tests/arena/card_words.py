"""The check behind issue 27's rule "a test fails if a move's label holds a bare number where a
card name belongs", shared by the replay's unit, page and browser tests, the review's tests
and the check of every line a replay's frames give people to read (events, Pounce choices,
legal moves).

A label passes when every number in it is part of a printed card name (Cantankerous Cats
prints ``#17 Demo Affection 2``), a seat, a line of the grid, a rank, a turn or an amount
(food or VP, Affection, Mischief, hearts, cards drawn or held, Pounce Tokens); and when a
move that takes or plays cards names at least one of them (every one of them, when the test
says which it touches)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# Numbers that are not cards: "Seat 2", "Seats 1, 4", "row 1", "col 3", "turn 4", "rank 5",
# "2-VP", "1 chicken" (the shopping bag's food), and Cantankerous Cats' amounts in its event
# lines: "7 Affection", "3 Mischief", "+2", "6 hearts", "59 cards", "1 card(s)",
# "2 Pounce Token(s)", "draws 4 up to 5", "pays 6", "would reach 9", "turn limit (200)".
_NOT_CARDS = re.compile(
    r"\b(?:Seats?|row|col|turn|rank)\s+\d+(?:, \d+)*\b|\b\d+-VP\b|\b\d+ (?:chicken|tuna|milk)\b"
    r"|\b\d+ (?:banked )?(?:Affection|Mischief|hearts|cards?\b|card\(s\)|Pounce Token)"
    r"|\+\d+\b|\b(?:draws|up to|pays|reach)\s+\d+\b|\bturn limit \(\d+\)"
)
_NUMBER = re.compile(r"#?\d+")
# Engine texts of moves that take or play cards: a line of the grid, a slot or a card number.
_TAKES_CARDS = re.compile(r"\b(?:row|col) [123]\b|\d")
# An engine text's seat, counted from 0 ("seat 0", "seats 1, 2"): pages count from 1.
_ENGINE_SEAT = re.compile(r"\bseats? \d|\b[Ss]eats? 0\b")


def printed_names(cards: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """Each card of a catalogue (a replay's ``meta.cards``, an observation's ``cards``) as a
    label prints it: ``#17 Demo Affection 2`` for a numbered deck, ``Scratching Post``
    otherwise."""
    return {
        card["name"] if card.get("number") is None else f"#{card['number']} {card['name']}"
        for card in cards.values()
    }


def card_names(replay: Mapping[str, Any]) -> set[str]:
    """Every card's printed name in the replay's catalogue (:func:`printed_names`), and Cat
    Lady's shared goal cards (``10 Fed Cats``), which the frames list by name."""
    names = printed_names(replay["meta"]["cards"])
    for frame in replay["frames"]:
        goals = frame["public"].get("goals") or {}
        names.update(goals.get("pool", []))
        names.update(shared["goal"] for shared in goals.get("shared", []))
    return names


def bare_numbers(label: str, names: Iterable[str]) -> list[str]:
    """The numbers in ``label`` that stand where a card name belongs (tests/arena/
    test_replay_words.py shows what passes and what does not)."""
    text = label
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    return _NUMBER.findall(_NOT_CARDS.sub(" ", text))


def label_problems(
    move: Mapping[str, Any], names: Iterable[str], touches: Iterable[str] = ()
) -> list[str]:
    """What is wrong with one move's label (empty when nothing is): ``move`` has the move's
    ``n``, its engine ``text`` and its ``label``; ``touches`` are the printed names of the
    cards the move takes or plays, when the caller knows them."""
    names = set(names)
    label = move["label"]
    problems = [f"bare number {n!r}" for n in bare_numbers(label, names)]
    if label == move["text"]:
        problems.append("the engine's short text, not people's words")
    if _TAKES_CARDS.search(move["text"]) and not any(
        name in label for name in names | {"an empty space"}
    ):
        problems.append("names no card")
    problems += [f"does not name {name!r}" for name in touches if name not in label]
    return [f"move {move['n']} {label!r}: {problem}" for problem in problems]


def line_problems(where: str, line: str, names: Iterable[str]) -> list[str]:
    """What is wrong with one line a person reads beside the board (an event, a Pounce
    choice, a legal move): a bare number where a card name belongs, or a seat counted from 0
    as the engine counts it."""
    problems = [f"bare number {n!r}" for n in bare_numbers(line, names)]
    if _ENGINE_SEAT.search(line):
        problems.append("a seat counted from 0")
    return [f"{where} {line!r}: {problem}" for problem in problems]
