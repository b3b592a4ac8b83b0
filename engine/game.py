"""Cat Lady as a game object (immutable configuration) and its states (immutable positions).

>>> from engine import load_game
>>> game = load_game("cat-lady", options={"players": 2})
>>> state = game.new_initial_state(seed=7)
>>> state.current_player            # seat n-1 places the cat token at setup
1
>>> state = state.apply(game.parse_action("place-token row 1"))
>>> state.current_player, str(state.legal_actions()[0])
(0, 'take row 2')

``State.apply`` returns a new state and never changes the one it is called on, so states
can be kept, compared and branched from freely (bots search by branching).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from engine import rules
from engine.actions import (
    Action,
    EndTurn,
    Line,
    LostCatsForStray,
    LostCatsForVP,
    PlaceToken,
    Spray,
    Take,
    action_from_json,
    parse_action,
)
from engine.cards import FOOD_TOKENS, CardKind, Edition
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.scoring import GameScore, ScoringRules, Tableau

__all__ = ["Game", "PlayerState", "State"]

_KIND_CODES = {
    CardKind.CAT: rules.CAT,
    CardKind.FOOD: rules.FOOD,
    CardKind.TOY: rules.TOY,
    CardKind.COSTUME: rules.COSTUME,
    CardKind.CATNIP: rules.CATNIP,
    CardKind.LOST_CAT: rules.LOST_CAT,
    CardKind.SPRAY_BOTTLE: rules.SPRAY_BOTTLE,
}

class Game:
    """One configured game: rules version, player count, card data, options. Immutable.

    Build it with :func:`engine.load_game`; the constructor does no option checking.
    """

    __slots__ = (
        "name",
        "version",
        "num_players",
        "options",
        "edition",
        "scoring_rules",
        "vp_tokens",
        "_lost_cats_per_trade",
        "_kind_codes",
        "_food_gains",
        "_stray_index",
        "_take_actions",
        "_spray_actions",
        "_place_actions",
        "_stray_actions",
        "_end_turn",
        "_lost_vp",
        "_frozen",
    )

    name: str
    version: str
    num_players: int
    options: Mapping[str, Any]
    edition: Edition
    scoring_rules: ScoringRules | None

    def __init__(
        self,
        *,
        name: str,
        version: str,
        num_players: int,
        options: Mapping[str, Any],
        edition: Edition,
        scoring_rules: ScoringRules | None = None,
    ) -> None:
        if num_players not in edition.player_counts:
            supported = ", ".join(str(n) for n in edition.supported_players)
            raise EngineError(
                f"Cat Lady ({edition.label}) is played by {supported} players, not {num_players}"
            )
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "version", version)
        set_(self, "num_players", num_players)
        set_(self, "options", _ReadOnlyDict(options))
        set_(self, "edition", edition)
        set_(self, "scoring_rules", scoring_rules)
        set_(self, "vp_tokens", int(edition.components["vp_tokens"]))
        set_(self, "_lost_cats_per_trade", edition.scoring.lost_cats_per_trade)
        kinds = []
        gains = []
        for card in edition.deck:
            if card.kind not in _KIND_CODES:
                raise EngineError(
                    f"rules version {version} cannot play card kind {card.kind!r} ({card.name})"
                )
            kinds.append(_KIND_CODES[card.kind])
            gains.append(tuple(int(card.food.get(token, 0)) for token in FOOD_TOKENS))
        set_(self, "_kind_codes", tuple(kinds))
        set_(self, "_food_gains", tuple(gains))
        set_(self, "_stray_index", {s.name.casefold(): i for i, s in enumerate(edition.strays)})
        # Actions are built once and shared: legal_actions() is the hot loop of every playout.
        lines = tuple(Line)
        set_(self, "_place_actions", tuple(PlaceToken(line) for line in lines))
        set_(self, "_take_actions", _by_token(Take))
        set_(self, "_spray_actions", _by_token(Spray))
        set_(self, "_stray_actions", tuple(LostCatsForStray(s.name) for s in edition.strays))
        set_(self, "_end_turn", EndTurn())
        set_(self, "_lost_vp", LostCatsForVP())
        set_(self, "_frozen", True)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Game is immutable")

    def __repr__(self) -> str:
        return (
            f"<Game {self.name} v{self.version}, {self.num_players} players, "
            f"{self.edition.name} data v{self.edition.version}>"
        )

    def new_initial_state(self, seed: int) -> State:
        """A freshly dealt game. The seed fixes every shuffle; no global RNG is used.

        >>> from engine import load_game
        >>> game = load_game(options={"players": 4})
        >>> game.new_initial_state(1).deck_size
        93
        """
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
            raise EngineError(f"a seed is a non-negative integer, not {seed!r}")
        fields = rules.setup(self, seed)
        state = State.__new__(State)
        state.game = self
        state.seed = seed
        state._deck = fields["deck"]  # type: ignore[assignment]
        state._pos = fields["pos"]  # type: ignore[assignment]
        state._removed = fields["removed"]  # type: ignore[assignment]
        state._grid = fields["grid"]  # type: ignore[assignment]
        state._strays_up = fields["strays_up"]  # type: ignore[assignment]
        state._strays_hidden = fields["strays_hidden"]  # type: ignore[assignment]
        state._token = -1
        state._vp_left = self.vp_tokens
        empty = PlayerState((), (), (0,) * len(FOOD_TOKENS), (), 0, 0, 0)
        state._players = (empty,) * self.num_players
        state._discard = ()
        state._current = self.num_players - 1
        state._phase = rules.PLACE_TOKEN
        state._turn = 0
        state._final = False
        state._hist = None
        state._result = None
        return state

    def action_from_json(self, obj: object) -> Action:
        """Read an action's JSON form; stray names are checked against this game's cards.

        Raises :class:`EngineError` for malformed input or an unknown stray.
        """
        return self._canonical(action_from_json(obj))

    def parse_action(self, text: str) -> Action:
        """Read an action's short text form, e.g. ``"take row 2"`` or ``"lost-cats stray florence"``.

        >>> from engine import load_game
        >>> load_game().parse_action("lost-cats stray florence")
        LostCatsForStray(stray='Florence')

        Raises :class:`EngineError` for text that is not an action of this game.
        """
        return self._canonical(parse_action(text))

    def _canonical(self, action: Action) -> Action:
        if isinstance(action, LostCatsForStray):
            index = self._stray_index.get(action.stray.strip().casefold())
            if index is None:
                known = ", ".join(s.name for s in self.edition.strays)
                raise EngineError(f"no stray cat is called {action.stray!r} (strays: {known})")
            return self._stray_actions[index]
        return action


def _by_token(cls: type[Take] | type[Spray]) -> tuple[tuple[Action, ...], ...]:
    """For each token position (index 0-5, and -1 == 6 for "not placed"), the line actions
    of ``cls`` for every line except the token's."""
    table = [tuple(cls(line) for line in Line if line != token) for token in Line]
    table.append(tuple(cls(line) for line in Line))
    return tuple(table)


