"""The check behind issue 27's rule "a test fails if a move's label holds a bare number where a
card name belongs", shared by the replay's unit, page and browser tests.

A label passes when every number in it is part of a printed card name (Cantankerous Cats
prints ``#17 Demo Affection 2``), a seat, a line of the grid, a rank, a turn or an amount
of food or VP; and when a move that takes or plays cards names at least one of them."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

# Numbers that are not cards: "Seat 2", "row 1", "col 3", "turn 4", "rank 5", "2-VP",
# "1 chicken" (the shopping bag's food).
_NOT_CARDS = re.compile(
    r"\b(?:Seats?|row|col|turn|rank)\s+\d+\b|\b\d+-VP\b|\b\d+ (?:chicken|tuna|milk)\b"
)
_NUMBER = re.compile(r"#?\d+")
# Engine texts of moves that take or play cards: a line of the grid, a slot or a card number.
_TAKES_CARDS = re.compile(r"\b(?:row|col) [123]\b|\d")


def card_names(replay: Mapping[str, Any]) -> set[str]:
    """Every card's printed name in the replay's catalogue (its ``meta.cards``), as a label
    prints it: ``#17 Demo Affection 2`` for a numbered deck, ``Scratching Post`` otherwise;
    and Cat Lady's shared goal cards (``10 Fed Cats``), which the frames list by name."""
    names = set()
    for card in replay["meta"]["cards"].values():
        number = card.get("number")
        names.add(card["name"] if number is None else f"#{number} {card['name']}")
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


def label_problems(move: Mapping[str, Any], names: Iterable[str]) -> list[str]:
    """What is wrong with one replay move's label (empty when nothing is)."""
    names = set(names)
    label = move["label"]
    problems = [f"bare number {n!r}" for n in bare_numbers(label, names)]
    if _TAKES_CARDS.search(move["text"]) and not any(
        name in label for name in names | {"an empty space"}
    ):
        problems.append("names no card")
    return [f"move {move['n']} {label!r}: {problem}" for problem in problems]
