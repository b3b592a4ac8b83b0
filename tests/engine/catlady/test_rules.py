"""The base game's turn rules: setup per player count, drafting, the cat token, refilling,
lost cats, spray bottles and the end of the game."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.catlady.actions import (
    EndTurn,
    Line,
    LostCatsForStray,
    LostCatsForVP,
    PlaceToken,
    Spray,
    Take,
)
from engine.catlady.game import Game, State
from engine.catlady.position import state_from_position
from engine.errors import IllegalActionError
from engine.registry import load_game


def game_for(players: int) -> Game:
    return load_game("cat-lady", options={"players": players})


def play_randomly(state: State, seed: int = 0) -> State:
    rng = random.Random(seed)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def keys(state: State, cards: tuple[int | None, ...] | list[int]) -> list[str | None]:
    deck = state.game.edition.deck
    return [None if c is None else deck[c].key for c in cards]


# -- setup -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards_in_play", "removed", "deck_after_grid"),
    [(2, 74, 2, 63), (3, 89, 2, 78), (4, 102, 0, 93)],
)
def test_setup_uses_the_deck_of_the_player_count(players, cards_in_play, removed, deck_after_grid):
    state = game_for(players).new_initial_state(seed=3)
    assert len(state._removed) == removed
    assert state.deck_size == deck_after_grid
    assert len([c for c in state.grid if c is not None]) == 9
    assert len(state._removed) + 9 + state.deck_size == cards_in_play


@pytest.mark.parametrize(("players", "gone"), [(2, {"3+", "4"}), (3, {"4"}), (4, set())])
def test_marked_cards_are_out_of_the_game(players, gone):
    state = game_for(players).new_initial_state(seed=5)
    deck = state.game.edition.deck
    in_game = list(state._deck) + list(state._removed)
    assert {deck[c].marker for c in in_game} & gone == set()


def test_setup_deals_three_face_up_strays_and_hides_the_rest():
    state = game_for(4).new_initial_state(seed=1)
    assert len(state.face_up_strays) == 3
    assert len(state._strays_hidden) == 10
    assert set(state._strays_up).isdisjoint(state._strays_hidden)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_player_counter_clockwise_of_the_starter_places_the_token_first(players):
    state = game_for(players).new_initial_state(seed=2)
    assert state.current_player == players - 1
    assert state.turn == 0
    assert state.token is None
    assert state.legal_actions() == [PlaceToken(line) for line in Line]
    state = state.apply(PlaceToken(Line.COL_2))
    assert state.token is Line.COL_2
    assert state.current_player == 0
    assert state.turn == 1


def test_same_seed_deals_the_same_game_and_other_seeds_differ():
    game = game_for(4)
    assert game.new_initial_state(9) == game.new_initial_state(9)
    assert game.new_initial_state(9)._deck != game.new_initial_state(10)._deck


# -- turns -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "turns"), [(2, 22), (3, 27), (4, 32)])
def test_every_player_gets_the_same_number_of_turns(players, turns):
    final = play_randomly(game_for(players).new_initial_state(seed=players), seed=players)
    assert final.turn == turns
    takers = Counter()
    state = game_for(players).new_initial_state(seed=players)
    for action in final.history:
        if isinstance(action, Take):
            takers[state.current_player] += 1
        state = state.apply(action)
    assert takers == dict.fromkeys(range(players), turns // players)


def test_turns_pass_clockwise_and_wrap_around():
    state = game_for(3).new_initial_state(seed=4).apply(PlaceToken(Line.ROW_1))
    seats = []
    for line in [Line.ROW_2, Line.ROW_3] * 3:
        seats.append(state.current_player)
        state = state.apply(Take(line)).apply(EndTurn())
    assert seats == [0, 1, 2, 0, 1, 2]
    assert state.turn == 7


def test_the_blocked_line_cannot_be_taken():
    state = game_for(2).new_initial_state(seed=1).apply(PlaceToken(Line.ROW_3))
    assert Take(Line.ROW_3) not in state.legal_actions()
    assert [a for a in state.legal_actions() if isinstance(a, Take)] == [
        Take(line) for line in Line if line is not Line.ROW_3
    ]
    with pytest.raises(IllegalActionError, match="row 3 is blocked by the cat token"):
        state.apply(Take(Line.ROW_3))


def test_taking_a_line_moves_the_token_there_and_refills_it_from_the_deck():
    state = game_for(2).new_initial_state(seed=8).apply(PlaceToken(Line.ROW_1))
    top_of_deck = state._deck[state._pos : state._pos + 3]
    before = state.deck_size
    after = state.apply(Take(Line.COL_2))
    assert after.token is Line.COL_2
    assert tuple(after.grid[s] for s in Line.COL_2.slots) == top_of_deck
    assert after.deck_size == before - 3
    untouched = [s for s in range(9) if s not in Line.COL_2.slots]
    assert [after.grid[s] for s in untouched] == [state.grid[s] for s in untouched]


def test_a_turn_is_one_take_then_end_turn():
    state = game_for(2).new_initial_state(seed=1).apply(PlaceToken(Line.ROW_1))
    with pytest.raises(IllegalActionError, match="must take a row or column"):
        state.apply(EndTurn())
    state = state.apply(Take(Line.ROW_2))
    assert EndTurn() in state.legal_actions()
    assert not any(isinstance(a, Take) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="already taken a line"):
        state.apply(Take(Line.ROW_3))
    assert state.apply(EndTurn()).current_player == 1


def test_the_token_is_placed_once_and_before_anything_else():
    state = game_for(2).new_initial_state(seed=1)
    with pytest.raises(IllegalActionError, match="must first place the cat token"):
        state.apply(Take(Line.ROW_1))
    state = state.apply(PlaceToken(Line.ROW_1))
    with pytest.raises(IllegalActionError, match="already placed"):
        state.apply(PlaceToken(Line.ROW_2))


def test_apply_never_changes_the_state_it_is_called_on():
    state = game_for(4).new_initial_state(seed=6)
    snapshot = state._identity()
    state.apply(PlaceToken(Line.ROW_1))
    with pytest.raises(IllegalActionError):
        state.apply(EndTurn())
    assert state._identity() == snapshot
    assert state.history == ()


# -- what the cards do when taken -------------------------------------------------------


def test_julies_turn_from_the_rulebook():
    """Token on the bottom row; Julie takes the left column: a toy mouse into her hand,
    Sir Cuddleface in front of her, a tuna discarded for a tuna token; the column is
    refilled and the token moves to it."""
    game = game_for(4)
    grid = [
        "toy/mouse-toy",
        "catnip",
        "costume",
        "cat/sir-cuddleface",
        "food/milk-1",
        "lost-cat",
        "food/tuna-1",
        "spray-bottle",
        "cat/bronte",
    ]
    refill = ["food/chicken-1", "cat/zeus", "toy/yarn-ball"]
    state = state_from_position(game, {"grid": grid, "token": "row 3", "deck": refill})
    assert Take(Line.ROW_3) not in state.legal_actions()

    after = state.apply(game.parse_action("take col 1"))
    julie = after.observation(0)["tableaux"][0]
    assert julie["hand"] == ["toy/mouse-toy"]
    assert julie["toys"]["mouse_toy"] == 1
    assert julie["cat_names"] == ["Sir Cuddleface"]
    assert julie["food"] == {"chicken": 0, "tuna": 1, "milk": 0, "wild": 0}
    assert after.observation(0)["discard"] == {"food/tuna-1": 1}
    assert [keys(after, [after.grid[s]])[0] for s in Line.COL_1.slots] == refill
    assert after.token is Line.COL_1


@pytest.mark.parametrize(
    ("card", "tokens"),
    [
        ("food/chicken-2", {"chicken": 2}),
        ("food/milk-2", {"milk": 2}),
        ("food/wild", {"wild": 1}),
        ("food/tuna-1", {"tuna": 1}),
    ],
)
def test_food_cards_become_tokens_and_are_discarded(card, tokens):
    game = game_for(4)
    state = state_from_position(
        game, {"grid": [card, "catnip", "catnip"] + [None] * 6, "token": "row 3"}
    )
    after = state.apply(Take(Line.ROW_1))
    food = after.observation(0)["tableaux"][0]["food"]
    assert food == {"chicken": 0, "tuna": 0, "milk": 0, "wild": 0, **tokens}
    assert after.observation(0)["discard"] == {card: 1}
    assert after.observation(0)["tableaux"][0]["catnip"] == 2


# -- lost cats ---------------------------------------------------------------------------


def lost_cat_position(**extra: object) -> State:
    position = {
        "token": "row 1",
        "strays": ["Florence", "Waffle", "Hemingway"],
        "tableaux": [{"hand": ["lost-cat", "lost-cat", "lost-cat"]}],
    }
    position.update(extra)
    return state_from_position(game_for(2), position)


def test_two_lost_cats_find_a_face_up_stray_which_is_not_replaced():
    state = lost_cat_position(tableaux=[{"hand": ["lost-cat"] * 4}])
    assert LostCatsForStray("Florence") in state.legal_actions()
    after = state.apply(state.game.parse_action("lost-cats stray florence"))
    assert after.face_up_strays == ("Waffle", "Hemingway")
    me = after.observation(0)["tableaux"][0]
    assert me["strays"] == ["Florence"]
    assert me["lost_cats"] == 2
    assert after.observation(0)["discard"] == {"lost-cat": 2}
    with pytest.raises(IllegalActionError, match="not a face-up stray"):
        after.apply(LostCatsForStray("Florence"))


def test_two_lost_cats_buy_a_vp_token_while_tokens_last():
    state = lost_cat_position()
    after = state.apply(LostCatsForVP())
    assert after.players[0].vp_tokens == 1
    assert after.vp_tokens_left == state.vp_tokens_left - 1 == 5
    empty = lost_cat_position(vp_tokens_left=0)
    assert LostCatsForVP() not in empty.legal_actions()
    with pytest.raises(IllegalActionError, match="no VP tokens are left"):
        empty.apply(LostCatsForVP())


def test_one_lost_cat_buys_nothing():
    state = lost_cat_position(tableaux=[{"hand": ["lost-cat"]}])
    assert not any(isinstance(a, LostCatsForStray | LostCatsForVP) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="needs 2 in hand; you hold 1"):
        state.apply(LostCatsForVP())


def test_lost_cats_can_be_played_before_and_after_drafting():
    before = lost_cat_position().apply(LostCatsForVP())
    assert before.phase == "before-draft"
    after_draft = lost_cat_position().apply(Take(Line.ROW_2))
    assert LostCatsForStray("Waffle") in after_draft.legal_actions()
    assert after_draft.apply(LostCatsForStray("Waffle")).players[0].strays


# -- spray bottles -----------------------------------------------------------------------


def spray_position() -> State:
    return state_from_position(
        game_for(2), {"token": "row 1", "tableaux": [{"hand": ["spray-bottle", "spray-bottle"]}]}
    )


def test_a_spray_before_drafting_opens_the_blocked_line():
    state = spray_position()
    assert Take(Line.ROW_1) not in state.legal_actions()
    sprayed = state.apply(Spray(Line.COL_3))
    assert sprayed.token is Line.COL_3
    assert sprayed.players[0].sprays == 1
    assert Take(Line.ROW_1) in sprayed.legal_actions()
    assert sprayed.observation(0)["discard"] == {"spray-bottle": 1}


def test_a_spray_after_drafting_blocks_the_next_player():
    state = spray_position().apply(Take(Line.ROW_2)).apply(Spray(Line.COL_1))
    nxt = state.apply(EndTurn())
    assert nxt.current_player == 1
    assert Take(Line.COL_1) not in nxt.legal_actions()


def test_sprays_can_be_played_several_times_a_turn_but_must_move_the_token():
    state = spray_position()
    assert Spray(Line.ROW_1) not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="already at row 1"):
        state.apply(Spray(Line.ROW_1))
    twice = state.apply(Spray(Line.ROW_2)).apply(Spray(Line.ROW_3))
    assert twice.players[0].sprays == 0
    with pytest.raises(IllegalActionError, match="no spray bottle"):
        twice.apply(Spray(Line.ROW_1))


# -- the end -----------------------------------------------------------------------------


def test_the_game_ends_after_the_turn_whose_line_cannot_be_refilled():
    state = state_from_position(
        game_for(2),
        {
            "token": "row 1",
            "deck_size": 3,
            "tableaux": [{}, {"hand": ["lost-cat", "lost-cat"]}],
        },
    )
    state = state.apply(Take(Line.ROW_2)).apply(EndTurn())  # the deck refills row 2: now empty
    assert state.deck_size == 0 and not state.is_terminal()
    last = state.apply(Take(Line.ROW_3))
    assert [last.grid[s] for s in Line.ROW_3.slots] == [None, None, None]
    assert not last.is_terminal()
    # The final turn still completes: lost cats may be played before ending it.
    last = last.apply(LostCatsForVP())
    over = last.apply(EndTurn())
    assert over.is_terminal()
    assert over.current_player == -1
    assert over.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        over.apply(EndTurn())


def test_no_line_is_ever_taken_with_empty_slots():
    final = play_randomly(game_for(3).new_initial_state(seed=11), seed=2)
    state = game_for(3).new_initial_state(seed=11)
    for action in final.history:
        if isinstance(action, Take):
            assert None not in [state.grid[s] for s in action.line.slots]
        state = state.apply(action)
