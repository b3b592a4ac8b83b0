"""The rules of Cat Lady as pure functions over :class:`engine.catlady.game.State`.

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

from engine.catlady import actions
from engine.catlady.actions import LINE_SLOTS, Action, Line
from engine.catlady.model import SHOPPING_BAG_FOOD, Expansion, PlayerState
from engine.errors import IllegalActionError
from engine.splitmix import MASK64, SplitMix64

if TYPE_CHECKING:
    from engine.catlady.game import Game, State

__all__ = [
    "AFTER_DRAFT",
    "BEFORE_DRAFT",
    "OVER",
    "PHASE_NAMES",
    "PLACE_TOKEN",
    "apply",
    "check",
    "hand_counts",
    "legal_actions",
    "setup",
]

# Phases of play, kept as small ints because they are compared on every move.
PLACE_TOKEN, BEFORE_DRAFT, AFTER_DRAFT, OVER, CAT_TURN = 0, 1, 2, 3, 4
PHASE_NAMES = ("place-token", "before-draft", "after-draft", "over", "cat-turn")

GRID_SIZE = 9

# Card kind codes used in the hot loop (see Game._kind_codes).
CAT, FOOD, TOY, COSTUME, CATNIP, LOST_CAT, SPRAY_BOTTLE = range(7)
BOX, CAT_BRUSH, LASER_POINTER, SHOPPING_BAG = range(7, 11)  # Box of Treats


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
    removed = tuple(main[: counts.random_removals])
    deck = tuple(main[counts.random_removals :])
    strays = list(range(len(edition.strays)))
    rng.shuffle(strays)
    # Solitaire deals 2 strays (RB-BOT); Biddy goes back when goals are not used (RB-BOT).
    dealt = 2 if game.solitaire else counts.strays_dealt
    up = [s for s in strays if game.shared_goals or not edition.strays[s].requires_goals][:dealt]
    fields: dict[str, object] = {
        "deck": deck,
        "pos": GRID_SIZE,
        "removed": removed,
        "grid": deck[:GRID_SIZE],
        "strays_up": tuple(up),
        "strays_hidden": tuple(s for s in strays if s not in up),
    }
    # Draws for the expansions come after the base game's, so base deals never change.
    if game.shared_goals:
        order = list(range(len(edition.goals)))
        rng.shuffle(order)
        n = game.num_players
        fields["ext"] = Expansion(goals=tuple(order[:n]), goal_pool=tuple(order[n : n + 2]))
    elif game.solitaire:
        assert edition.solitaire is not None
        starting = list(range(len(edition.solitaire.starting_cards)))
        rng.shuffle(starting)
        turn = list(range(len(edition.solitaire.turn_cards)))
        rng.shuffle(turn)
        fields["ext"] = Expansion(
            turn_deck=tuple(turn), starting=tuple(starting[: game.starting_cards])
        )
    elif game.expansion:
        fields["ext"] = Expansion()
    return fields


def start_solitaire(state: State, seed: int) -> None:
    """Solitaire setup after the deal (RB-BOT): the starting cards' extra stray, the cat
    token above the left column, and the cat player's first turn."""
    game = state.game
    ext = state._expansion
    assert ext is not None and game.edition.solitaire is not None
    cards = game.edition.solitaire.starting_cards
    extra = sum(int(cards[k].effect.get("extra_strays", 0)) for k in ext.starting)
    if extra:
        unused = [s for s in state._strays_hidden if not game.edition.strays[s].requires_goals]
        given = tuple(unused[:extra])
        cat = state._players[1]
        players = list(state._players)
        players[1] = cat._replace(strays=cat.strays + given)
        state._players = tuple(players)
        state._strays_hidden = tuple(s for s in state._strays_hidden if s not in given)
    state._token = Line.COL_1
    state._turn = 1
    _begin_cat_turn(state)


