"""The rules of Cat Lady as pure functions over :class:`engine.game.State`.

``setup`` deals a new game from a seed, ``legal_actions`` lists what the player to move
may do, ``check`` explains why an action is refused, ``apply`` returns the next state.
A state is never modified once it has been returned: ``apply`` works on a private copy.

The turn structure (rules version 1):

* Setup: the deck for the player count (marked cards removed) is shuffled, the data's
  random removals (2 cards at 2-3 players) go out unseen, 9 cards form the grid, the data's
  number of strays (3) are dealt face up. The player counter-clockwise
  of the starting player (seat ``n - 1``; seat 0 starts) places the cat token: that is the
  game's first decision, ``place-token <line>``.
* A turn: any number of spray bottles and lost-cat trades, exactly one ``take`` of a line
  the token does not block, any number of plays again, then ``end-turn``.
* Taking a line moves the token there and refills the line from the deck. When the deck
  holds fewer cards than the empty line needs, the game ends after that turn (the player
  may still play lost cats and sprays before ``end-turn``). With the base data the deck
  after the grid is always a multiple of 3 at every player count, so this is exactly the
  rulebook's "an empty line needs refilling and no cards remain"; with a club's own data a
  remainder of 1-2 cards is left unused.

Readings of points the rulebook leaves open (documented in docs/engine.md):

* a spray bottle must move the token to a different line (moving it nowhere is no play);
* lost cats buy a VP token only while tokens remain (6 in the base game);
* a taken stray is not replaced, so the face-up strays only shrink.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.actions import (
    LINE_SLOTS,
    Action,
    EndTurn,
    Line,
    LostCatsForStray,
    LostCatsForVP,
    PlaceToken,
    Spray,
    Take,
)
from engine.errors import IllegalActionError

if TYPE_CHECKING:
    from engine.game import Game, PlayerState, State

__all__ = [
    "AFTER_DRAFT",
    "BEFORE_DRAFT",
    "OVER",
    "PHASE_NAMES",
    "PLACE_TOKEN",
    "SplitMix64",
    "apply",
    "check",
    "legal_actions",
    "setup",
]

# Phases of play, kept as small ints because they are compared on every move.
PLACE_TOKEN, BEFORE_DRAFT, AFTER_DRAFT, OVER = 0, 1, 2, 3
PHASE_NAMES = ("place-token", "before-draft", "after-draft", "over")

GRID_SIZE = 9

# Card kind codes used in the hot loop (see Game._kind_codes).
CAT, FOOD, TOY, COSTUME, CATNIP, LOST_CAT, SPRAY_BOTTLE = range(7)

_MASK64 = (1 << 64) - 1


class SplitMix64:
    """A tiny seeded generator for the setup shuffle.

    Python's ``random`` module may change its algorithms between versions; match logs must
    replay identically forever, so the engine carries its own generator.

    >>> SplitMix64(7).below(10) == SplitMix64(7).below(10)
    True
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK64

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias)."""
        limit = _MASK64 - (_MASK64 + 1) % n
        while True:
            value = self.next64()
            if value <= limit:
                return value % n

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def setup(game: Game, seed: int) -> dict[str, object]:
    """The fields of a freshly dealt state (``Game.new_initial_state`` builds the state).

    The order of random draws is part of the rules version: main deck shuffle, then the
    stray deck shuffle.
    """
    rng = SplitMix64(seed)
    edition = game.edition
    counts = edition.player_counts[game.num_players]
    main = list(edition.deck_for_players(game.num_players))
    rng.shuffle(main)
    removed = tuple(main[:counts.random_removals])
    deck = tuple(main[counts.random_removals:])
    strays = list(range(len(edition.strays)))
    rng.shuffle(strays)
    return {
        "deck": deck,
        "pos": GRID_SIZE,
        "removed": removed,
        "grid": deck[:GRID_SIZE],
        "strays_up": tuple(strays[:counts.strays_dealt]),
        "strays_hidden": tuple(strays[counts.strays_dealt:]),
    }


def legal_actions(state: State) -> list[Action]:
    """Every action the player to move may take, in a stable order.

    Terminal states have none.
    """
    phase = state._phase
    game = state.game
    if phase == BEFORE_DRAFT:
        actions: list[Action] = list(game._take_actions[state._token])
    elif phase == AFTER_DRAFT:
        actions = [game._end_turn]
    elif phase == PLACE_TOKEN:
        return list(game._place_actions)
    else:
        return []
    player = state._players[state._current]
    if player.sprays:
        actions.extend(game._spray_actions[state._token])
    if player.lost_cats >= game._lost_cats_per_trade:
        stray_actions = game._stray_actions
        actions.extend(stray_actions[s] for s in state._strays_up)
        if state._vp_left:
            actions.append(game._lost_vp)
    return actions


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` saying why ``action`` is not legal here; else None."""
    phase = state._phase
    if phase == OVER:
        raise IllegalActionError(f"the game is over; {action} is not possible")
    kind = type(action)
    if kind is PlaceToken:
        if phase != PLACE_TOKEN:
            raise IllegalActionError("the cat token was already placed at setup")
        _require_line(action)
        return
    if phase == PLACE_TOKEN:
        raise IllegalActionError(
            f"seat {state._current} must first place the cat token (place-token <line>)"
        )
    player = state._players[state._current]
    if kind is Take:
        line = _require_line(action)
        if phase != BEFORE_DRAFT:
            raise IllegalActionError("you have already taken a line this turn")
        if line == state._token:
            raise IllegalActionError(f"{line} is blocked by the cat token")
    elif kind is EndTurn:
        if phase != AFTER_DRAFT:
            raise IllegalActionError("you must take a row or column before ending your turn")
    elif kind is Spray:
        line = _require_line(action)
        if not player.sprays:
            raise IllegalActionError("you have no spray bottle to play")
        if line == state._token:
            raise IllegalActionError(f"the cat token is already at {line}")
    elif kind is LostCatsForStray or kind is LostCatsForVP:
        needed = state.game._lost_cats_per_trade
        if player.lost_cats < needed:
            raise IllegalActionError(
                f"trading lost cats needs {needed} in hand; you hold {player.lost_cats}"
            )
        if kind is LostCatsForVP:
            if not state._vp_left:
                raise IllegalActionError("no VP tokens are left")
        else:
            assert isinstance(action, LostCatsForStray)
            index = state.game._stray_index.get(action.stray.casefold())
            if index is None or index not in state._strays_up:
                face_up = ", ".join(state.game.edition.strays[s].name for s in state._strays_up)
                raise IllegalActionError(
                    f"{action.stray!r} is not a face-up stray (face up: {face_up or 'none'})"
                )
    else:
        raise IllegalActionError(f"not a Cat Lady action: {action!r}")


