"""The base of every game's actions: a frozen value with a JSON tag and a short text form.

Each game's own moves subclass :class:`Action` in its package (``engine.catlady.actions``,
``engine.cantankerous.actions``) and set ``type``, the JSON tag and the first word of the
text form.

>>> from engine.catlady.actions import EndTurn
>>> isinstance(EndTurn(), Action), str(EndTurn()), EndTurn().to_json()
(True, 'end-turn', {'type': 'end-turn'})
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

__all__ = ["Action"]


@dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses set ``type`` (the JSON tag and first text word)."""

    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, object]:
        """A JSON-serialisable dict that the game's ``action_from_json`` reads back."""
        return {"type": self.type}

    def __str__(self) -> str:
        return self.type
