"""Properties over random seeded games (hypothesis): cards and Pounce Tokens are conserved,
the legal action list is exactly what apply accepts, every game ends, only a winner reaches
nine points, and the log replays the same game."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cantankerous import actions
from engine.log import make_log, replay
from engine.registry import load_game
from tests.engine.helpers import assert_unlisted_actions_refused

GAMES = {
    (n, variant): load_game("cantankerous-cats", options={"players": n, "variant": variant})
    for n in (2, 3, 4, 5, 6)
    for variant in ("basic", "standard")
}

seeds = st.integers(min_value=0, max_value=2**63)
tables = st.sampled_from(sorted(GAMES))


def card_locations(state):
    cards = list(state._bowl) + list(state._litter)
    for seat in range(state.game.num_players):
        cards += state._hands[seat] + state._houses[seat]
    cards += [play.card for play in state._plays.values()]
    return Counter(cards)


def assert_invariants(state, tokens_total):
    game = state.game
    assert card_locations(state) == Counter(game.in_play)
    assert sum(state.tokens) + state.token_bank == tokens_total
    assert min(state.tokens) >= 0 and state.token_bank >= 0
    winner = state._winner if state.is_terminal() else -1
    for seat, points in enumerate(state.points):
        assert points >= 0
        if seat != winner:
            assert points < 9, "only the winning play reaches nine Mischief points"
    if not game.standard:
        assert not any(state.feral)


def candidates(state, rng):
    """A handful of actions that may or may not be legal: cards from anywhere, any seat."""
    numbers = [state.game.numbers[c] for c in state.game.in_play]
    card = rng.choice(numbers)
    seat = rng.randrange(state.game.num_players)
    return [
        actions.Bet(card),
        actions.Keep(card),
        actions.Bank(card),
        actions.Score(card),
        actions.Play(card, seat),
        actions.Play(card),
        actions.Attack(card, seat),
        actions.PickyEater(),
        actions.BuyToken((card, rng.choice(numbers))),
        actions.Discard(card),
        actions.Pass(),
        actions.PounceAttack(card, seat),
        actions.PouncePlay(card),
        actions.CounterBank(card),
        actions.CounterPlay(card),
        actions.Done(),
        actions.Instant(card),
    ]


def play_out(game, seed, bot_seed, *, check):
    rng = random.Random(bot_seed)
    state = game.new_initial_state(seed)
    tokens_total = sum(state.tokens) + state.token_bank
    steps = 0
    while not state.is_terminal():
        steps += 1
        assert steps < 20_000
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if check:
            assert_invariants(state, tokens_total)
            assert_unlisted_actions_refused(state, candidates(state, rng), legal)
        state = state.apply(rng.choice(legal))
    assert_invariants(state, tokens_total)
    return state


@settings(max_examples=25, deadline=None)
@given(seed=seeds, bot_seed=seeds, table=tables)
def test_random_games_conserve_cards_and_tokens_and_accept_only_legal_actions(
    seed, bot_seed, table
):
    final = play_out(GAMES[table], seed, bot_seed, check=True)
    assert final.current_player == -1 and final.legal_actions() == []


@settings(max_examples=25, deadline=None)
@given(seed=seeds, bot_seed=seeds, table=tables)
def test_every_game_ends_and_its_log_replays(seed, bot_seed, table):
    game = GAMES[table]
    final = play_out(game, seed, bot_seed, check=False)
    result = final.result()
    if result.winners:
        winner = result.winners[0]
        if result.win_type == "nine_mischief":
            assert final.points[winner] >= 9 and not final.feral[winner]
        else:
            assert result.win_type == "feral_victory" and game.standard
            assert final.feral[winner] and final.affection(winner) >= 9
        assert [p.rank for p in result.players].count(1) == 1
    else:
        assert final.turn > game.turn_limit
    log = json.loads(json.dumps(make_log(game, seed, final.history)))
    assert replay(log) == final


@settings(max_examples=10, deadline=None)
@given(seed=seeds, table=tables)
def test_the_same_seed_deals_the_same_game(seed, table):
    game = GAMES[table]
    one, two = game.new_initial_state(seed), game.new_initial_state(seed)
    assert one == two and one.full_view() == two.full_view()