class _ReadOnlyDict(dict[str, Any]):
    """The game's options: a dict (JSON-friendly) that refuses changes."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("game options are read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]


class PlayerState(NamedTuple):
    """One player's holdings. Cards are indices into ``edition.deck``; strays into
    ``edition.strays``; ``food`` counts tokens in ``FOOD_TOKENS`` order."""

    cats: tuple[int, ...]
    strays: tuple[int, ...]
    food: tuple[int, ...]
    hand: tuple[int, ...]  # toys, costumes, catnip, lost cats and spray bottles held
    lost_cats: int
    sprays: int
    vp_tokens: int


class State:
    """A position of a game. Immutable from the outside: :meth:`apply` returns a new state.

    Cards are indices into ``game.edition.deck``. The hidden parts (deck order, the cards
    removed unseen, the stray deck) are private; :meth:`observation` is what a seat may see.
    """

    __slots__ = (
        "game",
        "seed",
        "_deck",
        "_pos",
        "_removed",
        "_grid",
        "_strays_up",
        "_strays_hidden",
        "_token",
        "_vp_left",
        "_players",
        "_discard",
        "_current",
        "_phase",
        "_turn",
        "_final",
        "_hist",
        "_result",
    )

    game: Game
    seed: int
    _deck: tuple[int, ...]
    _pos: int
    _removed: tuple[int, ...]
    _grid: tuple[int | None, ...]
    _strays_up: tuple[int, ...]
    _strays_hidden: tuple[int, ...]
    _token: int
    _vp_left: int
    _players: tuple[PlayerState, ...]
    _discard: tuple[int, ...]
    _current: int
    _phase: int
    _turn: int
    _final: bool
    _hist: tuple[Any, Action] | None
    _result: GameScore | None

    # -- the game-library API ------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """The seat to move, or -1 when the game is over."""
        return self._current

    @property
    def turn(self) -> int:
        """The number of the turn in progress (1-based; 0 during setup). At the end: the
        number of turns played."""
        return self._turn

    @property
    def phase(self) -> str:
        """``place-token``, ``before-draft``, ``after-draft`` or ``over``."""
        return rules.PHASE_NAMES[self._phase]

    @property
    def history(self) -> tuple[Action, ...]:
        """Every action applied since the deal, in order."""
        actions: list[Action] = []
        node = self._hist
        while node is not None:
            node, action = node
            actions.append(action)
        actions.reverse()
        return tuple(actions)

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may take (empty when the game is over)."""
        return rules.legal_actions(self)

    def is_legal(self, action: Action) -> bool:
        """Whether :meth:`apply` would accept ``action``."""
        try:
            rules.check(self, action)
        except EngineError:
            return False
        return True

    def apply(self, action: Action) -> State:
        """The state after ``action``. Raises :class:`IllegalActionError` (with the reason)
        if it is not legal here; this state is left unchanged either way."""
        return rules.apply(self, action)

    def is_terminal(self) -> bool:
        return self._phase == rules.OVER

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON: see :func:`engine.observation.observe`."""
        from engine.observation import observe

        return observe(self, seat)

    def result(self) -> GameScore:
        """The final scores. Raises :class:`EngineError` before the game is over."""
        if self._phase != rules.OVER:
            raise EngineError("the game is not over yet")
        if self._result is None:
            self._result = self.score()
        return self._result

    # -- inspection helpers ----------------------------------------------------------------

    @property
    def deck_size(self) -> int:
        """Cards left in the draw pile (public)."""
        return len(self._deck) - self._pos

    @property
    def token(self) -> Line | None:
        """The line the cat token blocks, or None before it is placed."""
        return None if self._token < 0 else Line(self._token)

    @property
    def grid(self) -> tuple[int | None, ...]:
        """The 9 grid slots row by row, as deck indices (None: emptied by the final draft)."""
        return self._grid

    @property
    def players(self) -> tuple[PlayerState, ...]:
        return self._players

    @property
    def face_up_strays(self) -> tuple[str, ...]:
        strays = self.game.edition.strays
        return tuple(strays[s].name for s in self._strays_up)

    @property
    def vp_tokens_left(self) -> int:
        return self._vp_left

    def tableaux(self) -> tuple[Tableau, ...]:
        """Every player's holdings as scoring input (meaningful mid-game too, for bots)."""
        from engine.scoring import Tableau

        edition = self.game.edition
        deck = edition.deck
        toy_types = edition.toy_types
        kinds = self.game._kind_codes
        result = []
        for seat, player in enumerate(self._players):
            toys = dict.fromkeys(toy_types, 0)
            costumes = catnip = 0
            for card in player.hand:
                kind = kinds[card]
                if kind == rules.TOY:
                    toys[deck[card].toy] += 1  # type: ignore[index]
                elif kind == rules.COSTUME:
                    costumes += 1
                elif kind == rules.CATNIP:
                    catnip += 1
            cats = tuple(deck[c].name for c in player.cats)
            cats += tuple(edition.strays[s].name for s in player.strays)
            result.append(
                Tableau(
                    name=f"seat {seat}",
                    cats=cats,
                    food=dict(zip(FOOD_TOKENS, player.food, strict=True)),
                    toys=toys,
                    costumes=costumes,
                    catnip=catnip,
                    vp_tokens=player.vp_tokens,
                    lost_cats=player.lost_cats,
                    spray_bottles=player.sprays,
                )
            )
        return tuple(result)

    def score(self) -> GameScore:
        """Score the tableaux as they stand (the final result when the game is over)."""
        from engine.scoring import ScoringRules, score_game

        rules_ = self.game.scoring_rules or ScoringRules()
        # The rules only ever build possible tableaux, so the input checks are skipped.
        return score_game(self.tableaux(), edition=self.game.edition, rules=rules_,
                          validate=False)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._identity() == other._identity() and self.history == other.history

    __hash__ = None  # type: ignore[assignment]

    def _identity(self) -> tuple[object, ...]:
        g = self.game
        return (
            g.name, g.version, g.num_players, g.edition.version, self._deck[self._pos:],
            self._removed, self._grid, self._strays_up, self._strays_hidden, self._token,
            self._vp_left, self._players, tuple(sorted(self._discard)), self._current,
            self._phase, self._turn, self._final,
        )

    def __repr__(self) -> str:
        return (
            f"<State {self.game.name} seed={self.seed} turn={self._turn} "
            f"phase={self.phase} to_move={self._current}>"
        )

    # -- for engine.rules only -------------------------------------------------------------

    def _successor(self, action: Action) -> State:
        """A private copy to be changed by the rules before anyone else sees it."""
        new = State.__new__(State)
        new.game = self.game
        new.seed = self.seed
        new._deck = self._deck
        new._pos = self._pos
        new._removed = self._removed
        new._grid = self._grid
        new._strays_up = self._strays_up
        new._strays_hidden = self._strays_hidden
        new._token = self._token
        new._vp_left = self._vp_left
        new._players = self._players
        new._discard = self._discard
        new._current = self._current
        new._phase = self._phase
        new._turn = self._turn
        new._final = self._final
        new._hist = (self._hist, action)
        new._result = None
        return new

    def _set_player_fields(
        self,
        cats: tuple[int, ...],
        hand: tuple[int, ...],
        food: tuple[int, ...],
        lost_cats: int,
        sprays: int,
    ) -> None:
        seat = self._current
        old = self._players[seat]
        player = PlayerState(cats, old.strays, food, hand, lost_cats, sprays, old.vp_tokens)
        players = list(self._players)
        players[seat] = player
        self._players = tuple(players)