def _begin_cat_turn(state: State) -> None:
    """Reveal the next turn card; the cat player (seat 1) takes the line it names, or the
    human (seat 0) chooses among tied lines (RB-BOT: "you choose")."""
    ext = state._expansion
    assert ext is not None
    deck, discard, reshuffles = ext.turn_deck, ext.turn_discard, ext.reshuffles
    if not deck:  # only with turn cards that lack a Cat Token card
        deck, discard, reshuffles = _reshuffle(state, discard, reshuffles)
    card = deck[0]
    lines = cat_candidates(state, card)
    state._expansion = ext._replace(
        turn_deck=deck[1:],
        turn_discard=discard,
        turn_card=card,
        reshuffles=reshuffles,
        cat_choice=lines,
    )
    state._phase = CAT_TURN
    state._current = 1 if len(lines) == 1 else 0


def _reshuffle(
    state: State,
    cards: tuple[int, ...],
    reshuffles: int,
) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    # Each reshuffle has its own generator derived from the seed and its number, so a
    # replay reshuffles identically.
    rng = SplitMix64((state.seed * 0x9E3779B97F4A7C15 + 0xC47 * (reshuffles + 1)) & MASK64)
    order = sorted(cards)
    rng.shuffle(order)
    return tuple(order), (), reshuffles + 1


def cat_candidates(state: State, card: int) -> tuple[int, ...]:
    """The lines the cat player may take for turn card ``card`` (RB-BOT): the line(s) with
    the most of the card's type; the arrow's line when no line has any; a tie between a row
    and a column goes to the arrow's kind of line; the Cat Token card takes the token's line.
    """
    game = state.game
    assert game.edition.solitaire is not None
    turn = game.edition.solitaire.turn_cards[card]
    if turn.kind == "cat_token":
        return (int(state._token),)
    arrow = Line.parse(str(turn.arrow))
    values = [_line_value(state, line, turn.kind) for line in Line]
    best = max(values)
    if best <= 0:
        return (int(arrow),)
    tied = [line for line in Line if values[line] == best]
    if any(line.axis == "row" for line in tied) and any(line.axis == "col" for line in tied):
        tied = [line for line in tied if line.axis == arrow.axis]
    return tuple(int(line) for line in tied)


def _line_value(state: State, line: Line, kind: str) -> int:
    game = state.game
    edition = game.edition
    kinds = game._kind_codes
    cards = [state._grid[s] for s in line.slots]
    if kind == "most_toys":
        return sum(1 for c in cards if c is not None and kinds[c] == TOY)
    if kind == "most_catnip":
        return sum(1 for c in cards if c is not None and kinds[c] == CATNIP)
    if kind == "most_6vp_cats":
        # RB-BOT: only cats worth 6 VP count; a line of smaller cats does not qualify.
        count = 0
        for c in cards:
            if c is not None and kinds[c] == CAT:
                spec = (
                    edition.deck[c].cat
                    if c < len(edition.deck)
                    else edition.strays[c - len(edition.deck)]
                )
                if spec is not None and (spec.vp or 0) >= 6:
                    count += 1
        return count
    if kind == "most_food":
        # RB-BOT: a line must provide at least 2 food tokens (chicken & tuna gives 2).
        tokens = sum(sum(game._food_gains[c]) for c in cards if c is not None)
        return tokens if tokens >= 2 else 0
    raise AssertionError(kind)  # pragma: no cover - the data is checked


def hand_counts(game: Game, hand: Sequence[int]) -> tuple[dict[str, int], int, int]:
    """What a hand holds that scores: toys by type (every type, 0 included), costumes and
    catnip (the tableau scoring reads and the tableau an observation shows)."""
    deck = game.edition.deck
    kinds = game._kind_codes
    toys = dict.fromkeys(game.edition.toy_types, 0)
    costumes = catnip = 0
    for card in hand:
        kind = kinds[card]
        if kind == TOY:
            toys[deck[card].toy] += 1  # type: ignore[index]
        elif kind == COSTUME:
            costumes += 1
        elif kind == CATNIP:
            catnip += 1
    return toys, costumes, catnip


