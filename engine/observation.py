"""What one seat may know about a state (and the full view, for replays).

Every card a player takes is taken face up from the grid, so a player with perfect memory
knows every opponent's cats, food tokens and hand cards (toys, costumes, catnip, lost cats,
spray bottles) as well as the discard pile. The observation therefore shows all of them.
It never shows the order of the deck, which cards were removed unseen at setup, or the
stray cats that were not dealt face up; what is not yet seen is given only as a multiset
(``unseen``: the deck and the removed cards together), which is what a determinising bot
needs.

>>> from engine import load_game
>>> state = load_game(options={"players": 2}).new_initial_state(3)
>>> obs = state.observation(0)
>>> obs["deck_size"], obs["removed_unseen"], sum(obs["unseen"].values())
(63, 2, 65)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine import rules
from engine.actions import _LINE_TEXT, Line
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game, State

__all__ = ["OBSERVATION_SCHEMA", "full_view", "observe"]

OBSERVATION_SCHEMA = "catleague.engine-observation/1"


def observe(state: State, seat: int) -> dict[str, Any]:
    """The JSON observation of ``seat`` (see the module docstring and docs/engine.md).

    The parts that did not change since the parent state's observation (tableaux, grid,
    unseen and discarded cards) are not worked out again, only copied from a memo the
    states of one line of play share, which is what makes one observation per decision
    cheap. The caller owns what it gets: changing it changes no other observation.

    Raises :class:`EngineError` for a seat that is not in the game.
    """
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise EngineError(f"seat must be 0..{game.num_players - 1}, not {seat!r}")
    memo = state._view
    if memo is None:
        memo = state._view = _ViewMemo(game)
    elif memo.owner is not state:
        memo = state._view = memo.successor()
    memo.owner = state
    obs = {
        "schema": OBSERVATION_SCHEMA,
        "game": game.name,
        "version": game.version,
        "edition": game.edition.name,
        "data_version": game.edition.version,
        "options": _json_copy(memo.options),
        "players": game.num_players,
        "seat": seat,
        "current_player": state._current,
        "phase": rules.PHASE_NAMES[state._phase],
        "turn": state._turn,
        "token": None if state._token < 0 else _LINE_TEXT[state._token],
        "grid": memo.grid(state._grid).copy(),
        "strays": memo.strays(state._strays_up).copy(),
        "vp_tokens_left": state._vp_left,
        "deck_size": len(state._deck) - state._pos,
        "removed_unseen": len(state._removed),
        "unseen": memo.unseen(state._deck, state._pos, state._removed).copy(),
        "discard": memo.discard(state._discard).copy(),
        "tableaux": [_copy_tableau(t) for t in memo.tableaux(state)],
        "legal_actions": ([str(a) for a in state.legal_actions()]
                          if state._current == seat else []),
    }
    if state._expansion is not None:
        obs.update(_expansion_view(state))
    return obs


def full_view(state: State) -> dict[str, Any]:
    """Everything, the hidden part included, for replay viewers of finished matches (never
    for a bot): the observation's public fields with ``seat`` None and the legal actions of
    the player to move, plus ``deck`` (the draw pile's keys, next card first), ``removed``
    (the keys removed unseen at the deal, sorted) and ``strays_face_down`` (the strays never
    dealt face up).

    >>> from engine import load_game
    >>> state = load_game(options={"players": 2}).new_initial_state(3)
    >>> view = state.full_view()
    >>> len(view["deck"]), len(view["removed"]), view["seat"]
    (63, 2, None)
    """
    keys = state.game._card_keys
    strays = state.game.edition.strays
    view = dict(observe(state, max(state._current, 0)))
    view["seat"] = None
    view["legal_actions"] = [str(a) for a in state.legal_actions()]
    view["deck"] = [keys[card] for card in state._deck[state._pos:]]
    view["removed"] = sorted(keys[card] for card in state._removed)
    view["strays_face_down"] = [strays[s].name for s in state._strays_hidden]
    return view


# The parts of a tableau view that are lists or dicts (copied for every observation).
_TABLEAU_CONTAINERS = ("cats", "cat_names", "strays", "food", "hand", "toys", "boxes")


def _json_copy(value: Any) -> Any:
    """A copy of a JSON value sharing nothing changeable with it (the game's options hold
    nested dicts: the scoring settings)."""
    if isinstance(value, dict):
        return {key: _json_copy(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [_json_copy(inner) for inner in value]
    return value


def _copy_tableau(tableau: dict[str, Any]) -> dict[str, Any]:
    copy = tableau.copy()
    for key in _TABLEAU_CONTAINERS:
        if key in copy:
            copy[key] = copy[key].copy()
    return copy


class _ViewMemo:
    """The parts of the observations of one line of play, kept while their source is the
    same object (never handed out: :func:`observe` copies them). A successor state starts from its parent's parts (so observing state after
    state only rebuilds what an action changed); branching states each copy the memo first,
    so no state ever sees parts built for another."""

    __slots__ = ("game", "owner", "options", "_grid", "_grid_view", "_strays", "_strays_view",
                 "_deck", "_pos", "_removed", "_unseen_view", "_discard",
                 "_discard_view", "_players", "_tableau_views", "_tableaux_view")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.owner: object = None
        self.options = dict(game.options)
        self._grid: object = None
        self._grid_view: list[str | None] = []
        self._strays: object = None
        self._strays_view: list[str] = []
        self._deck: object = None
        self._pos = 0
        self._removed: object = None
        self._unseen_view: dict[str, int] = {}
        self._discard: object = None
        self._discard_view: dict[str, int] = {}
        self._players: list[object] = [None] * game.num_players
        self._tableau_views: list[dict[str, Any]] = [{}] * game.num_players
        self._tableaux_view: list[dict[str, Any]] = []

    def successor(self) -> _ViewMemo:
        new = _ViewMemo.__new__(_ViewMemo)
        new.game = self.game
        new.owner = None
        new.options = self.options
        new._grid = self._grid
        new._grid_view = self._grid_view
        new._strays = self._strays
        new._strays_view = self._strays_view
        new._deck = self._deck
        new._pos = self._pos
        new._removed = self._removed
        new._unseen_view = self._unseen_view
        new._discard = self._discard
        new._discard_view = self._discard_view
        new._players = list(self._players)
        new._tableau_views = list(self._tableau_views)
        new._tableaux_view = self._tableaux_view
        return new

    def grid(self, grid: tuple[int | None, ...]) -> list[str | None]:
        if grid is not self._grid:
            keys = self.game._card_keys
            self._grid = grid
            self._grid_view = [None if card is None else keys[card] for card in grid]
        return self._grid_view

    def strays(self, strays_up: tuple[int, ...]) -> list[str]:
        if strays_up is not self._strays:
            names = self.game.edition.strays
            self._strays = strays_up
            self._strays_view = [names[s].name for s in strays_up]
        return self._strays_view

    def unseen(self, deck: tuple[int, ...], pos: int,
               removed: tuple[int, ...]) -> dict[str, int]:
        """The deck and the removed cards as a multiset, in key order."""
        if deck is self._deck and removed is self._removed and pos == self._pos:
            return self._unseen_view
        if deck is self._deck and removed is self._removed and pos > self._pos:
            # Only the cards drawn since leave the multiset: keys only go, so order holds.
            keys = self.game._card_keys
            view = dict(self._unseen_view)
            for card in deck[self._pos:pos]:
                key = keys[card]
                if view[key] == 1:
                    del view[key]
                else:
                    view[key] -= 1
        else:
            view = _multiset(self.game, deck[pos:] + removed)
        self._deck, self._pos, self._removed = deck, pos, removed
        self._unseen_view = view
        return view

    def discard(self, discard: tuple[int, ...]) -> dict[str, int]:
        if discard is self._discard:
            return self._discard_view
        old = self._discard
        if (isinstance(old, tuple) and len(discard) > len(old)
                and discard[:len(old)] == old):
            keys = self.game._card_keys
            added = [keys[card] for card in discard[len(old):]]
            if all(key in self._discard_view for key in added):  # key order holds
                view = dict(self._discard_view)
                for key in added:
                    view[key] += 1
            else:
                view = _multiset(self.game, discard)
        else:
            view = _multiset(self.game, discard)
        self._discard = discard
        self._discard_view = view
        return view

    def tableaux(self, state: State) -> list[dict[str, Any]]:
        players = state._players
        known = self._players
        changed = False
        for seat, player in enumerate(players):
            if player is not known[seat]:
                known[seat] = player
                self._tableau_views[seat] = _tableau(state, seat)
                changed = True
        if changed or not self._tableaux_view:
            self._tableaux_view = list(self._tableau_views)
        return self._tableaux_view


def _multiset(game: Game, cards: tuple[int, ...]) -> dict[str, int]:
    """Card keys and how many of each, in key order."""
    rank = game._key_rank
    counts = [0] * len(game._sorted_keys)
    for card in cards:
        counts[rank[card]] += 1
    return {key: n for key, n in zip(game._sorted_keys, counts, strict=True) if n}


def _expansion_view(state: State) -> dict[str, Any]:
    """The parts of an observation only expansion games have (see docs/engine.md)."""
    game = state.game
    edition = game.edition
    ext = state._expansion
    assert ext is not None
    result: dict[str, Any] = {"edition_label": edition.label, "edition_status": edition.status}
    if ext.goals:
        goals = edition.goals
        n = game.num_players
        result["goals"] = {
            "shared": [{"seats": [k, (k + 1) % n], "goal": goals[g].name, "stat": goals[g].stat,
                        "amount": goals[g].amount, "vp": goals[g].vp}
                       for k, g in enumerate(ext.goals)],
            "pool": [goals[g].name for g in ext.goal_pool],
            "swapped_this_turn": ext.swapped,
        }
    solitaire = edition.solitaire
    if game.solitaire and solitaire is not None:
        turn_cards = solitaire.turn_cards
        current = None
        if ext.turn_card >= 0:
            card = turn_cards[ext.turn_card]
            current = {"key": card.key, "name": card.name, "kind": card.kind, "arrow": card.arrow}
        result["solitaire"] = {
            "cat_player_seat": game.cat_player_seat,
            "placeholder_cards": solitaire.placeholder,
            "turn_card": current,
            "cat_choice": [str(Line(x)) for x in ext.cat_choice],
            "turn_cards_face_down": len(ext.turn_deck),
            "turn_discard": [turn_cards[k].key for k in ext.turn_discard],
            "starting_cards": [solitaire.starting_cards[k].name for k in ext.starting],
            "reshuffles": ext.reshuffles,
        }
    return result


def _tableau(state: State, seat: int) -> dict[str, Any]:
    game = state.game
    deck = game.edition.deck
    keys = game._card_keys
    player = state._players[seat]
    toys = dict.fromkeys(game.edition.toy_types, 0)
    costumes = catnip = 0
    for card in player.hand:
        spec = deck[card]
        kind = game._kind_codes[card]
        if kind == rules.TOY:
            toys[spec.toy] += 1  # type: ignore[index]
        elif kind == rules.COSTUME:
            costumes += 1
        elif kind == rules.CATNIP:
            catnip += 1
    tableau = {
        "seat": seat,
        "cats": [keys[c] for c in player.cats],
        "cat_names": [game._card_names[c] for c in player.cats],
        "strays": [game.edition.strays[s].name for s in player.strays],
        "food": dict(zip(game.food_tokens, player.food, strict=True)),
        "hand": sorted([keys[c] for c in player.hand]),
        "toys": toys,
        "costumes": costumes,
        "catnip": catnip,
        "lost_cats": player.lost_cats,
        "spray_bottles": player.sprays,
        "vp_tokens": player.vp_tokens,
    }
    if state._expansion is not None:
        tableau.update({"boxes": [keys[c] for c in player.boxes],
                        "cat_brushes": player.brushes, "laser_pointers": player.lasers,
                        "shopping_bags": player.bags,
                        "cat_player": seat == game.cat_player_seat})
    return tableau
