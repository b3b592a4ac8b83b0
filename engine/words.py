"""What the games' move words share: one move said for people (``label``), the rule it
follows (``rule``) and the things on the board it takes (``picks``, e.g. ``"line:row 2"``,
``"stray:Florence"``, ``"card:12"``, ``"slot:5"``, ``"hand"``), so a page can make the move
by tapping them. Each game's ``words`` module builds them; its spec registers the builder."""

from __future__ import annotations

from typing import TypedDict

__all__ = ["MoveWords"]


class MoveWords(TypedDict):
    """One legal move in people's words, with its rule and the board things it takes."""

    label: str
    rule: str
    picks: list[str]
