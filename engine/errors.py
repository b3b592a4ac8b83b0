"""The engine's exceptions: one base class, one subclass per kind of failure.

Every engine error is a ``ValueError`` so that callers parsing user input can catch the
whole family at once, python-chess style.
"""

from __future__ import annotations

__all__ = [
    "CardDataError",
    "EngineError",
    "IllegalActionError",
    "ReplayError",
    "ScoreInputError",
]


class EngineError(ValueError):
    """Base class of every error the engine raises on purpose."""


class IllegalActionError(EngineError):
    """An action that is not legal in the state it was applied to."""


class CardDataError(EngineError):
    """Card data that is malformed, inconsistent, or names a card that does not exist."""


class ScoreInputError(EngineError):
    """An end-of-game state given to the scorer that cannot happen (or is malformed)."""


class ReplayError(EngineError):
    """A match log that does not replay: tampered, truncated, or from another engine version."""