def legal_actions(state: State) -> list[Action]:
    """Every action the player to move may take, in a stable order.

    Terminal states have none.
    """
    phase = state._phase
    game = state.game
    if phase == BEFORE_DRAFT:
        legal: list[Action] = list(game._take_actions[state._token])
    elif phase == AFTER_DRAFT:
        legal = [game._end_turn]
    elif phase == PLACE_TOKEN:
        return list(game._place_actions)
    elif phase == CAT_TURN:
        assert state._expansion is not None
        return [game._cat_take_actions[line] for line in state._expansion.cat_choice]
    else:
        return []
    player = state._players[state._current]
    if player.sprays:
        legal.extend(game._spray_actions[state._token])
    if player.lost_cats >= game._lost_cats_per_trade:
        stray_actions = game._stray_actions
        legal.extend(stray_actions[s] for s in state._strays_up)
        if state._vp_left:
            legal.append(game._lost_vp)
    if state._expansion is not None:
        legal.extend(_expansion_actions(state, player, phase))
    return legal


def _expansion_actions(state: State, player: PlayerState, phase: int) -> list[Action]:
    game = state.game
    legal: list[Action] = []
    if player.brushes and (player.cats or player.strays):
        own = list(
            dict.fromkeys(
                [game.card_name(c) for c in player.cats]
                + [game.edition.strays[s].name for s in player.strays]
            )
        )
        for slot, card in enumerate(state._grid):
            if card is not None and game._kind_codes[card] == CAT:
                legal.extend(actions.Brush(slot + 1, name) for name in own)
    if player.lasers and phase == BEFORE_DRAFT and None not in state._grid:
        legal.extend(game._laser_actions)
    if player.bags:
        legal.append(game._shopping_bag)
    ext = state._expansion
    assert ext is not None
    if ext.goals and not ext.swapped:
        goals = game.edition.goals
        pool = list(dict.fromkeys(goals[g].name for g in ext.goal_pool))
        for partner in ("next", "prev"):
            legal.extend(actions.SwapGoal(partner, name) for name in pool)
    return legal


def check(state: State, action: Action) -> None:
    """Raise :class:`IllegalActionError` saying why ``action`` is not legal here; else None."""
    phase = state._phase
    if phase == OVER:
        raise IllegalActionError(f"the game is over; {action} is not possible")
    kind = type(action)
    if kind is actions.PlaceToken:
        if phase != PLACE_TOKEN:
            raise IllegalActionError("the cat token was already placed at setup")
        _require_line(action)
        return
    if phase == PLACE_TOKEN:
        raise IllegalActionError(
            f"seat {state._current} must first place the cat token (place-token <line>)"
        )
    if kind is actions.CatTake or phase == CAT_TURN:
        _check_cat_take(state, action)
        return
    player = state._players[state._current]
    if kind is actions.Take:
        line = _require_line(action)
        if phase != BEFORE_DRAFT:
            raise IllegalActionError("you have already taken a line this turn")
        if line == state._token:
            raise IllegalActionError(f"{line} is blocked by the cat token")
    elif kind is actions.EndTurn:
        if phase != AFTER_DRAFT:
            raise IllegalActionError("you must take a row or column before ending your turn")
    elif kind is actions.Spray:
        line = _require_line(action)
        if not player.sprays:
            raise IllegalActionError("you have no spray bottle to play")
        if line == state._token:
            raise IllegalActionError(f"the cat token is already at {line}")
    elif kind is actions.LostCatsForStray or kind is actions.LostCatsForVP:
        needed = state.game._lost_cats_per_trade
        if player.lost_cats < needed:
            raise IllegalActionError(
                f"trading lost cats needs {needed} in hand; you hold {player.lost_cats}"
            )
        if kind is actions.LostCatsForVP:
            if not state._vp_left:
                raise IllegalActionError("no VP tokens are left")
        else:
            assert isinstance(action, actions.LostCatsForStray)
            index = state.game._stray_index.get(action.stray.casefold())
            if index is None or index not in state._strays_up:
                face_up = ", ".join(state.game.edition.strays[s].name for s in state._strays_up)
                raise IllegalActionError(
                    f"{action.stray!r} is not a face-up stray (face up: {face_up or 'none'})"
                )
    elif (
        kind is actions.Brush
        or kind is actions.Laser
        or kind is actions.ShoppingBag
        or kind is actions.SwapGoal
    ):
        _check_expansion(state, player, action)
    else:
        raise IllegalActionError(f"not a Cat Lady action: {action!r}")


