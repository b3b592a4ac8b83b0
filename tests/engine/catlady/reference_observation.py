"""A frozen copy of ``engine.catlady.observation.observe`` before observations were built
incrementally (commit 6375dd5): the oracle of tests/engine/catlady/test_observation.py.
Do not change its logic; it reads the state's private fields (only their names have followed
renames since).

What one seat may know about a state, and sampling full states consistent with it.

Every card a player takes is taken face up from the grid, so a player with perfect memory
knows every opponent's cats, food tokens and hand cards (toys, costumes, catnip, lost cats,
spray bottles) as well as the discard pile. The observation therefore shows all of them.
It never shows the order of the deck, which cards were removed unseen at setup, or the
stray cats that were not dealt face up; what is not yet seen is given only as a multiset
(``unseen``: the deck and the removed cards together), which is what a determinising bot
needs.

"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.catlady import rules
from engine.catlady.actions import Line
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.catlady.game import State

__all__ = ["observe"]

OBSERVATION_SCHEMA = "catleague.engine-observation/1"


def observe(state: State, seat: int) -> dict[str, Any]:
    """The JSON observation of ``seat`` (see the module docstring and docs/engine.md).

    Raises :class:`EngineError` for a seat that is not in the game.
    """
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise EngineError(f"seat must be 0..{game.num_players - 1}, not {seat!r}")
    deck = game.edition.deck
    hidden = state._deck[state._pos :] + state._removed
    to_move = state._current == seat
    obs = {
        "schema": OBSERVATION_SCHEMA,
        "game": game.name,
        "version": game.version,
        "edition": game.edition.name,
        "data_version": game.edition.version,
        "options": dict(game.options),
        "players": game.num_players,
        "seat": seat,
        "current_player": state._current,
        "phase": state.phase,
        "turn": state._turn,
        "token": None if state._token < 0 else str(Line(state._token)),
        "grid": [None if card is None else game.card_key(card) for card in state._grid],
        "strays": list(state.face_up_strays),
        "vp_tokens_left": state._vp_left,
        "deck_size": state.deck_size,
        "removed_unseen": len(state._removed),
        "unseen": _multiset(deck[card].key for card in hidden),
        "discard": _multiset(deck[card].key for card in state._discard),
        "tableaux": [_tableau(state, s) for s in range(game.num_players)],
        "legal_actions": [str(a) for a in state.legal_actions()] if to_move else [],
    }
    if state._expansion is not None:
        obs.update(_expansion_view(state))
    return obs


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


def _multiset(keys: Any) -> dict[str, int]:
    return dict(sorted(Counter(keys).items()))


def _tableau(state: State, seat: int) -> dict[str, Any]:
    game = state.game
    deck = game.edition.deck
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
        "cats": [deck[c].key for c in player.cats],
        "cat_names": [deck[c].name for c in player.cats],
        "strays": [game.edition.strays[s].name for s in player.strays],
        "food": dict(zip(game.food_tokens, player.food, strict=True)),
        "hand": sorted(deck[c].key for c in player.hand),
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
                "boxes": [deck[c].key for c in player.boxes],
                "cat_brushes": player.brushes,
                "laser_pointers": player.lasers,
                "shopping_bags": player.bags,
                "cat_player": seat == game.cat_player_seat,
            }
        )
    return tableau
