"""Properties over many random seeded games (hypothesis), base game and Box of Treats
placeholder (with shared goals and solitaire): cards and tokens are conserved, the legal
action list is exactly what apply accepts, every game ends and scores, and replay
reproduces it."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.catlady import actions
from engine.catlady.actions import Line
from engine.catlady.game import Game, State
from engine.log import make_log, replay
from engine.registry import load_game
from tests.engine.helpers import assert_unlisted_actions_refused

GAMES = {n: load_game(options={"players": n}) for n in (2, 3, 4)}
# 4 players x 8 turns x (take, end-turn) + placement + every spray and lost cat: well below.
MAX_ACTIONS = 400

seeds = st.integers(min_value=0, max_value=2**63)
player_counts = st.sampled_from([2, 3, 4])


def every_action(game: Game) -> list:
    """Every action the game could ever accept, in any state."""
    candidates = [
        cls(line) for cls in (actions.PlaceToken, actions.Take, actions.Spray) for line in Line
    ]
    candidates += [actions.LostCatsForStray(s.name) for s in game.edition.strays]
    return candidates + [actions.LostCatsForVP(), actions.EndTurn()]


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
            assert_unlisted_actions_refused(state, universe, legal)
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


# ==========================================================================================
# Properties over random 2-6 player games with the Box of Treats placeholder deck (and
# shared goals, and solitaire), as for the base game: every card and token is accounted for,
# the legal action list is exactly what apply accepts, every game ends and scores, and replay
# reproduces it.
# ==========================================================================================


PH = "box-of-treats-placeholder"
BOX_OF_TREATS_GAMES = {n: load_game(options={"players": n, "edition": PH}) for n in range(2, 7)}
GOALS = {
    n: load_game(options={"players": n, "edition": PH, "shared_goals": True}) for n in range(3, 7)
}
SOLITAIRE = load_game(options={"players": 2, "edition": PH, "solitaire": True})
BOX_OF_TREATS_MAX_ACTIONS = 1500

configs = st.sampled_from(
    [*[("plain", n) for n in range(2, 7)], *[("goals", n) for n in range(3, 7)], ("solitaire", 2)]
)


def game_of(config: tuple[str, int]) -> Game:
    kind, n = config
    return (
        {"plain": BOX_OF_TREATS_GAMES, "goals": GOALS}[kind][n]
        if kind != "solitaire"
        else SOLITAIRE
    )


def every_box_of_treats_action(state: State) -> list:
    """Every action that could be legal in some state (brushes: for the cats in play)."""
    game = state.game
    candidates = [
        cls(line)
        for cls in (actions.PlaceToken, actions.Take, actions.Spray, actions.CatTake)
        for line in Line
    ]
    candidates += [actions.LostCatsForStray(s.name) for s in game.edition.strays]
    candidates += [
        actions.LostCatsForVP(),
        actions.EndTurn(),
        actions.ShoppingBag(),
        *game._laser_actions,
    ]
    names = {game.card_name(c) for p in state.players for c in p.cats}
    names |= {game.edition.strays[s].name for p in state.players for s in p.strays}
    candidates += [actions.Brush(slot, name) for slot in range(1, 10) for name in sorted(names)]
    candidates += [
        actions.SwapGoal(side, g.name) for side in ("next", "prev") for g in game.edition.goals
    ]
    return candidates


def assert_box_of_treats_conserved(state: State) -> None:
    game = state.game
    deck_len = game._deck_len
    cards = [c for c in state.grid if c is not None and c < deck_len]
    cards += state._deck[state._pos :] + state._removed + state._discard
    for player in state.players:
        cards += player.cats + player.hand + player.boxes
    assert Counter(cards) == Counter(game.edition.deck_for_players(game.num_players))
    strays = list(state._strays_up) + list(state._strays_hidden)
    strays += [c - deck_len for c in state.grid if c is not None and c >= deck_len]
    for player in state.players:
        strays += player.strays
    assert sorted(strays) == list(range(len(game.edition.strays)))
    assert state.vp_tokens_left + sum(p.vp_tokens for p in state.players) == game.vp_tokens
    kinds = game._kind_codes
    for player in state.players:
        held = Counter(kinds[c] for c in player.hand)
        assert (player.lost_cats, player.sprays) == (held[5], held[6])
        assert (player.brushes, player.lasers, player.bags) == (held[8], held[9], held[10])
        assert all(kinds[c] == 7 for c in player.boxes)
        assert min(player.food) >= 0
    ext = state._expansion
    if ext is not None and ext.goals:
        assert sorted(ext.goals + ext.goal_pool) == sorted(set(ext.goals + ext.goal_pool))
        assert len(ext.goals) == game.num_players and len(ext.goal_pool) == 2
    if game.solitaire:
        turn_cards = list(ext.turn_deck) + list(ext.turn_discard)
        turn_cards += [ext.turn_card] if ext.turn_card >= 0 else []
        assert sorted(turn_cards) == list(range(len(game.edition.solitaire.turn_cards)))


def play_box_of_treats(game: Game, seed: int, bot_seed: int, *, check_every_state: bool) -> State:
    rng = random.Random(bot_seed)
    state = game.new_initial_state(seed)
    for _ in range(BOX_OF_TREATS_MAX_ACTIONS):
        if state.is_terminal():
            return state
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if check_every_state:
            assert_box_of_treats_conserved(state)
            assert_unlisted_actions_refused(state, every_box_of_treats_action(state), legal)
            for action in legal:
                assert state.is_legal(action)
        # Lasers are many actions (252): pick the kind of move first so games stay varied.
        kinds = sorted({type(a).__name__ for a in legal})
        kind = rng.choice(kinds)
        state = state.apply(rng.choice([a for a in legal if type(a).__name__ == kind]))
    raise AssertionError(f"no end after {BOX_OF_TREATS_MAX_ACTIONS} actions")


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds, bot_seed=seeds)
def test_box_of_treats_listed_actions_are_exactly_the_accepted_ones_and_cards_are_conserved(
    config, seed, bot_seed
):
    final = play_box_of_treats(game_of(config), seed, bot_seed, check_every_state=True)
    assert_box_of_treats_conserved(final)
    assert final.legal_actions() == []


@settings(max_examples=25, deadline=None)
@given(config=configs, seed=seeds, bot_seed=seeds)
def test_every_game_ends_scores_and_replays(config, seed, bot_seed):
    game = game_of(config)
    final = play_box_of_treats(game, seed, bot_seed, check_every_state=False)
    assert_box_of_treats_conserved(final)
    result = final.result()
    assert len(result.players) == game.num_players and result.winners
    for player in result.players:
        assert player.total == sum(player.breakdown.values())
    log = json.loads(json.dumps(make_log(game, seed, final.history)))
    replayed = replay(log)
    assert replayed == final
    assert replayed.result().to_json() == result.to_json()


@settings(max_examples=30, deadline=None)
@given(config=configs, seed=seeds, moves=st.integers(min_value=0, max_value=150))
def test_box_of_treats_observations_are_the_same_for_every_seat_except_its_own_moves(
    config, seed, moves
):
    game = game_of(config)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    views = [state.observation(seat) for seat in range(game.num_players)]
    for view in views:
        view.pop("seat")
        view.pop("legal_actions")
    assert all(view == views[0] for view in views)
    assert "turn_deck" not in json.dumps(views[0])