def _check_cat_take(state: State, action: Action) -> None:
    if state._phase != CAT_TURN:
        raise IllegalActionError("only the solitaire cat player takes lines with cat-take")
    if type(action) is not actions.CatTake:
        raise IllegalActionError(
            f"it is the cat player's turn: choose its line with cat-take, not {action}"
        )
    ext = state._expansion
    assert ext is not None
    line = _require_line(action)
    if int(line) not in ext.cat_choice:
        card = state.game.edition.solitaire.turn_cards[ext.turn_card]  # type: ignore[union-attr]
        allowed = ", ".join(str(Line(x)) for x in ext.cat_choice)
        raise IllegalActionError(
            f"the turn card {card.name!r} sends the cat player to {allowed}, not {line}"
        )


def _check_expansion(state: State, player: PlayerState, action: Action) -> None:
    game = state.game
    if state._expansion is None:
        raise IllegalActionError(f"{action}: this game has no Box of Treats cards")
    if isinstance(action, actions.Brush):
        if not player.brushes:
            raise IllegalActionError("you have no cat brush to play")
        card = state._grid[action.slot - 1]
        if card is None or game._kind_codes[card] != CAT:
            raise IllegalActionError(f"grid slot {action.slot} holds no cat to brush")
        if _own_cat(state, player, action.cat) is None:
            raise IllegalActionError(f"you have no cat called {action.cat!r} to swap")
    elif isinstance(action, actions.Laser):
        if not player.lasers:
            raise IllegalActionError("you have no laser pointer to play")
        if state._phase != BEFORE_DRAFT:
            raise IllegalActionError(
                "a laser pointer takes up your whole turn: play it instead of drafting a line"
            )
        slots = (*action.take, action.discard)
        if len(set(slots)) != 3:
            raise IllegalActionError(f"{action}: take two different cards and discard a third")
        if any(state._grid[s - 1] is None for s in slots):
            raise IllegalActionError(f"{action}: a chosen grid slot is empty")
    elif isinstance(action, actions.ShoppingBag):
        if not player.bags:
            raise IllegalActionError("you have no shopping bag to play")
    elif isinstance(action, actions.SwapGoal):
        ext = state._expansion
        if not ext.goals:
            raise IllegalActionError("this game is played without shared goals")
        if ext.swapped:
            raise IllegalActionError("you have already swapped a goal this turn")
        if action.partner not in ("next", "prev"):
            raise IllegalActionError(f"partner is 'next' or 'prev', not {action.partner!r}")
        if not any(game.edition.goals[g].name == action.goal for g in ext.goal_pool):
            pool = ", ".join(game.edition.goals[g].name for g in ext.goal_pool)
            raise IllegalActionError(f"{action.goal!r} is not in the pool (pool: {pool})")


