"""What every game's state shares: its game and seed, the actions applied since the deal,
equality, and the check of a seed.

Each game's ``State`` derives from :class:`BaseState`, adds its own slots and says what its
position is (:meth:`BaseState._position`, hidden parts included). The history is a linked
list of ``(previous node, action)`` pairs: a state's successor adds one node, so branches
of a search tree share their common past instead of copying it.

>>> from engine import load_game
>>> state = load_game("cantankerous-cats", options={"players": 2}).new_initial_state(3)
>>> later = state.apply(state.legal_actions()[0])
>>> later.history == (later.last_action,) and state.last_action is None
True
>>> later == state, later == state.apply(state.legal_actions()[0])
(False, True)
>>> check_seed(-1)
Traceback (most recent call last):
engine.errors.EngineError: a seed is a non-negative integer, not -1
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Generic, Protocol, TypeVar

from engine.actions import Action
from engine.errors import EngineError

__all__ = ["BaseState", "History", "check_seed"]

# ``(previous node, action)``; ``None`` at the deal.
History = tuple[Any, Action] | None


class _GameIdentity(Protocol):
    """What tells games apart for state equality."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def data_version(self) -> str: ...

    @property
    def options(self) -> Mapping[str, Any]: ...


GameT = TypeVar("GameT", bound=_GameIdentity)


def check_seed(seed: object) -> int:
    """``seed`` if it is a non-negative integer (``bool`` is not); raises
    :class:`EngineError` otherwise."""
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise EngineError(f"a seed is a non-negative integer, not {seed!r}")
    return seed


class BaseState(Generic[GameT]):
    """A position of a game: immutable from the outside, ``apply`` returns a new state.

    Two states are equal when they are of the same game (name, rules version, card data,
    options), hold the same position and were reached by the same actions. States are
    mutable inside their game package while being built, so they are not hashable.
    """

    __slots__ = ("game", "seed", "_history")

    game: GameT
    seed: int
    _history: History

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the deal, in order."""
        actions: list[Action] = []
        node = self._history
        while node is not None:
            node, action = node
            actions.append(action)
        actions.reverse()
        return tuple(actions)

    @property
    def last_action(self) -> Action | None:
        """The action that led to this state (``None`` at the deal)."""
        return None if self._history is None else self._history[1]

    @property
    def current_player(self) -> int:
        raise NotImplementedError

    @property
    def phase(self) -> str:
        raise NotImplementedError

    @property
    def turn(self) -> int:
        raise NotImplementedError

    def _position(self) -> tuple[object, ...]:
        """Everything that decides what happens next, hidden parts included (each game's
        ``State`` says what that is)."""
        raise NotImplementedError

    def _identity(self) -> tuple[object, ...]:
        g = self.game
        return (g.name, g.version, g.data_version, dict(g.options), *self._position())

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, BaseState)
        return self._identity() == other._identity() and self.history == other.history

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<State {self.game.name} seed={self.seed} turn={self.turn} "
            f"phase={self.phase} to_move={self.current_player}>"
        )
