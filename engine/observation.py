"""What one seat may know about a state, and sampling full states consistent with it.

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

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from engine import rules
from engine.actions import Line
from engine.cards import FOOD_TOKENS
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.game import Game, State

__all__ = ["OBSERVATION_SCHEMA", "observe", "sample_state", "state_from_position"]

OBSERVATION_SCHEMA = "catleague.engine-observation/1"


def observe(state: State, seat: int) -> dict[str, Any]:
    """The JSON observation of ``seat`` (see the module docstring and docs/engine.md).

    Raises :class:`EngineError` for a seat that is not in the game.
    """
    game = state.game
    if not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise EngineError(f"seat must be 0..{game.num_players - 1}, not {seat!r}")
    deck = game.edition.deck
    hidden = state._deck[state._pos:] + state._removed
    to_move = state._current == seat
    return {
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
        "grid": [None if card is None else deck[card].key for card in state._grid],
        "strays": list(state.face_up_strays),
        "vp_tokens_left": state._vp_left,
        "deck_size": state.deck_size,
        "removed_unseen": len(state._removed),
        "unseen": _multiset(deck[card].key for card in hidden),
        "discard": _multiset(deck[card].key for card in state._discard),
        "tableaux": [_tableau(state, s) for s in range(game.num_players)],
        "legal_actions": [str(a) for a in state.legal_actions()] if to_move else [],
    }


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
    return {
        "seat": seat,
        "cats": [deck[c].key for c in player.cats],
        "cat_names": [deck[c].name for c in player.cats],
        "strays": [game.edition.strays[s].name for s in player.strays],
        "food": dict(zip(FOOD_TOKENS, player.food, strict=True)),
        "hand": sorted(deck[c].key for c in player.hand),
        "toys": toys,
        "costumes": costumes,
        "catnip": catnip,
        "lost_cats": player.lost_cats,
        "spray_bottles": player.sprays,
        "vp_tokens": player.vp_tokens,
    }


def sample_state(game: Game, observation: dict[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``observation``: the unseen cards dealt in a random order
    (the first ``removed_unseen`` of them out of the game), for determinised search.

    >>> from engine import load_game
    >>> game = load_game(options={"players": 3})
    >>> state = game.new_initial_state(5)
    >>> guess = sample_state(game, state.observation(0), random.Random(1))
    >>> guess.observation(0) == state.observation(0)
    True

    Raises :class:`EngineError` if the observation does not fit the game's cards.
    """
    state, unseen = _public_part(game, observation)
    if len(unseen) != observation["deck_size"] + observation["removed_unseen"]:
        raise EngineError("observation's unseen cards do not add up to the deck and removals")
    rng.shuffle(unseen)
    removed_count = observation["removed_unseen"]
    state._deck = tuple(unseen[removed_count:])
    state._removed = tuple(unseen[:removed_count])
    return state


def state_from_position(game: Game, position: dict[str, Any]) -> State:
    """A state set up by hand, for tests, puzzles and teaching positions.

    ``position`` uses the observation's keys, all optional: ``grid`` (9 card keys, row by
    row), ``token``, ``strays`` (face-up names; default: the edition's first three),
    ``tableaux`` (per seat: ``cats``, ``strays``, ``food``, ``hand``, ``vp_tokens``),
    ``discard`` (key -> count), ``current_player`` (0), ``phase`` ("before-draft"),
    ``turn`` (1), ``vp_tokens_left``. Two more give the hidden part: ``deck`` (card keys
    drawn first, in order; the other unused cards follow in data order) and ``deck_size``
    (cut the deck to this size; the cut cards count as removed unseen). Every card of the
    deck for the player count ends up somewhere exactly once.

    >>> from engine import load_game
    >>> game = load_game(options={"players": 2})
    >>> state = state_from_position(game, {"token": "row 3", "deck_size": 3})
    >>> state.deck_size, str(state.token), state.current_player
    (3, 'row 3', 0)

    Raises :class:`EngineError` when the position uses more copies of a card than exist.
    """
    edition = game.edition
    full = {
        "grid": [None] * 9,
        "token": None,
        "strays": [s.name for s in edition.strays[: edition.player_counts[game.num_players].strays_dealt]],
        "tableaux": [],
        "discard": {},
        "current_player": 0,
        "phase": "before-draft",
        "turn": 1,
        "vp_tokens_left": game.vp_tokens,
    }
    full.update({k: v for k, v in position.items() if k not in ("deck", "deck_size")})
    empty_tableau = {"cats": [], "strays": [], "food": {}, "hand": [], "vp_tokens": 0}
    full["tableaux"] = [
        {**empty_tableau, **(full["tableaux"][seat] if seat < len(full["tableaux"]) else {})}
        for seat in range(game.num_players)
    ]
    explicit_deck = list(position.get("deck", []))
    # Cards the grid leaves empty are filled from the deck order like a real deal would.
    state, unused = _public_part(game, full, fill=True)
    deck = []
    for key in explicit_deck:
        for i, card in enumerate(unused):
            if edition.deck[card].key == key:
                deck.append(unused.pop(i))
                break
        else:
            raise EngineError(f"position's deck asks for more {key!r} cards than remain")
    deck.extend(unused)
    size = position.get("deck_size", len(deck))
    if not 0 <= size <= len(deck):
        raise EngineError(f"deck_size {size} is more than the {len(deck)} cards that remain")
    state._deck = tuple(deck[:size])
    state._removed = tuple(deck[size:])
    return state