def _own_cat(state: State, player: PlayerState, name: str) -> tuple[str, int] | None:
    game = state.game
    for card in player.cats:
        if game.card_name(card) == name:
            return ("cat", card)
    for stray in player.strays:
        if game.edition.strays[stray].name == name:
            return ("stray", stray)
    return None


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
    if kind is actions.Take:
        _take(new, action.line)  # type: ignore[attr-defined]
    elif kind is actions.EndTurn:
        if new._final:
            new._phase = OVER
            new._current = -1
        else:
            new._current = (new._current + 1) % new.game.num_players
            new._turn += 1
            new._phase = BEFORE_DRAFT
            if new._expansion is not None:
                if new._expansion.swapped:
                    new._expansion = new._expansion._replace(swapped=False)
                if new._current == new.game.cat_player_seat:
                    _begin_cat_turn(new)
    elif kind is actions.Spray:
        player = new._players[new._current]
        card = _first_of_kind(new, player.hand, SPRAY_BOTTLE)
        _set_player(
            new, player._replace(hand=_without(player.hand, card), sprays=player.sprays - 1)
        )
        new._discard = new._discard + (card,)
        new._token = action.line  # type: ignore[attr-defined]
    elif kind is actions.PlaceToken:
        new._token = action.line  # type: ignore[attr-defined]
        new._phase = BEFORE_DRAFT
        new._current = 0
        new._turn = 1
    elif kind is actions.LostCatsForStray or kind is actions.LostCatsForVP:
        _trade_lost_cats(new, action)
    elif kind is actions.CatTake:
        _cat_turn(new, action.line)  # type: ignore[attr-defined]
    elif kind is actions.Brush:
        _brush(new, action)  # type: ignore[arg-type]
    elif kind is actions.Laser:
        _laser(new, action)  # type: ignore[arg-type]
    elif kind is actions.ShoppingBag:
        _shopping_bag(new)
    else:
        _swap_goal(new, action)  # type: ignore[arg-type]
    return new


def _take(new: State, line: Line) -> None:
    game = new.game
    kinds = game._kind_codes
    gains = game._food_gains
    deck_len = game._deck_len
    grid = list(new._grid)
    player = new._players[new._current]
    cats = player.cats
    hand = player.hand
    food = player.food
    lost_cats = player.lost_cats
    sprays = player.sprays
    discard = new._discard
    slots = LINE_SLOTS[line]
    special = []
    for slot in slots:
        card = grid[slot]
        assert card is not None  # the game ends before an empty line could be taken
        kind = kinds[card]
        if kind == CAT:
            if card < deck_len:
                cats = cats + (card,)
            else:
                special.append(card)  # a stray a cat brush put in the grid
        elif kind == FOOD:
            food = tuple(have + gain for have, gain in zip(food, gains[card], strict=True))
            discard = discard + (card,)  # a food card is discarded for its tokens
        elif kind >= BOX:
            special.append(card)
        else:
            hand = hand + (card,)
            if kind == LOST_CAT:
                lost_cats += 1
            elif kind == SPRAY_BOTTLE:
                sprays += 1
    new._set_player_fields(cats, hand, food, lost_cats, sprays)
    new._discard = discard
    if special:
        _settle_special(new, special)
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
    if type(action) is actions.LostCatsForVP:
        new._vp_left -= 1
        _set_player(
            new, player._replace(hand=hand, lost_cats=lost_cats, vp_tokens=player.vp_tokens + 1)
        )
    else:
        assert isinstance(action, actions.LostCatsForStray)
        stray = new.game._stray_index[action.stray.casefold()]
        new._strays_up = tuple(s for s in new._strays_up if s != stray)
        _set_player(
            new, player._replace(hand=hand, lost_cats=lost_cats, strays=player.strays + (stray,))
        )


def _first_of_kind(state: State, hand: Sequence[int], kind: int) -> int:
    kinds = state.game._kind_codes
    for card in hand:
        if kinds[card] == kind:
            return card
    raise AssertionError("hand counters out of step with the hand")  # pragma: no cover


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _set_player(new: State, player: PlayerState) -> None:
    players = list(new._players)
    players[new._current] = player
    new._players = tuple(players)


# --- Box of Treats and solitaire ------------------------------------------------------------


