"""Properties over many random seeded games (hypothesis): cards are conserved, the legal
action list is exactly what apply accepts, every game ends, and replay reproduces it."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

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
from engine.errors import IllegalActionError
from engine.log import make_log, replay
from engine.registry import load_game

GAMES = {n: load_game(options={"players": n}) for n in (2, 3, 4)}
# 4 players x 8 turns x (take, end-turn) + placement + every spray and lost cat: well below.
MAX_ACTIONS = 400

seeds = st.integers(min_value=0, max_value=2**63)
player_counts = st.sampled_from([2, 3, 4])


def every_action(game: Game) -> list:
    """Every action the game could ever accept, in any state."""
    actions = [cls(line) for cls in (PlaceToken, Take, Spray) for line in Line]
    actions += [LostCatsForStray(s.name) for s in game.edition.strays]
    return actions + [LostCatsForVP(), EndTurn()]


def card_locations(state: State) -> Counter:
    cards = [c for c in state.grid if c is not None]
    cards += state._deck[state._pos :] + state._removed + state._discard
    for player in state.players:
        cards += player.cats + player.hand
    return Counter(cards)


def assert_conserved(state: State) -> None:
    game = state.game
    assert card_locations(state) == Counter(game.edition.deck_for_players(game.num_players))
    strays = list(state._strays_up) + list(state._strays_hidden)
    for player in state.players:
        strays += player.strays
    assert sorted(strays) == list(range(len(game.edition.strays)))
    vp_tokens = state.vp_tokens_left + sum(p.vp_tokens for p in state.players)
    assert vp_tokens == game.vp_tokens
    kinds = game._kind_codes
    for player in state.players:
        held = Counter(kinds[c] for c in player.hand)
        assert player.lost_cats == held[5] and player.sprays == held[6]


def play(game: Game, seed: int, bot_seed: int, *, check_every_state: bool) -> State:
    rng = random.Random(bot_seed)
    universe = every_action(game)
    state = game.new_initial_state(seed)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return state
        legal = state.legal_actions()
        assert legal, "a live state always offers an action"
        assert len(set(legal)) == len(legal)
        if check_every_state:
            assert_conserved(state)
            for action in universe:
                if action not in legal:
                    assert not state.is_legal(action)
                    try:
                        state.apply(action)
                    except IllegalActionError:
                        pass
                    else:
                        raise AssertionError(f"{action} accepted but not listed")
        state = state.apply(rng.choice(legal))
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")


@settings(max_examples=150, deadline=None)
@given(players=player_counts, seed=seeds, bot_seed=seeds)
def test_listed_actions_are_exactly_the_accepted_ones_and_cards_are_conserved(
    players, seed, bot_seed
):
    final = play(GAMES[players], seed, bot_seed, check_every_state=True)
    assert_conserved(final)
    assert final.legal_actions() == []


@settings(max_examples=500, deadline=None)
@given(players=player_counts, seed=seeds, bot_seed=seeds)
def test_every_game_ends_with_every_card_accounted_for(players, seed, bot_seed):
    game = GAMES[players]
    final = play(game, seed, bot_seed, check_every_state=False)
    assert_conserved(final)
    assert final.turn == {2: 22, 3: 27, 4: 32}[players]
    assert final.deck_size == 0
    result = final.result()
    assert len(result.players) == players
    assert set(result.winners) <= set(range(players)) and result.winners


@settings(max_examples=40, deadline=None)
@given(players=player_counts, seed=seeds, bot_seed=seeds)
def test_replay_reproduces_the_state_and_the_scores(players, seed, bot_seed):
    game = GAMES[players]
    final = play(game, seed, bot_seed, check_every_state=False)
    replayed = replay(make_log(game, seed, final.history))
    assert replayed == final
    assert replayed.result().to_json() == final.result().to_json()


@settings(max_examples=40, deadline=None)
@given(players=player_counts, seed=seeds, moves=st.integers(min_value=0, max_value=120))
def test_observations_are_the_same_for_every_seat_except_its_own_moves(players, seed, moves):
    state = GAMES[players].new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    views = [state.observation(seat) for seat in range(players)]
    for view in views:
        view.pop("seat")
        view.pop("legal_actions")
    assert all(view == views[0] for view in views)
