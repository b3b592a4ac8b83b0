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

import functools
from collections.abc import Mapping
from typing import Any

from engine.catlady import actions, rules
from engine.catlady.actions import Action, Line, action_from_json, parse_action
from engine.catlady.cards import CardKind, Edition, load_edition, normalise_name
from engine.catlady.model import Expansion, PlayerState
from engine.catlady.observation import _ViewMemo, full_view, observe
from engine.catlady.options import resolve_options
from engine.catlady.scoring import GameScore, ScoringRules, Tableau, score_game
from engine.catlady.scoring_expansion import SharedGoal, edition_is_expansion
from engine.errors import EngineError
from engine.readonly import ReadOnlyOptions
from engine.state import BaseState, check_seed

__all__ = ["GAME_NAME", "Expansion", "Game", "PlayerState", "State", "build_game"]

_KIND_CODES = {
    CardKind.CAT: rules.CAT,
    CardKind.FOOD: rules.FOOD,
    CardKind.TOY: rules.TOY,
    CardKind.COSTUME: rules.COSTUME,
    CardKind.CATNIP: rules.CATNIP,
    CardKind.LOST_CAT: rules.LOST_CAT,
    CardKind.SPRAY_BOTTLE: rules.SPRAY_BOTTLE,
    CardKind.BOX: rules.BOX,
    CardKind.CAT_BRUSH: rules.CAT_BRUSH,
    CardKind.LASER_POINTER: rules.LASER_POINTER,
    CardKind.SHOPPING_BAG: rules.SHOPPING_BAG,
}

GAME_NAME = "cat-lady"


@functools.cache
def _edition(name: str) -> Edition:
    return load_edition(name)


def build_game(version: str, options: Mapping[str, Any]) -> Game:
    """The registry's factory: options checked, card data loaded and checked for play.

    Raises :class:`EngineError` for a bad option or an edition that cannot be dealt.
    """
    resolved = resolve_options(options)
    edition = _edition(resolved["edition"])
    # An edition with unknown card facts can be shown but not dealt: say what is missing.
    edition.require_playable()
    if resolved.get("custom_strays"):
        edition = edition.with_custom_strays(resolved["custom_strays"])
    try:
        scoring_rules = ScoringRules(**resolved["scoring"])
    except TypeError as exc:
        raise EngineError(f"bad 'scoring' option {resolved['scoring']!r}: {exc}") from None
    return Game(
        name=GAME_NAME,
        version=version,
        num_players=resolved["players"],
        options=resolved,
        edition=edition,
        scoring_rules=scoring_rules,
        starting_cards=resolved.get("starting_cards"),
        shared_goals=resolved.get("shared_goals", False),
        solitaire=resolved.get("solitaire", False),
    )


