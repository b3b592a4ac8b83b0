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

from engine.catlady import rules
from engine.catlady.actions import _LINE_TEXT, Line
from engine.errors import EngineError
from engine.readonly import ReadOnlyDict, ReadOnlyList, freeze

if TYPE_CHECKING:
    from engine.catlady.game import Game, State
    from engine.catlady.model import PlayerState

__all__ = ["OBSERVATION_SCHEMA", "full_view", "observe"]

OBSERVATION_SCHEMA = "catleague.engine-observation/1"


def observe(state: State, seat: int) -> dict[str, Any]:
    """The JSON observation of ``seat`` (see the module docstring and docs/engine.md).

    The dict is the caller's own; every list and dict inside it is read-only
    (:mod:`engine.readonly`): the parts that did not change since the last observation of
    a state of the same deal (options, tableaux, grid, unseen and discarded cards) are
    neither worked out again nor copied, only handed out again from a memo those states
    share, which is what makes one observation per decision cheap. Copy a part to change it.

    Raises :class:`EngineError` for a seat that is not in the game.
    """
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise EngineError(f"seat must be 0..{game.num_players - 1}, not {seat!r}")
    memo = state._view
    if memo is None:  # a state set up by hand: its successors will share this memo
        memo = state._view = _ViewMemo(game)
    obs = {
        "schema": OBSERVATION_SCHEMA,
        "game": game.name,
        "version": game.version,
        "edition": game.edition.name,
        "data_version": game.edition.version,
        "options": memo.options,
        "players": game.num_players,
        "seat": seat,
        "current_player": state._current,
        "phase": rules.PHASE_NAMES[state._phase],
        "turn": state._turn,
        "token": None if state._token < 0 else _LINE_TEXT[state._token],
        "grid": memo.grid(state._grid),
        "strays": memo.strays(state._strays_up),
        "vp_tokens_left": state._vp_left,
        "deck_size": len(state._deck) - state._pos,
        "removed_unseen": len(state._removed),
        "unseen": memo.unseen(state._deck, state._pos, state._removed),
        "discard": memo.discard(state._discard),
        "tableaux": memo.tableaux(state),
        "legal_actions": memo.legal_actions(state) if state._current == seat else _NONE,
    }
    if state._expansion is not None:
        obs.update(freeze(_expansion_view(state)))
    return obs


# The legal actions of a seat that is not to move.
_NONE = ReadOnlyList()


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
    view = observe(state, max(state._current, 0))
    view["seat"] = None
    view["legal_actions"] = ReadOnlyList([str(a) for a in state.legal_actions()])
    view["deck"] = ReadOnlyList([keys[card] for card in state._deck[state._pos :]])
    view["removed"] = ReadOnlyList(sorted(keys[card] for card in state._removed))
    view["strays_face_down"] = ReadOnlyList([strays[s].name for s in state._strays_hidden])
    return view


class _ViewMemo:
    """The observation parts last built for the states of one deal (its successors and
    branches share the memo), each with the object it was built from. A part is reused
    only while a state holds that very object (states never change theirs), so any state
    of the deal may use the memo in any order; the unseen cards are updated from the last
    deck position when the deck has only moved on. Parts are read-only, so
    :func:`observe` hands them out as they are. Each part is one (source, view) tuple,
    replaced whole."""

    __slots__ = ("game", "options", "_grid", "_strays", "_unseen", "_discard", "_tableaux")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.options: ReadOnlyDict = freeze(dict(game.options))
        self._grid: tuple[object, ReadOnlyList] = (None, ReadOnlyList())
        self._strays: tuple[object, ReadOnlyList] = (None, ReadOnlyList())
        self._unseen: tuple[object, int, object, ReadOnlyDict] = (None, 0, None, ReadOnlyDict())
        self._discard: tuple[object, ReadOnlyDict] = (None, ReadOnlyDict())
        # The players tuple the list was built from, the list, and per seat its view.
        self._tableaux: tuple[
            object, ReadOnlyList, list[tuple[PlayerState | None, ReadOnlyDict]]
        ] = (
            None,
            ReadOnlyList(),
            [(None, ReadOnlyDict())] * game.num_players,
        )

    def grid(self, grid: tuple[int | None, ...]) -> ReadOnlyList:
        source, view = self._grid
        if grid is not source:
            keys = self.game._card_keys
            view = ReadOnlyList([None if card is None else keys[card] for card in grid])
            self._grid = (grid, view)
        return view

    def strays(self, strays_up: tuple[int, ...]) -> ReadOnlyList:
        source, view = self._strays
        if strays_up is not source:
            names = self.game.edition.strays
            view = ReadOnlyList([names[s].name for s in strays_up])
            self._strays = (strays_up, view)
        return view

    def unseen(self, deck: tuple[int, ...], pos: int, removed: tuple[int, ...]) -> ReadOnlyDict:
        """The deck and the removed cards as a multiset, in key order."""
        old_deck, old_pos, old_removed, view = self._unseen
        if deck is old_deck and removed is old_removed and pos == old_pos:
            return view
        if deck is old_deck and removed is old_removed and pos > old_pos:
            # Only the cards drawn since leave the multiset: keys only go, so order holds.
            keys = self.game._card_keys
            counts = dict(view)
            for card in deck[old_pos:pos]:
                key = keys[card]
                if counts[key] == 1:
                    del counts[key]
                else:
                    counts[key] -= 1
            view = ReadOnlyDict(counts)
        else:
            view = _multiset(self.game, deck[pos:] + removed)
        self._unseen = (deck, pos, removed, view)
        return view

    def discard(self, discard: tuple[int, ...]) -> ReadOnlyDict:
        old, view = self._discard
        if discard is old:
            return view
        if isinstance(old, tuple) and len(discard) > len(old) and discard[: len(old)] == old:
            keys = self.game._card_keys
            added = [keys[card] for card in discard[len(old) :]]
            if all(key in view for key in added):  # key order holds
                counts = dict(view)
                for key in added:
                    counts[key] += 1
                view = ReadOnlyDict(counts)
            else:
                view = _multiset(self.game, discard)
        else:
            view = _multiset(self.game, discard)
        self._discard = (discard, view)
        return view

    def tableaux(self, state: State) -> ReadOnlyList:
        players = state._players
        source, views, known = self._tableaux
        if players is source:
            return views
        known = list(known)
        for seat, player in enumerate(players):
            before, seen = known[seat]
            if player is not before:
                known[seat] = (player, _tableau(state, seat, before, seen))
        views = ReadOnlyList([view for _, view in known])
        self._tableaux = (players, views, known)
        return views

    def legal_actions(self, state: State) -> ReadOnlyList:
        return ReadOnlyList([str(a) for a in state.legal_actions()])