def _settle_special(new: State, special: list[int]) -> None:
    """After a draft: boxes go in front of the player, Box of Treats hand cards are counted,
    and a stray a cat brush had put in the grid joins the player's strays."""
    game = new.game
    kinds = game._kind_codes
    deck_len = game._deck_len
    player = new._players[new._current]
    strays = player.strays
    boxes, hand = player.boxes, player.hand
    brushes, lasers, bags = player.brushes, player.lasers, player.bags
    for card in special:
        kind = kinds[card]
        if kind == CAT:
            strays = strays + (card - deck_len,)
            continue
        if kind == BOX:
            boxes = boxes + (card,)
            continue
        hand = hand + (card,)
        if kind == CAT_BRUSH:
            brushes += 1
        elif kind == LASER_POINTER:
            lasers += 1
        else:
            bags += 1
    _set_player(
        new,
        player._replace(
            strays=strays, boxes=boxes, hand=hand, brushes=brushes, lasers=lasers, bags=bags
        ),
    )


def _refill(new: State, slots: Sequence[int]) -> None:
    grid = list(new._grid)
    deck = new._deck
    pos = new._pos
    if pos + len(slots) <= len(deck):
        for offset, slot in enumerate(slots):
            grid[slot] = deck[pos + offset]
        new._pos = pos + len(slots)
    else:
        for slot in slots:
            grid[slot] = None
        new._final = True
    new._grid = tuple(grid)


def _gain(new: State, cards: Sequence[int]) -> None:
    """The current player gains ``cards`` taken from the grid (as a draft would)."""
    game = new.game
    kinds = game._kind_codes
    gains = game._food_gains
    player = new._players[new._current]
    cats, hand, food = player.cats, player.hand, player.food
    lost, sprays = player.lost_cats, player.sprays
    discard = new._discard
    special = []
    for card in cards:
        kind = kinds[card]
        if kind == CAT and card < game._deck_len:
            cats = cats + (card,)
        elif kind == FOOD:
            food = tuple(have + gain for have, gain in zip(food, gains[card], strict=True))
            discard = discard + (card,)
        elif kind >= BOX or kind == CAT:
            special.append(card)
        else:
            hand = hand + (card,)
            lost += kind == LOST_CAT
            sprays += kind == SPRAY_BOTTLE
    new._set_player_fields(cats, hand, food, lost, sprays)
    new._discard = discard
    _settle_special(new, special)


def _play_hand_card(new: State, kind: int) -> PlayerState:
    player = new._players[new._current]
    card = _first_of_kind(new, player.hand, kind)
    new._discard = new._discard + (card,)
    counts = {CAT_BRUSH: "brushes", LASER_POINTER: "lasers", SHOPPING_BAG: "bags"}[kind]
    player = player._replace(
        hand=_without(player.hand, card), **{counts: getattr(player, counts) - 1}
    )
    _set_player(new, player)
    return player


def _brush(new: State, action: actions.Brush) -> None:
    # RB-BOT: swap one of your cats (stray or not) with a cat of the grid, token ignored.
    game = new.game
    player = _play_hand_card(new, CAT_BRUSH)
    owned = _own_cat(new, player, action.cat)
    assert owned is not None
    where, card = owned
    slot = action.slot - 1
    taken = new._grid[slot]
    assert taken is not None
    if where == "cat":
        player = player._replace(cats=_without(player.cats, card))
        given = card
    else:
        player = player._replace(strays=_without(player.strays, card))
        given = game._deck_len + card
    if taken >= game._deck_len:
        player = player._replace(strays=player.strays + (taken - game._deck_len,))
    else:
        player = player._replace(cats=player.cats + (taken,))
    _set_player(new, player)
    grid = list(new._grid)
    grid[slot] = given
    new._grid = tuple(grid)


