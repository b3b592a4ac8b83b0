"""The moves of Cat Lady as plain values: a short text form for logs and CLIs, and JSON.

Every action is a frozen dataclass. ``str(action)`` gives the text form and
``action.to_json()`` a JSON-serialisable dict; :func:`parse_action` and
:func:`action_from_json` read them back. Lines are numbered from 1: rows top to bottom,
columns left to right.

>>> str(Take(Line.ROW_2))
'take row 2'
>>> parse_action("spray col 1")
Spray(line=Line.COL_1)
>>> action_from_json({"type": "lost-cats-stray", "stray": "Florence"})
LostCatsForStray(stray='Florence')

Stray names are checked against the card data by :meth:`engine.catlady.game.Game.parse_action`,
not here: this module knows no cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from engine.actions import Action
from engine.errors import EngineError

__all__ = [
    "Action",
    "Brush",
    "CatTake",
    "EndTurn",
    "Laser",
    "Line",
    "LostCatsForStray",
    "LostCatsForVP",
    "PlaceToken",
    "ShoppingBag",
    "Spray",
    "SwapGoal",
    "Take",
    "action_from_json",
    "parse_action",
]


class Line(IntEnum):
    """A row or column of the 3x3 grid; the value doubles as an index for fast lookups."""

    ROW_1 = 0
    ROW_2 = 1
    ROW_3 = 2
    COL_1 = 3
    COL_2 = 4
    COL_3 = 5

    @property
    def axis(self) -> str:
        """``"row"`` or ``"col"``."""
        return "row" if self.value < 3 else "col"

    @property
    def number(self) -> int:
        """1, 2 or 3: rows counted from the top, columns from the left."""
        return self.value % 3 + 1

    @property
    def slots(self) -> tuple[int, int, int]:
        """Grid slots (0-8, row-major) of this line.

        >>> Line.COL_2.slots
        (1, 4, 7)
        """
        return LINE_SLOTS[self.value]

    def __str__(self) -> str:
        return _LINE_TEXT[self]  # a line is an int: a tuple lookup, no enum property

    def __repr__(self) -> str:
        return f"Line.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Line:
        """Read ``"row 2"`` / ``"col 3"`` (also ``"column 3"``, any case and spacing).

        >>> Line.parse("Column 3")
        Line.COL_3

        Raises :class:`EngineError` for anything else.
        """
        words = text.lower().split()
        if len(words) == 2 and words[1] in ("1", "2", "3"):
            axis = {"row": 0, "col": 3, "column": 3}.get(words[0])
            if axis is not None:
                return cls(axis + int(words[1]) - 1)
        raise EngineError(f"not a line: {text!r} (expected 'row 1'..'row 3' or 'col 1'..'col 3')")


_LINE_TEXT = ("row 1", "row 2", "row 3", "col 1", "col 2", "col 3")

LINE_SLOTS: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
)


@dataclass(frozen=True, slots=True)
class _LineAction(Action):
    line: Line

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "line": str(self.line)}

    def __str__(self) -> str:
        return f"{self.type} {_LINE_TEXT[self.line]}"

    def __repr__(self) -> str:
        return f"{type(self).__name__}(line={self.line!r})"


@dataclass(frozen=True, slots=True, repr=False)
class PlaceToken(_LineAction):
    """Setup: the player counter-clockwise of the starting player places the cat token."""

    type: ClassVar[str] = "place-token"


@dataclass(frozen=True, slots=True, repr=False)
class Take(_LineAction):
    """Draft the three cards of a line (not the one the cat token blocks)."""

    type: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True, repr=False)
class Spray(_LineAction):
    """Play a spray bottle: move the cat token to another line."""

    type: ClassVar[str] = "spray"


@dataclass(frozen=True, slots=True)
class LostCatsForStray(Action):
    """Discard two lost cats to find one of the face-up stray cats."""

    type: ClassVar[str] = "lost-cats-stray"
    stray: str

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "stray": self.stray}

    def __str__(self) -> str:
        return f"lost-cats stray {self.stray}"


@dataclass(frozen=True, slots=True)
class LostCatsForVP(Action):
    """Discard two lost cats to take a 2-VP token."""

    type: ClassVar[str] = "lost-cats-vp"

    def __str__(self) -> str:
        return "lost-cats vp"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End your turn (only after drafting)."""

    type: ClassVar[str] = "end-turn"


@dataclass(frozen=True, slots=True, repr=False)
class CatTake(_LineAction):
    """Solitaire: the cat player takes this line (the turn card names it; when lines tie the
    human chooses). Ends the cat player's turn."""

    type: ClassVar[str] = "cat-take"


# --- Box of Treats ---------------------------------------------------------------------------


def _slot(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
        raise EngineError(f"a grid slot is 1-9 (row by row), not {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Brush(Action):
    """Play a cat brush: swap one of your cats (``cat``) with the cat in grid ``slot`` (1-9,
    row by row). The cat token does not block it."""

    type: ClassVar[str] = "brush"
    slot: int
    cat: str

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "slot": self.slot, "cat": self.cat}

    def __str__(self) -> str:
        return f"brush slot {self.slot} {self.cat}"


@dataclass(frozen=True, slots=True)
class Laser(Action):
    """Play a laser pointer instead of drafting: take the cards in slots ``take`` (two, 1-9),
    discard the card in slot ``discard``; the cat token does not move."""

    type: ClassVar[str] = "laser"
    take: tuple[int, int]
    discard: int

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "take": list(self.take), "discard": self.discard}

    def __str__(self) -> str:
        return f"laser {self.take[0]} {self.take[1]} discard {self.discard}"


