"""Cat Lady states that were not dealt from a seed: a full state consistent with what one
seat observes (for determinising bots), and positions set up by hand (tests, puzzles,
teaching). Each function's docstring shows it at work.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.catlady import rules
from engine.catlady.actions import Line
from engine.catlady.game import Expansion, Game, PlayerState, State
from engine.errors import EngineError

__all__ = ["sample_state", "state_from_position"]


def sample_state(game: Game, observation: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with ``observation``: the unseen cards dealt in a random order
    (the first ``removed_unseen`` of them out of the game), for determinised search.

    >>> from engine import load_game
    >>> game = load_game(options={"players": 3})
    >>> state = game.new_initial_state(5)
    >>> guess = sample_state(game, state.observation(0), random.Random(1))
    >>> guess.observation(0) == state.observation(0)
    True

    Raises :class:`EngineError` for another game's observation, or one that does not fit
    the game's cards.
    """
    if observation.get("game") != game.name:
        raise EngineError(
            f"sample_state needs a {game.name} observation, not {observation.get('game')!r}"
        )
    state, unseen = _public_part(game, observation)
    if len(unseen) != observation["deck_size"] + observation["removed_unseen"]:
        raise EngineError("observation's unseen cards do not add up to the deck and removals")
    rng.shuffle(unseen)
    removed_count = observation["removed_unseen"]
    state._deck = tuple(unseen[removed_count:])
    state._removed = tuple(unseen[:removed_count])
    if state._expansion is not None and state._expansion.turn_deck:
        order = list(state._expansion.turn_deck)
        rng.shuffle(order)
        state._expansion = state._expansion._replace(turn_deck=tuple(order))
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
    full: dict[str, Any] = {  # the observation JSON shape, so values of any JSON type
        "grid": [None] * 9,
        "token": None,
        "strays": [
            s.name for s in edition.strays[: edition.player_counts[game.num_players].strays_dealt]
        ],
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
    game: Game, observation: Mapping[str, Any], *, fill: bool = False
) -> tuple[State, list[int]]:
    """A state holding the observation's public cards, and the cards it does not place."""
    deck = game.edition.deck
    pool: dict[str, list[int]] = {}
    for index in reversed(game.edition.deck_for_players(game.num_players)):
        pool.setdefault(deck[index].key, []).append(index)

    def take(key: str) -> int:
        cards = pool.get(key)
        if not cards:
            raise EngineError(f"more {key!r} cards than this deck holds")
        return cards.pop()

    stray_keys = {s.key: i for i, s in enumerate(game.edition.strays)}

    def grid_card(key: str) -> int:
        if key in stray_keys:  # a stray a cat brush put in the grid
            return game._deck_len + stray_keys[key]
        return take(key)

    grid_keys = observation["grid"]
    if len(grid_keys) != 9:
        raise EngineError("the grid has 9 slots")
    grid: list[int | None] = [None if key is None else grid_card(key) for key in grid_keys]
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
        players.append(
            PlayerState(
                cats=tuple(take(key) for key in tab["cats"]),
                strays=strays,
                food=tuple(int(tab["food"].get(token, 0)) for token in game.food_tokens),
                hand=hand,
                lost_cats=kinds.count(rules.LOST_CAT),
                sprays=kinds.count(rules.SPRAY_BOTTLE),
                vp_tokens=int(tab["vp_tokens"]),
                boxes=tuple(take(key) for key in tab.get("boxes", [])),
                brushes=kinds.count(rules.CAT_BRUSH),
                lasers=kinds.count(rules.LASER_POINTER),
                bags=kinds.count(rules.SHOPPING_BAG),
            )
        )
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
    state._history = None
    state._result = None
    state._view = None
    state._expansion = _expansion_part(game, observation)
    return state, unseen


def _expansion_part(game: Game, observation: Mapping[str, Any]) -> Any:
    if not game.expansion:
        return None
    edition = game.edition
    goal_index = {g.name: i for i, g in enumerate(edition.goals)}
    ext = Expansion()
    goals = observation.get("goals")
    if goals:
        try:
            ext = ext._replace(
                goals=tuple(goal_index[g["goal"]] for g in goals["shared"]),
                goal_pool=tuple(goal_index[name] for name in goals["pool"]),
                swapped=bool(goals.get("swapped_this_turn", False)),
            )
        except KeyError as exc:
            raise EngineError(f"unknown shared goal {exc.args[0]!r}") from None
    elif game.shared_goals:
        n = game.num_players
        ext = ext._replace(goals=tuple(range(n)), goal_pool=tuple(range(n, n + 2)))
    sol = observation.get("solitaire")
    if game.solitaire and edition.solitaire is not None:
        cards = edition.solitaire.turn_cards
        keys = [c.key for c in cards]
        sol = sol or {}
        current = sol.get("turn_card")
        turn_card = keys.index(current["key"]) if current else -1
        discard = [keys.index(k) for k in sol.get("turn_discard", [])]
        left = list(range(len(cards)))
        for k in [*discard, *([turn_card] if turn_card >= 0 else [])]:
            left.remove(k)
        starting_names = [c.name for c in edition.solitaire.starting_cards]
        ext = ext._replace(
            turn_deck=tuple(left),
            turn_discard=tuple(discard),
            turn_card=turn_card,
            reshuffles=int(sol.get("reshuffles", 0)),
            starting=tuple(starting_names.index(n) for n in sol.get("starting_cards", [])),
            cat_choice=tuple(int(Line.parse(x)) for x in sol.get("cat_choice", [])),
        )
    return ext
