"""The forward model bots search with: states sampled from one seat's observation are
exact about what the seat knows, random (uniform) about what it does not, and actions
round-trip through their JSON and text forms."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

import engine
from engine.cantankerous.actions import Bet
from engine.errors import EngineError
from engine.strategies import get
from engine.strategies.match import bot_rng, bot_seed

SAMPLES = 3000


def chi_square_limit(categories: int, z: float = 3.29) -> float:
    """The chi-square statistic a uniform sampler exceeds with probability about 0.0005
    (Wilson-Hilferty), for ``categories`` outcomes. The samplers below are seeded, so each
    test is deterministic: this only says how surprising a failure would be."""
    df = categories - 1
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def assert_matches_shares(seen: Counter[str], shares: dict[str, float], draws: int) -> None:
    assert set(seen) <= set(shares), "a card that cannot be hidden was sampled as hidden"
    statistic = sum((seen[key] - draws * p) ** 2 / (draws * p) for key, p in shares.items())
    assert statistic < chi_square_limit(len(shares)), (statistic, seen.most_common(5))


def states_along_a_game(game: engine.Game, seed: int, every: int = 1) -> list[engine.GameState]:
    states, state, rng = [], game.new_initial_state(seed), random.Random(seed)
    while not state.is_terminal():
        states.append(state)
        state = state.apply(rng.choice(state.legal_actions()))
    return states[::every]


# --- Cat Lady ------------------------------------------------------------------------------


def test_cat_lady_next_card_and_removed_cards_follow_the_unseen_pool() -> None:
    game = engine.load_game(options={"players": 3})
    true_state = game.new_initial_state(5)
    observation = true_state.observation(0)
    model = engine.forward_model(observation)
    pool = observation["unseen"]
    total = sum(pool.values())
    shares = {key: count / total for key, count in pool.items()}
    rng = random.Random(1)
    next_cards: Counter[str] = Counter()
    removed: Counter[str] = Counter()
    for _ in range(SAMPLES):
        full = model.sample_state(observation, rng).full_view()
        next_cards[full["deck"][0]] += 1
        removed.update(full["removed"])
    assert_matches_shares(next_cards, shares, SAMPLES)
    assert_matches_shares(removed, shares, SAMPLES * observation["removed_unseen"])
    # Not a copy of the truth: the true next card comes up about as often as its share.
    truth = true_state.full_view()["deck"][0]
    assert next_cards[truth] < 3 * SAMPLES * shares[truth]


@pytest.mark.parametrize(
    "options",
    [{"players": 2}, {"players": 4}, {"players": 5, "edition": "box-of-treats-placeholder"}],
)
def test_cat_lady_samples_keep_exactly_what_the_seat_knows(options: dict) -> None:
    game = engine.load_game(options=options)
    rng = random.Random(3)
    for state in states_along_a_game(game, seed=8, every=3):
        for seat in range(game.num_players):
            observation = state.observation(seat)
            sample = engine.forward_model(observation).sample_state(observation, rng)
            assert sample.observation(seat) == observation


# --- Cantankerous Cats ---------------------------------------------------------------------


def test_cantankerous_other_hands_and_the_bowl_are_drawn_from_the_unseen_cards() -> None:
    game = engine.load_game("cantankerous-cats", options={"players": 3})
    true_state = game.new_initial_state(11)
    observation = true_state.observation(0)
    model = engine.forward_model(observation)
    own = set(observation["hand"])
    unseen = [game.numbers[c] for c in game.in_play if game.numbers[c] not in own]
    in_hand_1: Counter[str] = Counter()
    bowl_top: Counter[str] = Counter()
    rng = random.Random(2)
    for _ in range(SAMPLES):
        full = model.sample_state(observation, rng).full_view()
        assert full["hands"][0] == observation["hand"]
        in_hand_1.update(str(n) for n in full["hands"][1])
        bowl_top[str(full["bowl"][0])] += 1
    # Each unseen card is in seat 1's hand with probability 6 / |unseen|: a uniform deal.
    share = {str(n): 1 / len(unseen) for n in unseen}
    assert_matches_shares(in_hand_1, share, SAMPLES * 6)
    assert_matches_shares(bowl_top, share, SAMPLES)


def test_cantankerous_a_pending_bet_stays_hidden_and_is_a_card_of_the_bettors_hand() -> None:
    game = engine.load_game("cantankerous-cats", options={"players": 2})
    state = game.new_initial_state(4)
    bet = next(a for a in state.legal_actions() if isinstance(a, Bet))
    state = state.apply(bet)  # seat 0 bets; seat 1 has not seen it
    observation = state.observation(1)
    assert observation["window"].get("my_bet") is None
    assert all(entry[1] is None for entry in observation["position"]["stack"][-1]["bets"])
    model = engine.forward_model(observation)
    bets: Counter[str] = Counter()
    rng = random.Random(5)
    for _ in range(SAMPLES):
        full = model.sample_state(observation, rng).full_view()
        sampled_bet = full["window"]["bets"]["0"]
        assert sampled_bet in full["hands"][0]
        bets[str(sampled_bet)] += 1
    own = set(observation["hand"])
    unseen = [game.numbers[c] for c in game.in_play if game.numbers[c] not in own]
    assert_matches_shares(bets, {str(n): 1 / len(unseen) for n in unseen}, SAMPLES)


def test_cantankerous_observations_never_carry_other_hands_the_bowl_or_the_generator() -> None:
    game = engine.load_game("cantankerous-cats", options={"players": 4})
    for state in states_along_a_game(game, seed=3, every=7):
        full = state.full_view()
        for seat in range(4):
            position = state.observation(seat)["position"]
            assert not {"hands", "bowl", "rng"} & set(position)
            others = {
                game.index_of[n]
                for other, hand in enumerate(full["hands"])
                if other != seat
                for n in hand
            }
            assert not others & set(position["hand"])


@pytest.mark.parametrize("variant", ["basic", "standard"])
@pytest.mark.parametrize("players", [2, 3, 6])
def test_cantankerous_samples_keep_exactly_what_the_seat_knows_and_play_on(
    players: int, variant: str
) -> None:
    game = engine.load_game("cantankerous-cats", options={"players": players, "variant": variant})
    rng = random.Random(players)
    for seed in range(3):
        for state in states_along_a_game(game, seed, every=2):
            for seat in range(players):
                observation = state.observation(seat)
                model = engine.forward_model(observation)
                sample = model.sample_state(observation, rng)
                assert sample.observation(seat) == observation
                # A sample starts with no history: 40 moves at most, counted rather than
                # re-read from the history's linked list at every move.
                assert sample.history == ()
                for _ in range(40):
                    if model.is_terminal(sample):
                        break
                    sample = model.apply(sample, rng.choice(model.legal_actions(sample)))


# --- both games ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("cat-lady", {"players": 3}),
        ("cat-lady", {"players": 4, "edition": "box-of-treats-placeholder", "shared_goals": True}),
        ("cantankerous-cats", {"players": 4}),
    ],
)
def test_every_legal_action_round_trips_through_json_and_text(name: str, options: dict) -> None:
    game = engine.load_game(name, options=options)
    for state in states_along_a_game(game, seed=2):
        model = engine.forward_model(state.observation(state.current_player))
        for action in model.legal_actions(state):
            assert model.action(action.to_json()) == action
            assert model.action(str(action)) == action
            assert model.action(action) is action


def test_the_model_plays_out_from_a_sample_and_scores_both_games() -> None:
    for name in ("cat-lady", "cantankerous-cats"):
        game = engine.load_game(name, options={"players": 2})
        observation = game.new_initial_state(1).observation(0)
        model = engine.forward_model(observation)
        rng = random.Random(0)
        state = model.sample_state(observation, rng)
        assert len(model.scores(state)) == 2
        while not model.is_terminal(state):
            assert model.current_player(state) in (0, 1)
            state = model.apply(state, rng.choice(model.legal_actions(state)))
        assert model.winners(state) == list(state.result().winners)


def test_a_model_refuses_what_is_not_a_start_message_or_another_games_observation() -> None:
    with pytest.raises(EngineError, match="start message or an observation"):
        engine.forward_model({"seat": 0})
    cc = engine.load_game("cantankerous-cats", options={"players": 2}).new_initial_state(1)
    cat_lady = engine.forward_model({"game": "cat-lady", "version": "1", "options": {}})
    with pytest.raises(EngineError):
        cat_lady.sample_state(cc.observation(0), random.Random(0))


def test_a_bots_generator_is_a_one_way_hash_of_the_seed() -> None:
    assert bot_seed(7, 0) != bot_seed(7, 1) != bot_seed(8, 1)
    assert bot_rng(7, 1).random() == random.Random(bot_seed(7, 1)).random()


def test_house_search_bots_see_only_what_the_forward_model_gives() -> None:
    """A house bot never reads the true state: two true states with the same observation
    for its seat (different hidden decks) get the same move from the same generator."""
    game = engine.load_game(options={"players": 2})
    for seed in range(4):
        state = game.new_initial_state(seed)
        while state.current_player != 0 or len(state.legal_actions()) < 2:
            state = state.apply(state.legal_actions()[0])
        observation = state.observation(0)
        other = engine.forward_model(observation).sample_state(observation, random.Random(9))
        assert other.full_view()["deck"] != state.full_view()["deck"]
        for name in ("greedy", "mcts"):
            bot = get(name, iterations=20) if name == "mcts" else get(name)
            first = bot.choose(observation, state.legal_actions(), random.Random(seed))
            second = bot.choose(other.observation(0), other.legal_actions(), random.Random(seed))
            assert first == second