def _require_line(action: Action) -> Line:
    line = getattr(action, "line", None)
    if not isinstance(line, Line):
        raise IllegalActionError(f"{action!r} does not name a line of the grid")
    return line


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalActionError` if it is not legal."""
    check(state, action)
    new = state._successor(action)
    kind = type(action)
    if kind is Take:
        _take(new, action.line)  # type: ignore[attr-defined]
    elif kind is EndTurn:
        if new._final:
            new._phase = OVER
            new._current = -1
        else:
            new._current = (new._current + 1) % new.game.num_players
            new._turn += 1
            new._phase = BEFORE_DRAFT
    elif kind is Spray:
        player = new._players[new._current]
        card = _first_of_kind(new, player.hand, SPRAY_BOTTLE)
        _set_player(new, player._replace(
            hand=_without(player.hand, card), sprays=player.sprays - 1))
        new._discard = new._discard + (card,)
        new._token = action.line  # type: ignore[attr-defined]
    elif kind is PlaceToken:
        new._token = action.line  # type: ignore[attr-defined]
        new._phase = BEFORE_DRAFT
        new._current = 0
        new._turn = 1
    else:
        _trade_lost_cats(new, action)
    return new


def _take(new: State, line: Line) -> None:
    game = new.game
    kinds = game._kind_codes
    gains = game._food_gains
    grid = list(new._grid)
    player = new._players[new._current]
    cats = player.cats
    hand = player.hand
    food = player.food
    lost_cats = player.lost_cats
    sprays = player.sprays
    discard = new._discard
    slots = LINE_SLOTS[line]
    for slot in slots:
        card = grid[slot]
        assert card is not None  # the game ends before an empty line could be taken
        kind = kinds[card]
        if kind == CAT:
            cats = cats + (card,)
        elif kind == FOOD:
            food = tuple(have + gain for have, gain in zip(food, gains[card], strict=True))
            discard = discard + (card,)  # a food card is discarded for its tokens
        else:
            hand = hand + (card,)
            if kind == LOST_CAT:
                lost_cats += 1
            elif kind == SPRAY_BOTTLE:
                sprays += 1
    new._set_player_fields(cats, hand, food, lost_cats, sprays)
    new._discard = discard
    new._token = line
    deck = new._deck
    pos = new._pos
    if pos + 3 <= len(deck):
        for offset, slot in enumerate(slots):
            grid[slot] = deck[pos + offset]
        new._pos = pos + 3
    else:
        for slot in slots:
            grid[slot] = None
        new._final = True
    new._grid = tuple(grid)
    new._phase = AFTER_DRAFT


def _trade_lost_cats(new: State, action: Action) -> None:
    player = new._players[new._current]
    needed = new.game._lost_cats_per_trade
    hand = player.hand
    traded = []
    for _ in range(needed):
        card = _first_of_kind(new, hand, LOST_CAT)
        hand = _without(hand, card)
        traded.append(card)
    new._discard = new._discard + tuple(traded)
    lost_cats = player.lost_cats - needed
    if type(action) is LostCatsForVP:
        new._vp_left -= 1
        _set_player(new, player._replace(
            hand=hand, lost_cats=lost_cats, vp_tokens=player.vp_tokens + 1))
    else:
        assert isinstance(action, LostCatsForStray)
        stray = new.game._stray_index[action.stray.casefold()]
        new._strays_up = tuple(s for s in new._strays_up if s != stray)
        _set_player(new, player._replace(
            hand=hand, lost_cats=lost_cats, strays=player.strays + (stray,)))


def _first_of_kind(state: State, hand: Sequence[int], kind: int) -> int:
    kinds = state.game._kind_codes
    for card in hand:
        if kinds[card] == kind:
            return card
    raise AssertionError("hand counters out of step with the hand")  # pragma: no cover


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _set_player(new: State, player: PlayerState) -> None:
    players = list(new._players)
    players[new._current] = player
    new._players = tuple(players)