def _laser(new: State, action: actions.Laser) -> None:
    # RB-BOT: take any 2 grid cards, discard 1 more, refill; the token does not move.
    _play_hand_card(new, LASER_POINTER)
    slots = [s - 1 for s in (*action.take, action.discard)]
    taken = [new._grid[s] for s in slots[:2]]
    dropped = new._grid[slots[2]]
    assert dropped is not None and None not in taken
    if dropped >= new.game._deck_len:
        # a stray brushed into the grid goes back to the unused strays, not the discard pile
        new._strays_hidden = new._strays_hidden + (dropped - new.game._deck_len,)
    else:
        new._discard = new._discard + (dropped,)
    _gain(new, taken)  # type: ignore[arg-type]
    _refill(new, sorted(slots))
    new._phase = AFTER_DRAFT


def _shopping_bag(new: State) -> None:
    # RB-BOT: gain 1 chicken, 1 tuna and 1 milk; all opponents take a VP token. Tokens are
    # handed out clockwise from the next player while they last.
    game = new.game
    player = _play_hand_card(new, SHOPPING_BAG)
    food = list(player.food)
    for token in SHOPPING_BAG_FOOD:
        food[game.food_tokens.index(token)] += 1
    _set_player(new, player._replace(food=tuple(food)))
    players = list(new._players)
    n = game.num_players
    for step in range(1, n):
        seat = (new._current + step) % n
        if new._vp_left:
            new._vp_left -= 1
            players[seat] = players[seat]._replace(vp_tokens=players[seat].vp_tokens + 1)
    new._players = tuple(players)


def _swap_goal(new: State, action: actions.SwapGoal) -> None:
    ext = new._expansion
    assert ext is not None
    n = new.game.num_players
    k = new._current if action.partner == "next" else (new._current - 1) % n
    goals = new.game.edition.goals
    pool_i = next(i for i, g in enumerate(ext.goal_pool) if goals[g].name == action.goal)
    mine = ext.goals[k]
    new_goals = list(ext.goals)
    new_goals[k] = ext.goal_pool[pool_i]
    pool = list(ext.goal_pool)
    pool[pool_i] = mine
    new._expansion = ext._replace(goals=tuple(new_goals), goal_pool=tuple(pool), swapped=True)


def _cat_turn(new: State, line: Line) -> None:
    """The cat player's whole turn (RB-BOT): take the line (the token does not block it),
    trade lost cats at once, refill, then the next turn card decides its next turn."""
    game = new.game
    ext = new._expansion
    assert ext is not None and game.edition.solitaire is not None
    seat = game.cat_player_seat
    new._current = seat
    _take(new, line)
    _cat_lost_cats(new, seat)
    card = ext.turn_card
    turn_card = game.edition.solitaire.turn_cards[card]
    discard = ext.turn_discard + (card,)
    deck = ext.turn_deck
    reshuffles = ext.reshuffles
    if turn_card.kind == "cat_token":
        # Shuffle this card and the other played ones back into the turn deck.
        deck, discard, reshuffles = _reshuffle(new, deck + discard, reshuffles)
    new._expansion = ext._replace(
        turn_deck=deck, turn_discard=discard, turn_card=-1, reshuffles=reshuffles, cat_choice=()
    )
    if new._final:
        new._phase = OVER
        new._current = -1
        return
    new._current = 0
    new._turn += 1
    new._phase = BEFORE_DRAFT


def _cat_lost_cats(new: State, seat: int) -> None:
    # RB-BOT: with 2 lost cats the cat player at once gains the leftmost stray, or 2 VP.
    needed = new.game._lost_cats_per_trade
    while new._players[seat].lost_cats >= needed:
        if new._strays_up:
            _trade_lost_cats(new, new.game._stray_actions[new._strays_up[0]])
        elif new._vp_left:
            _trade_lost_cats(new, new.game._lost_vp)
        else:
            break


def drafting_probe(state: State, seat: int) -> State:
    """The same position with ``seat`` about to draft, for a bot weighing what ``seat`` could
    take next (never a position of the game itself: nobody moved to get there)."""
    probe = state._successor(actions.EndTurn())
    probe._current = seat
    probe._phase = BEFORE_DRAFT
    probe._final = False
    return probe
