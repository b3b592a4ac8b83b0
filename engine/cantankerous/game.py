"""Cantankerous Cats as a game object (immutable configuration) and its states.

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 3})
>>> game.deck.name
'demo — not the published cards'
>>> state = game.new_initial_state(seed=5)
>>> state.phase, state.current_player      # the First Bite: everyone bets a card
('bet', 0)
>>> state = state.apply(state.legal_actions()[0])
>>> state.current_player
1

``State.apply`` returns a new state and never changes the one it is called on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.actions import Action
from engine.cantankerous import actions as actions_module
from engine.cantankerous import rules
from engine.cantankerous.cards import Card, Deck, load_deck
from engine.cantankerous.observation import full_view, observe
from engine.cantankerous.options import PLAYERS, resolve_options
from engine.cantankerous.result import Result, build_result
from engine.cantankerous.rules import HAND_LIMIT, Frame, PlayRecord
from engine.errors import EngineError
from engine.readonly import ReadOnlyOptions
from engine.state import BaseState, check_seed

__all__ = ["HAND_LIMIT", "Game", "State", "build_game"]


def build_game(version: str, options: Mapping[str, Any]) -> Game:
    """The registry's factory: options checked, deck loaded and checked for play."""
    resolved = resolve_options(options)
    deck = load_deck(resolved["deck"])
    deck.require_playable()
    return Game(version=version, options=resolved, deck=deck)


class Game:
    """One configured game of Cantankerous Cats. Immutable; build it with
    :func:`engine.load_game` (``"cantankerous-cats"``)."""

    name = "cantankerous-cats"
    supported_players = PLAYERS

    def __init__(self, *, version: str, options: Mapping[str, Any], deck: Deck) -> None:
        self.version = version
        self.options = ReadOnlyOptions(options)
        self.deck = deck
        self.num_players: int = options["players"]
        self.variant: str = options["variant"]
        self.standard = self.variant == "standard"
        self.start_hand: int = options["start_hand"]
        self.meal_draw: int = options["meal_draw"]
        bank = options["token_bank"]
        self.token_bank: int = self.num_players if bank == "players" else int(bank)
        self.dog_as_incident = options["dog_cards"] == "incident"
        self.turn_limit: int = options["turn_limit"]
        self.in_play = deck.in_play(self.variant)
        cards = deck.cards
        self.cards: tuple[Card, ...] = cards
        self.numbers = tuple(card.number if card.number is not None else -1 for card in cards)
        self.index_of = {number: i for i, number in enumerate(self.numbers)}
        self.types = tuple(card.type for card in cards)
        self.hearts = tuple(card.hearts or 0 for card in cards)
        self.paws = tuple(card.paws or 0 for card in cards)
        self.costs = tuple(card.cost or 0 for card in cards)
        self.icons = tuple(card.instant for card in cards)
        # Actions naming one card, built once: legal_actions() is the hot loop of playouts.
        self.bet_actions = tuple(actions_module.Bet(n) for n in self.numbers)
        self.keep_actions = tuple(actions_module.Keep(n) for n in self.numbers)
        self.bank_actions = tuple(actions_module.Bank(n) for n in self.numbers)
        self.score_actions = tuple(actions_module.Score(n) for n in self.numbers)
        self.discard_actions = tuple(actions_module.Discard(n) for n in self.numbers)
        self.counter_bank_actions = tuple(actions_module.CounterBank(n) for n in self.numbers)
        needed = self.num_players * self.start_hand + self.meal_draw
        if len(self.in_play) < needed:
            raise EngineError(
                f"{deck.label} has {len(self.in_play)} cards in the {self.variant} game; "
                f"{self.num_players} players with {self.start_hand}-card hands need at least "
                f"{needed}"
            )

    @property
    def data_name(self) -> str:
        """The deck's name (a demo deck says so in its name)."""
        return self.deck.name

    @property
    def data_version(self) -> str:
        """The deck file's version and digest, stored in match logs."""
        return self.deck.data_version

    @property
    def label(self) -> str:
        """The game's display name, saying when its deck is a demo (never the real cards).

        >>> from engine import load_game
        >>> load_game("cantankerous-cats").label
        'Cantankerous Cats (deck: demo — not the published cards)'
        """
        return (
            f"Cantankerous Cats (deck: {self.deck.name})" if self.deck.demo else "Cantankerous Cats"
        )

    def __repr__(self) -> str:
        return (
            f"<Game {self.name} v{self.version}, {self.num_players} players, "
            f"{self.variant}, deck {self.deck.key} {self.data_version}>"
        )

    def new_initial_state(self, seed: int) -> State:
        """A freshly shuffled and dealt game. The seed fixes every random event of the game
        (shuffles, coin flips, random discards); no global RNG is used.

        Raises :class:`EngineError` for a seed that is not a non-negative integer.
        """
        blank = State.__new__(State)
        blank.game = self
        blank.seed = check_seed(seed)
        return rules.setup(blank)

    def parse_action(self, text: str) -> Action:
        """Read an action's short text form, e.g. ``"score 50"`` or ``"pounce play 77"``.

        Raises :class:`EngineError` for text that is not an action of this game.
        """
        return actions_module.parse_action(text)

    def action_from_json(self, obj: object) -> Action:
        """Read an action's JSON form; raises :class:`EngineError` for malformed input."""
        return actions_module.action_from_json(obj)