def _multiset(game: Game, cards: tuple[int, ...]) -> ReadOnlyDict:
    """Card keys and how many of each, in key order."""
    rank = game._key_rank
    counts = [0] * len(game._sorted_keys)
    for card in cards:
        counts[rank[card]] += 1
    return ReadOnlyDict({key: n for key, n in zip(game._sorted_keys, counts, strict=True) if n})


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
            "shared": [
                {
                    "seats": [k, (k + 1) % n],
                    "goal": goals[g].name,
                    "stat": goals[g].stat,
                    "amount": goals[g].amount,
                    "vp": goals[g].vp,
                }
                for k, g in enumerate(ext.goals)
            ],
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


def _tableau(
    state: State, seat: int, before: PlayerState | None, seen: ReadOnlyDict
) -> ReadOnlyDict:
    """The tableau view of ``seat``. ``seen`` is the view last built for that seat, from
    ``before``: the parts built from holdings the player still has (the very same tuple:
    a move changes one or two of them) are taken from it rather than built again."""
    game = state.game
    keys = game._card_keys
    player = state._players[seat]
    if before is not None and player.cats is before.cats:
        cats, cat_names = seen["cats"], seen["cat_names"]
    else:
        cats = ReadOnlyList([keys[c] for c in player.cats])
        cat_names = ReadOnlyList([game._card_names[c] for c in player.cats])
    if before is not None and player.hand is before.hand:
        hand, toys, costumes, catnip = seen["hand"], seen["toys"], seen["costumes"], seen["catnip"]
    else:
        hand, toys, costumes, catnip = _hand(game, player.hand)
    tableau = {
        "seat": seat,
        "cats": cats,
        "cat_names": cat_names,
        "strays": (
            seen["strays"]
            if before is not None and player.strays is before.strays
            else ReadOnlyList([game.edition.strays[s].name for s in player.strays])
        ),
        "food": (
            seen["food"]
            if before is not None and player.food is before.food
            else ReadOnlyDict(zip(game.food_tokens, player.food, strict=True))
        ),
        "hand": hand,
        "toys": toys,
        "costumes": costumes,
        "catnip": catnip,
        "lost_cats": player.lost_cats,
        "spray_bottles": player.sprays,
        "vp_tokens": player.vp_tokens,
    }
    if state._expansion is not None:
        tableau.update(
            {
                "boxes": ReadOnlyList([keys[c] for c in player.boxes]),
                "cat_brushes": player.brushes,
                "laser_pointers": player.lasers,
                "shopping_bags": player.bags,
                "cat_player": seat == game.cat_player_seat,
            }
        )
    return ReadOnlyDict(tableau)


def _hand(game: Game, hand: tuple[int, ...]) -> tuple[ReadOnlyList, ReadOnlyDict, int, int]:
    """A hand's card keys (sorted), toys by type, costumes and catnip."""
    toys, costumes, catnip = rules.hand_counts(game, hand)
    keys = game._card_keys
    return ReadOnlyList(sorted([keys[c] for c in hand])), ReadOnlyDict(toys), costumes, catnip
