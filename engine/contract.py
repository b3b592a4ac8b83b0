"""The contract between the engine and its callers: what every game provides, as typed
Protocols, and the one spec by which a game package registers itself.

A game is a package under ``engine/`` (``engine/catlady/``, ``engine/cantankerous/``) with
the same modules for the same jobs (``cards``, ``actions``, ``options``, ``rules``,
``observation``, ``game``, ``log``, ``frames``, ``strategies``, ``cli``) and one
:class:`GameSpec` in its ``spec`` module. :mod:`engine.registry` lists the specs; nothing
else asks which game it holds.

>>> from engine.registry import game_spec
>>> spec = game_spec("cantankerous-cats")
>>> spec.label, sorted(spec.strategies), spec.versions["1"]({"players": 2}).num_players
('Cantankerous Cats', ['greedy', 'random'], 2)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from engine.actions import Action
from engine.words import MoveWords

__all__ = [
    "CandidateValue",
    "Evaluator",
    "FrameBuilder",
    "Game",
    "GameResult",
    "GameSpec",
    "GameState",
    "PlayerOutcome",
    "Strategy",
]


class PlayerOutcome(Protocol):
    """One seat's line in a result (in seat order)."""

    @property
    def total(self) -> int: ...

    @property
    def rank(self) -> int: ...


class GameResult(Protocol):
    """The outcome of a finished game (or the score of a position)."""

    @property
    def players(self) -> Sequence[PlayerOutcome]: ...

    @property
    def winners(self) -> Sequence[int]: ...

    def to_json(self) -> dict[str, Any]:
        """The result as stored in a match log."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One position. Immutable: :meth:`apply` returns the next state."""

    @property
    def current_player(self) -> int: ...

    @property
    def turn(self) -> int: ...

    @property
    def phase(self) -> str: ...

    @property
    def history(self) -> tuple[Action, ...]: ...

    def legal_actions(self) -> list[Action]: ...

    def is_legal(self, action: Action) -> bool: ...

    def apply(self, action: Action) -> GameState:
        """The state after ``action``; raises :class:`~engine.errors.IllegalActionError`."""
        ...

    def is_terminal(self) -> bool: ...

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON: the only view a bot gets. Treat the lists and
        dicts inside as read-only: a game may share them between observations (Cat Lady
        does, and refuses changes); copy one to change it."""
        ...

    def full_view(self) -> dict[str, Any]:
        """Everything, hidden cards included, as JSON (replays of finished matches)."""
        ...

    def result(self) -> GameResult:
        """The final result; only for a terminal state."""
        ...

    def score(self) -> GameResult:
        """The score as if the game ended now."""
        ...


@runtime_checkable
class Game(Protocol):
    """A configured game: rules version, options and card data. Immutable."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    @property
    def num_players(self) -> int: ...

    @property
    def options(self) -> Mapping[str, Any]: ...

    @property
    def label(self) -> str:
        """A person's name for this game and its card data (a placeholder says so)."""
        ...

    @property
    def data_name(self) -> str:
        """The name of the card data in use (an edition, a deck)."""
        ...

    @property
    def data_version(self) -> str:
        """The version of the card data, stored in every match log."""
        ...

    @property
    def supported_players(self) -> tuple[int, ...]:
        """The player counts these rules and this card data allow."""
        ...

    def new_initial_state(self, seed: int) -> GameState: ...

    def action_from_json(self, obj: object) -> Action:
        """Raises :class:`~engine.errors.EngineError` for something that is not an action."""
        ...

    def parse_action(self, text: str) -> Action:
        """The action of a text form (``str(action)``)."""
        ...


class Strategy(Protocol):
    """A bot: sees only a seat's observation, the legal actions and its own generator."""

    name: str

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        """One of ``legal_actions`` for the seat whose ``observation`` this is."""
        ...


@dataclass(frozen=True)
class CandidateValue:
    """One candidate move as a searching bot judged it: how often it was tried (``visits``)
    and the share of those playouts the seat won (``win_chance``, a full tie shared)."""

    action: Action
    visits: int
    win_chance: float


@runtime_checkable
class Evaluator(Protocol):
    """A strategy that can say how it rates every candidate, not only which it picks (the
    house MCTS: what a review after the game shows beside each of a person's moves)."""

    def evaluate(
        self,
        observation: dict[str, Any],
        legal_actions: list[Action],
        rng: random.Random,
        played: Action | None = None,
    ) -> tuple[list[CandidateValue], bool]:
        """Each legal action's value, in ``legal_actions`` order, and whether the time limit
        cut the search short (then the figures depend on the machine's speed); ``played``, a
        move being judged, is searched enough to judge it."""
        ...


FrameBuilder = Callable[[Any, Sequence[Any]], dict[str, Any]]
"""(game, states) -> ``{"meta", "frames", "move_texts"?}``: what a replay viewer draws."""


@dataclass(frozen=True)
class GameSpec:
    """Everything the engine and its callers need to know about one game.

    ``versions`` maps a rules version to the factory that builds a game from options
    (keep old versions when adding one: stored match logs name theirs). ``options``
    describes each option for people. ``renderer`` names the board drawing code the web
    pages use (static/js/board.js). ``sample_state`` turns one seat's observation into a
    full state consistent with everything that seat knows, the hidden rest drawn at random
    (the forward model of :mod:`engine.forward`). ``describe_move`` says a legal move in
    people's words (card names, the rule it follows, the board things it takes: see
    :mod:`engine.words`) for the live table; ``describe_seen(state, action, seat)`` says a
    move played in ``state`` as ``seat`` observes it (another seat's hidden choice only as
    made: nothing from which its card can be derived).
    """

    name: str
    label: str
    versions: Mapping[str, Callable[[Mapping[str, Any]], Game]]
    options: Mapping[str, str]
    strategies: Mapping[str, Callable[..., Strategy]]
    turn_summaries: Callable[[list[Any]], list[dict[str, Any]]]
    replay_frames: FrameBuilder
    describe_match: Callable[[Any, int, Sequence[str], Any], str]
    renderer: str
    sample_state: Callable[[Any, Mapping[str, Any], random.Random], GameState]
    describe_move: Callable[[Any, Any], MoveWords]
    describe_seen: Callable[[Any, Any, int], MoveWords]