class State(BaseState[Game]):
    """A position of Cantankerous Cats. Immutable from the outside: :meth:`apply` returns a
    new state. Cards are indices into ``game.cards``; hands and the Food Bowl's order are
    private, :meth:`observation` is what a seat may see."""

    __slots__ = (
        "_rng",
        "_bowl",
        "_litter",
        "_hands",
        "_houses",
        "_points",
        "_feral",
        "_tokens",
        "_bank",
        "_toy",
        "_turn",
        "_dir",
        "_high",
        "_stack",
        "_plays",
        "_next_play",
        "_no_refill",
        "_depth",
        "_decision",
        "_winner",
        "_win_type",
        "_over",
        "_events",
        "_result",
        "_legal",
    )

    _rng: int
    _bowl: list[int]  # top of the Food Bowl is the end of the list
    _litter: list[int]
    _hands: list[list[int]]
    _houses: list[list[int]]  # banked Affection (House or Territory)
    _points: list[int]
    _feral: list[bool]
    _tokens: list[int]
    _bank: int
    _toy: int  # Cat Toy holder; -1 during the First Bite
    _turn: int
    _dir: int  # +1 clockwise (seat order), -1 counter-clockwise
    _high: bool  # the Turn Indicator: high rank wins the First Bite
    _stack: list[Frame]
    _plays: dict[int, PlayRecord]
    _next_play: int
    _no_refill: list[bool]
    _depth: int  # Pounce windows being resolved
    _decision: tuple[str, int] | None
    _winner: int
    _win_type: str | None
    _over: bool
    _events: tuple[dict[str, Any], ...]
    _result: Result | None
    _legal: list[Action] | None  # computed once per state: bots and apply both ask

    # -- the game-library API ----------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to decide now (also during Pounce windows and First Bite bets), or -1
        when the game is over."""
        return -1 if self._decision is None else self._decision[1]

    @property
    def phase(self) -> str:
        """The kind of decision pending: ``bet``, ``keep``, ``action``, ``discard``,
        ``pounce``, ``counter``, ``counter-bank``, ``instant``, or ``over``."""
        return "over" if self._decision is None else self._decision[0]

    @property
    def turn(self) -> int:
        """The turn in progress (1-based; 0 during the First Bite)."""
        return self._turn

    @property
    def toy_holder(self) -> int:
        """The seat holding the Cat Toy (-1 before the First Bite is decided)."""
        return self._toy

    @property
    def points(self) -> tuple[int, ...]:
        """Mischief points by seat."""
        return tuple(self._points)

    @property
    def feral(self) -> tuple[bool, ...]:
        return tuple(self._feral)

    @property
    def tokens(self) -> tuple[int, ...]:
        return tuple(self._tokens)

    @property
    def token_bank(self) -> int:
        return self._bank

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        """The public events the last action caused (reveals, draws, Pounces, scores)."""
        return self._events

    def hand(self, seat: int) -> tuple[int, ...]:
        """Card numbers in ``seat``'s hand, sorted (private to that seat; for tests and
        viewers)."""
        return tuple(sorted(self.game.numbers[c] for c in self._hands[seat]))

    def house(self, seat: int) -> tuple[int, ...]:
        """Card numbers banked in ``seat``'s House or Territory (public)."""
        return tuple(self.game.numbers[c] for c in self._houses[seat])

    def affection(self, seat: int) -> int:
        """Affection points (hearts) banked by ``seat``."""
        return sum(self.game.hearts[c] for c in self._houses[seat])

    def legal_actions(self) -> list[Action]:
        """The actions the seat to decide may take (empty when the game is over). The
        first is always a safe default (``pass``, ``done``, ``picky-eater`` or a card)."""
        if self._legal is None:
            self._legal = rules.legal_actions(self)
        return list(self._legal)

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def apply(self, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalActionError` with the reason if
        it is not legal here; this state is unchanged either way."""
        return rules.apply(self, action)

    def is_terminal(self) -> bool:
        return self._over

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON: see :func:`engine.cantankerous.observation.observe`."""
        return observe(self, seat)

    def full_view(self) -> dict[str, Any]:
        """Everything but the random generator (every hand, pending bets and Pounces, the
        Food Bowl's order), for replay viewers of finished matches."""
        return full_view(self)

    def result(self) -> Result:
        """The outcome. Raises :class:`EngineError` before the game is over."""
        if not self._over:
            raise EngineError("the game is not over yet")
        if self._result is None:
            self._result = build_result(self)
        return self._result

    def score(self) -> Result:
        """The standing as it is now (Mischief points, no winner unless the game is over)."""
        return build_result(self)

    def _position(self) -> tuple[object, ...]:
        return (
            self._rng,
            self._bowl,
            self._litter,
            self._hands,
            self._houses,
            self._points,
            self._feral,
            self._tokens,
            self._bank,
            self._toy,
            self._turn,
            self._dir,
            self._high,
            self._stack,
            self._plays,
            self._next_play,
            self._no_refill,
            self._depth,
            self._decision,
            self._winner,
            self._win_type,
            self._over,
        )