@dataclass(frozen=True, slots=True)
class ShoppingBag(Action):
    """Play a shopping bag: gain 1 chicken, 1 tuna and 1 milk; every opponent takes a VP token."""

    type: ClassVar[str] = "shopping-bag"


@dataclass(frozen=True, slots=True)
class SwapGoal(Action):
    """Shared goals: swap your goal with your ``partner`` (``"next"``: the player after you,
    ``"prev"``: the player before you) for the pool goal ``goal``. Once a turn."""

    type: ClassVar[str] = "swap-goal"
    partner: str
    goal: str

    def to_json(self) -> dict[str, object]:
        return {"type": self.type, "partner": self.partner, "goal": self.goal}

    def __str__(self) -> str:
        return f"swap-goal {self.partner} {self.goal}"


_LINE_ACTIONS: dict[str, type[_LineAction]] = {
    cls.type: cls for cls in (PlaceToken, Take, Spray, CatTake)
}


def parse_action(text: str) -> Action:
    """Read the short text form (any case, any spacing).

    >>> parse_action("  TAKE  Row 2 ")
    Take(line=Line.ROW_2)
    >>> parse_action("lost-cats vp")
    LostCatsForVP()

    The stray name is kept as written; :meth:`Game.parse_action` canonicalises it.
    Raises :class:`EngineError` for text that is not an action.
    """
    if not isinstance(text, str):
        raise EngineError(f"an action's text form must be a string, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise EngineError("empty action")
    head = words[0].lower()
    rest = " ".join(words[1:])
    if head in _LINE_ACTIONS:
        return _LINE_ACTIONS[head](Line.parse(rest))
    if head == "end-turn" and not rest:
        return EndTurn()
    if head == "shopping-bag" and not rest:
        return ShoppingBag()
    if head == "brush" and len(words) >= 4 and words[1].lower() == "slot" and words[2].isdigit():
        return Brush(_slot(int(words[2])), " ".join(words[3:]))
    if (
        head == "laser"
        and len(words) == 5
        and words[3].lower() == "discard"
        and all(w.isdigit() for w in (words[1], words[2], words[4]))
    ):
        return Laser((_slot(int(words[1])), _slot(int(words[2]))), _slot(int(words[4])))
    if head == "swap-goal" and len(words) >= 3 and words[1].lower() in ("next", "prev"):
        return SwapGoal(words[1].lower(), " ".join(words[2:]))
    if head == "lost-cats" and len(words) >= 2:
        target = words[1].lower()
        if target == "vp" and len(words) == 2:
            return LostCatsForVP()
        if target == "stray" and len(words) >= 3:
            return LostCatsForStray(" ".join(words[2:]))
    raise EngineError(
        f"not an action: {text!r} (expected e.g. 'place-token row 1', 'take row 2', "
        "'spray col 1', 'lost-cats stray Florence', 'lost-cats vp', 'end-turn', "
        "'brush slot 5 Bronte', 'laser 1 5 discard 9', 'shopping-bag', 'swap-goal next 8 Toys', "
        "'cat-take row 3')"
    )


def action_from_json(obj: object) -> Action:
    """Read the JSON form written by :meth:`Action.to_json`.

    >>> action_from_json({"type": "take", "line": "col 3"})
    Take(line=Line.COL_3)

    Raises :class:`EngineError` for malformed input (unknown type, missing or extra keys).
    """
    if not isinstance(obj, dict):
        raise EngineError(f"an action must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    keys = set(obj)
    if kind in _LINE_ACTIONS:
        line = obj.get("line")
        if keys != {"type", "line"} or not isinstance(line, str):
            raise EngineError(f"a {kind!r} action needs exactly a 'line' string: {obj!r}")
        return _LINE_ACTIONS[kind](Line.parse(line))
    if kind == LostCatsForStray.type:
        stray = obj.get("stray")
        if keys != {"type", "stray"} or not isinstance(stray, str) or not stray.strip():
            raise EngineError(f"a 'lost-cats-stray' action needs exactly a 'stray' name: {obj!r}")
        return LostCatsForStray(stray)
    if kind in (LostCatsForVP.type, EndTurn.type, ShoppingBag.type):
        if keys != {"type"}:
            raise EngineError(f"a {kind!r} action takes no other keys: {obj!r}")
        return {
            LostCatsForVP.type: LostCatsForVP,
            EndTurn.type: EndTurn,
            ShoppingBag.type: ShoppingBag,
        }[kind]()
    if kind == Brush.type:
        cat = obj.get("cat")
        if keys != {"type", "slot", "cat"} or not isinstance(cat, str) or not cat.strip():
            raise EngineError(f"a 'brush' action needs exactly a 'slot' and a 'cat': {obj!r}")
        return Brush(_slot(obj.get("slot")), cat)
    if kind == Laser.type:
        take = obj.get("take")
        if keys != {"type", "take", "discard"} or not isinstance(take, list) or len(take) != 2:
            raise EngineError(f"a 'laser' action needs 'take' (two slots) and 'discard': {obj!r}")
        return Laser((_slot(take[0]), _slot(take[1])), _slot(obj.get("discard")))
    if kind == SwapGoal.type:
        partner, goal = obj.get("partner"), obj.get("goal")
        if (
            keys != {"type", "partner", "goal"}
            or partner not in ("next", "prev")
            or not isinstance(goal, str)
            or not goal.strip()
        ):
            raise EngineError(
                f"a 'swap-goal' action needs 'partner' (next or prev) and 'goal': {obj!r}"
            )
        return SwapGoal(str(partner), goal)
    raise EngineError(f"unknown action type {kind!r} in {obj!r}")