def _checked_setup(
    num_players: int,
    edition: Edition,
    shared_goals: bool,
    solitaire: bool,
    starting_cards: int | None,
) -> int | None:
    """Refuse a setup the edition cannot deal (player count, shared goals, solitaire), with an
    :class:`EngineError` saying why. Returns how many solitaire starting cards are dealt
    (None outside solitaire)."""
    if num_players not in edition.player_counts:
        counts = sorted(edition.supported_players)
        contiguous = counts == list(range(counts[0], counts[-1] + 1))
        supported = (
            f"{counts[0]} to {counts[-1]}"
            if contiguous and len(counts) > 1
            else ", ".join(str(n) for n in counts)
        )
        raise EngineError(f"{edition.label} is played by {supported} players, not {num_players}")
    if shared_goals:
        # RB-BOT: optional with 3 or more players; never with 2 or in solitaire.
        if num_players < 3 or solitaire:
            raise EngineError(
                "shared goals are played with 3 or more players, not in a "
                "2-player or solitaire game"
            )
        if len(edition.goals) < num_players + 2:
            raise EngineError(
                f"shared goals with {num_players} players need "
                f"{num_players + 2} goals; the {edition.name} edition has "
                f"{len(edition.goals)}"
            )
    if solitaire:
        if edition.solitaire is None:
            raise EngineError(f"the {edition.name} edition has no solitaire cards")
        if num_players != 2:
            raise EngineError("solitaire is you and the cat player: 'players' must be 2")
        dealt = edition.solitaire.starting_cards_dealt if starting_cards is None else starting_cards
        if not 0 <= dealt <= len(edition.solitaire.starting_cards):
            raise EngineError(
                f"solitaire starting cards: 0-{len(edition.solitaire.starting_cards)}, not {dealt}"
            )
        return dealt
    return starting_cards


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
        "food_tokens",
        "shared_goals",
        "solitaire",
        "starting_cards",
        "expansion",
        "_deck_len",
        "_cat_take_actions",
        "_laser_actions",
        "_shopping_bag",
        "_card_keys",
        "_card_names",
        "_sorted_keys",
        "_key_rank",
        "_frozen",
    )

    name: str
    version: str
    num_players: int
    options: Mapping[str, Any]
    edition: Edition
    scoring_rules: ScoringRules | None
    vp_tokens: int
    food_tokens: tuple[str, ...]
    shared_goals: bool
    solitaire: bool
    starting_cards: int
    expansion: bool  # the game carries :class:`Expansion` state (Box of Treats content)
    # Tables built once for the rules' hot loops (see engine.catlady.rules).
    _lost_cats_per_trade: int
    _deck_len: int
    _kind_codes: tuple[int, ...]  # per card id: rules.CAT, rules.FOOD...
    _food_gains: tuple[tuple[int, ...], ...]  # per card id: tokens gained, food_tokens order
    _stray_index: dict[str, int]  # casefolded stray name -> index in edition.strays
    _take_actions: tuple[tuple[Action, ...], ...]  # per token position (see _by_token)
    _spray_actions: tuple[tuple[Action, ...], ...]
    _place_actions: tuple[actions.PlaceToken, ...]
    _stray_actions: tuple[actions.LostCatsForStray, ...]
    _end_turn: actions.EndTurn
    _lost_vp: actions.LostCatsForVP
    _cat_take_actions: tuple[actions.CatTake, ...]
    _laser_actions: tuple[actions.Laser, ...]
    _shopping_bag: actions.ShoppingBag
    _card_keys: tuple[str, ...]  # per card id (deck cards, then strays)
    _card_names: tuple[str, ...]
    _sorted_keys: tuple[str, ...]  # every distinct card key, sorted (observations' multisets)
    _key_rank: tuple[int, ...]  # per card id: its key's index in _sorted_keys
    _frozen: bool

    def __init__(
        self,
        *,
        name: str,
        version: str,
        num_players: int,
        options: Mapping[str, Any],
        edition: Edition,
        scoring_rules: ScoringRules | None = None,
        shared_goals: bool = False,
        solitaire: bool = False,
        starting_cards: int | None = None,
    ) -> None:
        starting_cards = _checked_setup(
            num_players, edition, shared_goals, solitaire, starting_cards
        )
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "version", version)
        set_(self, "num_players", num_players)
        set_(self, "options", ReadOnlyOptions(options))
        set_(self, "edition", edition)
        set_(self, "scoring_rules", scoring_rules)
        set_(self, "vp_tokens", int(edition.components["vp_tokens"]))
        set_(self, "_lost_cats_per_trade", edition.scoring.lost_cats_per_trade)
        set_(self, "food_tokens", edition.food_tokens)
        set_(self, "shared_goals", shared_goals)
        set_(self, "solitaire", solitaire)
        set_(self, "starting_cards", starting_cards or 0)
        # Games with expansion content carry the Expansion state (grid kept for Choupette,
        # Box of Treats actions); base games keep exactly their old state and speed.
        set_(self, "expansion", shared_goals or solitaire or edition_is_expansion(edition))
        set_(self, "_deck_len", len(edition.deck))
        kinds = []
        gains = []
        for card in edition.deck:
            kinds.append(_KIND_CODES[card.kind])
            gains.append(tuple(int(card.food.get(token, 0)) for token in edition.food_tokens))
        # Card ids past the deck are strays: a cat brush can put one into the grid.
        for _ in edition.strays:
            kinds.append(rules.CAT)
            gains.append((0,) * len(edition.food_tokens))
        set_(self, "_kind_codes", tuple(kinds))
        set_(self, "_food_gains", tuple(gains))
        set_(self, "_stray_index", {s.name.casefold(): i for i, s in enumerate(edition.strays)})
        # Actions are built once and shared: legal_actions() is the hot loop of every playout.
        lines = tuple(Line)
        set_(self, "_place_actions", tuple(actions.PlaceToken(line) for line in lines))
        set_(self, "_take_actions", _by_token(actions.Take))
        set_(self, "_spray_actions", _by_token(actions.Spray))
        set_(
            self, "_stray_actions", tuple(actions.LostCatsForStray(s.name) for s in edition.strays)
        )
        set_(self, "_end_turn", actions.EndTurn())
        set_(self, "_lost_vp", actions.LostCatsForVP())
        set_(self, "_cat_take_actions", tuple(actions.CatTake(line) for line in lines))
        set_(
            self,
            "_laser_actions",
            tuple(
                actions.Laser((a, b), d)
                for a in range(1, 10)
                for b in range(a + 1, 10)
                for d in range(1, 10)
                if d not in (a, b)
            ),
        )
        set_(self, "_shopping_bag", actions.ShoppingBag())
        set_(
            self,
            "_card_keys",
            tuple(c.key for c in edition.deck) + tuple(s.key for s in edition.strays),
        )
        set_(
            self,
            "_card_names",
            tuple(c.name for c in edition.deck) + tuple(s.name for s in edition.strays),
        )
        set_(self, "_sorted_keys", tuple(sorted(set(self._card_keys))))
        rank = {key: i for i, key in enumerate(self._sorted_keys)}
        set_(self, "_key_rank", tuple(rank[key] for key in self._card_keys))
        set_(self, "_frozen", True)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Game is immutable")

    @property
    def label(self) -> str:
        """The game's display name.

        >>> from engine import load_game
        >>> load_game().label
        'Cat Lady'
        """
        return "Cat Lady"

    @property
    def data_name(self) -> str:
        """The edition's name (``base``, ``box-of-treats-placeholder``...)."""
        return self.edition.name

    @property
    def data_version(self) -> str:
        """The edition's card data version, stored in every match log."""
        return str(self.edition.version)

    @property
    def supported_players(self) -> tuple[int, ...]:
        """The player counts the edition allows (2-4 base, 2-6 with Box of Treats)."""
        return tuple(self.edition.supported_players)

    def __repr__(self) -> str:
        return (
            f"<Game {self.name} v{self.version}, {self.num_players} players, "
            f"{self.edition.name} data v{self.edition.version}>"
        )

    def card_key(self, card: int) -> str:
        """The data key of a card id (deck cards, then strays a cat brush put in the grid)."""
        return self._card_keys[card]

    def card_name(self, card: int) -> str:
        return self._card_names[card]

    @property
    def cat_player_seat(self) -> int:
        """The solitaire cat player's seat (1), or -1."""
        return 1 if self.solitaire else -1

    def new_initial_state(self, seed: int) -> State:
        """A freshly dealt game. The seed fixes every shuffle; no global RNG is used.

        >>> from engine import load_game
        >>> game = load_game(options={"players": 4})
        >>> game.new_initial_state(1).deck_size
        93
        """
        fields = rules.setup(self, check_seed(seed))
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
        empty = PlayerState((), (), (0,) * len(self.food_tokens), (), 0, 0, 0)
        state._players = (empty,) * self.num_players
        state._discard = ()
        state._current = self.num_players - 1
        state._phase = rules.PLACE_TOKEN
        state._turn = 0
        state._final = False
        state._history = None
        state._result = None
        state._expansion = fields.get("ext")  # type: ignore[assignment]
        state._view = _ViewMemo(self)  # shared by every state of this deal
        if self.solitaire:
            rules.start_solitaire(state, seed)
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
        if isinstance(action, actions.LostCatsForStray):
            index = self._stray_index.get(action.stray.strip().casefold())
            if index is None:
                known = ", ".join(s.name for s in self.edition.strays)
                raise EngineError(f"no stray cat is called {action.stray!r} (strays: {known})")
            return self._stray_actions[index]
        if isinstance(action, actions.Laser):
            a, b = sorted(action.take)
            if a == b or action.discard in (a, b):
                raise EngineError(
                    f"{action}: a laser pointer takes two different cards and discards a third"
                )
            return actions.Laser((a, b), action.discard)
        if isinstance(action, actions.Brush):
            if not self.edition.has_cat(action.cat):
                raise EngineError(f"no cat is called {action.cat!r}")
            return actions.Brush(action.slot, self.edition.cat(action.cat).name)
        if isinstance(action, actions.SwapGoal):
            goal = next(
                (
                    g
                    for g in self.edition.goals
                    if normalise_name(g.name) == normalise_name(action.goal)
                ),
                None,
            )
            if goal is None:
                known = ", ".join(g.name for g in self.edition.goals) or "none"
                raise EngineError(f"no shared goal is called {action.goal!r} (goals: {known})")
            return actions.SwapGoal(action.partner, goal.name)
        return action