def _public_part(
    game: Game, observation: dict[str, Any], *, fill: bool = False
) -> tuple[State, list[int]]:
    """A state holding the observation's public cards, and the cards it does not place."""
    from engine.game import PlayerState, State

    deck = game.edition.deck
    pool: dict[str, list[int]] = {}
    for index in reversed(game.edition.deck_for_players(game.num_players)):
        pool.setdefault(deck[index].key, []).append(index)

    def take(key: str) -> int:
        cards = pool.get(key)
        if not cards:
            raise EngineError(f"more {key!r} cards than this deck holds")
        return cards.pop()

    grid_keys = observation["grid"]
    if len(grid_keys) != 9:
        raise EngineError("the grid has 9 slots")
    grid: list[int | None] = [None if key is None else take(key) for key in grid_keys]
    stray_index = game._stray_index

    def stray(name: str) -> int:
        index = stray_index.get(name.casefold())
        if index is None:
            raise EngineError(f"no stray cat is called {name!r}")
        return index

    players = []
    taken_strays: set[int] = set()
    for tab in observation["tableaux"]:
        hand = tuple(take(key) for key in tab["hand"])
        kinds = [game._kind_codes[c] for c in hand]
        strays = tuple(stray(name) for name in tab["strays"])
        taken_strays.update(strays)
        players.append(PlayerState(
            cats=tuple(take(key) for key in tab["cats"]),
            strays=strays,
            food=tuple(int(tab["food"].get(token, 0)) for token in FOOD_TOKENS),
            hand=hand,
            lost_cats=kinds.count(rules.LOST_CAT),
            sprays=kinds.count(rules.SPRAY_BOTTLE),
            vp_tokens=int(tab["vp_tokens"]),
        ))
    discard = tuple(take(key) for key, n in observation["discard"].items() for _ in range(n))
    unseen = [card for cards in pool.values() for card in reversed(cards)]
    unseen.sort()
    if fill:
        for slot, card in enumerate(grid):
            if card is None:
                grid[slot] = unseen.pop(0)
    strays_up = tuple(stray(name) for name in observation["strays"])
    shown = set(strays_up) | taken_strays
    token = observation["token"]

    state = State.__new__(State)
    state.game = game
    state.seed = -1  # never dealt from a seed
    state._deck = ()
    state._pos = 0
    state._removed = ()
    state._grid = tuple(grid)
    state._strays_up = strays_up
    state._strays_hidden = tuple(s for s in range(len(game.edition.strays)) if s not in shown)
    state._token = -1 if token is None else int(Line.parse(token))
    state._vp_left = int(observation["vp_tokens_left"])
    state._players = tuple(players)
    state._discard = discard
    state._current = int(observation["current_player"])
    state._phase = rules.PHASE_NAMES.index(observation["phase"])
    state._turn = int(observation["turn"])
    state._final = None in grid
    state._hist = None
    state._result = None
    return state, unseen