def _by_token(cls: type[actions.Take] | type[actions.Spray]) -> tuple[tuple[Action, ...], ...]:
    """For each token position (index 0-5, and -1 == 6 for "not placed"), the line actions
    of ``cls`` for every line except the token's."""
    table = [tuple(cls(line) for line in Line if line != token) for token in Line]
    table.append(tuple(cls(line) for line in Line))
    return tuple(table)


class State(BaseState[Game]):
    """A position of a game. Immutable from the outside: :meth:`apply` returns a new state.

    Cards are indices into ``game.edition.deck``. The hidden parts (deck order, the cards
    removed unseen, the stray deck) are private; :meth:`observation` is what a seat may see.
    """

    __slots__ = (
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
        "_result",
        "_expansion",
        "_view",
    )

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
    _result: GameScore | None
    _expansion: Expansion | None
    _view: _ViewMemo | None  # engine.catlady.observation's memo of observation parts

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
        """``place-token``, ``before-draft``, ``after-draft``, ``cat-turn`` (solitaire) or
        ``over``."""
        return rules.PHASE_NAMES[self._phase]

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
        """What ``seat`` may know, as JSON: see :func:`engine.catlady.observation.observe`."""
        return observe(self, seat)

    def full_view(self) -> dict[str, Any]:
        """Everything, the deck order included, for replay viewers of finished matches: see
        :func:`engine.catlady.observation.full_view`. Never give it to a bot."""
        return full_view(self)

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
        game = self.game
        edition = game.edition
        deck = edition.deck
        ext = self._expansion
        result = []
        for seat, player in enumerate(self._players):
            toys, costumes, catnip = rules.hand_counts(game, player.hand)
            cats = tuple(game.card_name(c) for c in player.cats)
            cats += tuple(edition.strays[s].name for s in player.strays)
            extra: dict[str, Any] = {}
            if player.boxes or player.brushes or player.lasers or player.bags:
                extra = {
                    "boxes": tuple(deck[c].name for c in player.boxes),
                    "cat_brushes": player.brushes,
                    "laser_pointers": player.lasers,
                    "shopping_bags": player.bags,
                }
            if seat == game.cat_player_seat and ext is not None and edition.solitaire:
                extra["cat_player"] = True
                extra["starting_cards"] = tuple(
                    edition.solitaire.starting_cards[k].name for k in ext.starting
                )
            result.append(
                Tableau(
                    name="cat player" if extra.get("cat_player") else f"seat {seat}",
                    cats=cats,
                    food=dict(zip(game.food_tokens, player.food, strict=True)),
                    toys=toys,
                    costumes=costumes,
                    catnip=catnip,
                    vp_tokens=player.vp_tokens,
                    lost_cats=player.lost_cats,
                    spray_bottles=player.sprays,
                    **extra,
                )
            )
        return tuple(result)

    def shared_goals(self) -> tuple[Any, ...]:
        """The shared goals as scoring input (goal k lies between seats k and k+1)."""
        ext = self._expansion
        if ext is None or not ext.goals:
            return ()
        n = self.game.num_players
        goals = self.game.edition.goals
        return tuple(SharedGoal(goals[g], (k, (k + 1) % n)) for k, g in enumerate(ext.goals))

    def score(self) -> GameScore:
        """Score the tableaux as they stand (the final result when the game is over)."""
        rules_ = self.game.scoring_rules or ScoringRules()
        # The rules only ever build possible tableaux, so the input checks are skipped.
        extra: dict[str, Any] = {}
        if self._expansion is not None:
            extra = {
                "grid": tuple(self.game.card_key(c) for c in self._grid if c is not None),
                "goals": self.shared_goals(),
            }
        return score_game(
            self.tableaux(), edition=self.game.edition, rules=rules_, validate=False, **extra
        )

    def _position(self) -> tuple[object, ...]:
        return (
            self._deck[self._pos :],
            self._removed,
            self._grid,
            self._strays_up,
            self._strays_hidden,
            self._token,
            self._vp_left,
            self._players,
            tuple(sorted(self._discard)),
            self._current,
            self._phase,
            self._turn,
            self._final,
            self._expansion,
        )

    # -- for engine.catlady.rules only -------------------------------------------------------------

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
        new._history = (self._history, action)
        new._result = None
        new._expansion = self._expansion
        new._view = self._view
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
        player = PlayerState(
            cats,
            old.strays,
            food,
            hand,
            lost_cats,
            sprays,
            old.vp_tokens,
            old.boxes,
            old.brushes,
            old.lasers,
            old.bags,
        )
        players = list(self._players)
        players[seat] = player
        self._players = tuple(players)
