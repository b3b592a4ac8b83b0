"""Every rule of the manual (and each documented reading of it), on hand-set positions of
the test deck (tests/engine/cantankerous/helpers.py lists its cards)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.errors import IllegalActionError
from tests.engine.cantankerous.helpers import act, legal


def texts(state):
    return [event["text"] for event in state.events]


def kinds(*states):
    return [event["type"] for state in states for event in state.events]


# -- First Bite -----------------------------------------------------------------------------


def test_first_bite_high_rank_wins_the_cat_toy_and_bets_go_to_the_litter_box(position):
    s = position(3, phase="bets", hands=[[5, 6], [30, 7], [12, 8]], turn_indicator="high")
    assert (s.phase, s.current_player) == ("bet", 0)
    s = act(s, "bet 5", "bet 30", "bet 12")
    assert s.toy_holder == 1 and s.turn == 1
    assert (s.phase, s.current_player) == ("action", 1)
    assert s.observation(0)["litter_box"] == [5, 30, 12]
    assert len(s.hand(1)) == 1 + 3  # Meal Time: three cards


def test_first_bite_low_rank_wins_when_the_indicator_says_low(position):
    s = position(3, phase="bets", hands=[[5, 6], [30, 7], [12, 8]], turn_indicator="low")
    s = act(s, "bet 5", "bet 30", "bet 12")
    assert s.toy_holder == 0


def test_first_bite_tie_makes_the_tied_cats_bet_again(position):
    # Cards 1 and 2 share rank 50, above 12: seats 0 and 1 tie and bet again.
    s = position(3, phase="bets", hands=[[1, 20], [2, 19], [12]], turn_indicator="high")
    s = act(s, "bet 1", "bet 2", "bet 12")
    assert s.phase == "bet" and s.current_player == 0
    window = s.observation(2)["window"]
    assert window["round"] == 2 and window["bettors"] == [0, 1]
    s = act(s, "bet 20", "bet 19")
    assert s.toy_holder == 0
    assert Counter(s.observation(0)["litter_box"]) == Counter([1, 2, 12, 20, 19])


def test_first_bite_bets_are_hidden_until_everyone_has_bet(position):
    s = position(3, phase="bets", hands=[[5, 6], [30, 7], [12, 8]])
    one, other = act(s, "bet 5"), act(s, "bet 6")
    assert one.observation(1) == other.observation(1)
    assert one.observation(1)["cats"][0]["hand_size"] == 2  # the bet stays in hand
    assert one.observation(1)["window"]["placed"] == [0]
    assert one.observation(0)["window"]["my_bet"] == 5
    assert (
        "my_bet" in one.observation(1)["window"] and one.observation(1)["window"]["my_bet"] is None
    )


def test_new_game_flips_the_turn_indicator_and_deals_six_cards(make_game):
    game = make_game(4)
    indicators = {
        game.new_initial_state(seed).observation(0)["turn_indicator"] for seed in range(20)
    }
    assert indicators == {"high", "low"}
    state = game.new_initial_state(3)
    assert [len(state.hand(seat)) for seat in range(4)] == [6, 6, 6, 6]
    assert (
        make_game(4, turn_indicator="low").new_initial_state(3).observation(0)["turn_indicator"]
        == "low"
    )


# -- the Domestic turn ----------------------------------------------------------------------


def test_meal_time_draws_three_cards(position):
    s = position(phase="turn-start", bowl=[1, 2, 3, 4])
    assert s.hand(0) == (1, 2, 3) and s.phase == "action"


def test_meal_time_draw_is_an_option_for_other_printings(position):
    s = position(phase="turn-start", bowl=[1, 2, 3, 4], options={"meal_draw": 2})
    assert s.hand(0) == (1, 2)


def test_start_hand_is_an_option_for_other_printings(make_game):
    state = make_game(3, start_hand=3).new_initial_state(1)
    assert [len(state.hand(seat)) for seat in range(3)] == [3, 3, 3]


def test_exactly_two_actions_then_grooming_draws_up_to_five_and_the_cat_toy_passes(position):
    s = position(3, hands=[[6, 7, 8, 9, 10], [], []], bowl=[1, 2])
    s = act(s, "bank 6")
    assert s.phase == "action" and s.current_player == 0
    s = act(s, "bank 7")
    assert s.hand(0) == (1, 2, 8, 9, 10)  # three left, drew two up to five
    assert s.toy_holder == 1 and s.turn == 2 and s.current_player == 1
    assert s.hand(1) == (3, 4, 5)  # seat 1's Meal Time
    assert "seat 0 naps and passes the Cat Toy to seat 1" in texts(s)


def test_counter_clockwise_direction_passes_the_cat_toy_the_other_way(position):
    s = position(3, hands=[[6, 7], [], []], direction=-1)
    s = act(s, "bank 6", "bank 7")
    assert s.toy_holder == 2


def test_direction_option(make_game):
    game = make_game(3, direction="counter-clockwise")
    assert game.new_initial_state(1).observation(0)["direction"] == "counter-clockwise"
    flips = {
        make_game(3, direction="flip").new_initial_state(seed).observation(0)["direction"]
        for seed in range(20)
    }
    assert flips == {"clockwise", "counter-clockwise"}


def test_the_same_action_may_be_taken_twice(position):
    s = position(hands=[[6, 7], []])
    s = act(s, "bank 6", "bank 7")
    assert s.house(0) == (6, 7) and s.affection(0) == 4


def test_grooming_discards_down_to_five_one_card_at_a_time(position):
    s = position(hands=[[6, 7, 8, 9, 10, 11, 12, 13, 14], []])
    s = act(s, "bank 6", "bank 7")
    assert s.phase == "discard" and s.current_player == 0 and len(s.hand(0)) == 7
    s = act(s, "discard 8")
    assert s.phase == "discard"
    s = act(s, "discard 9")
    assert s.hand(0) == (10, 11, 12, 13, 14) and s.toy_holder == 1


def test_bank_puts_an_affection_card_in_the_house(position):
    s = act(position(hands=[[6, 21], []]), "bank 6")
    assert s.house(0) == (6,) and s.hand(0) == (21,)
    assert "bank 21" not in legal(s) and "score 21" in legal(s)


@pytest.mark.parametrize(
    ("house", "card", "paid", "left"),
    [
        ([11, 1, 6], 25, [11], (1, 6)),  # cost 3: one Affection 3 (fewest cards)
        ([6, 7, 11], 29, [6, 7], (11,)),  # cost 4: 2 + 2 exactly, keep the 3
        ([16], 21, [16], ()),  # cost 1 with a 4: no change given
    ],
)
def test_scoring_pays_the_cost_with_the_least_waste_and_no_change(
    position, house, card, paid, left
):
    s = act(position(hands=[[card], []], houses=[house, []]), f"score {card}")
    assert s.house(0) == left
    assert s.points[0] == s.game.paws[s.game.index_of[card]]
    assert s.observation(1)["litter_box"] == [card, *paid]


def test_a_mischief_card_you_cannot_pay_for_makes_you_feral_and_loses_all_affection(position):
    s = act(position(hands=[[29], []], houses=[[1], []]), "score 29")
    assert s.feral[0] and s.house(0) == () and s.points[0] == 0
    assert Counter(s.observation(1)["litter_box"]) == Counter([1, 29])


def test_basic_game_unpaid_mischief_loses_affection_but_no_cat_goes_feral(position):
    s = act(position(variant="basic", hands=[[29], []], houses=[[1], []]), "score 29")
    assert not s.feral[0] and s.house(0) == () and s.points[0] == 0


def test_an_incident_is_resolved_then_goes_to_the_litter_box(position):
    s = act(position(hands=[[36], []], bowl=[1, 2]), "play 36")
    assert s.hand(0) == (1, 2)
    assert s.observation(1)["litter_box"] == [36]


def test_picky_eater_discards_the_hand_and_draws_as_many(position):
    s = act(position(hands=[[6, 7, 8], []], bowl=[1, 2, 3]), "picky-eater")
    assert s.hand(0) == (1, 2, 3)
    assert s.observation(1)["litter_box"] == [6, 7, 8]


def test_an_empty_hand_leaves_only_picky_eater_for_zero_cards(position):
    s = position(hands=[[], []])
    assert legal(s) == ["picky-eater"]
    s = act(s, "picky-eater")
    assert s.hand(0) == () and s.phase == "action"


def test_buying_a_pounce_token_costs_two_cards_while_the_bank_has_one(position):
    s = position(hands=[[6, 7, 8], []], token_bank=1)
    assert {"buy-token 6 7", "buy-token 6 8", "buy-token 7 8"} <= set(legal(s))
    s = act(s, "buy-token 6 8")
    assert s.tokens == (2, 1) and s.token_bank == 0 and s.hand(0) == (7,)
    assert not any(a.startswith("buy-token") for a in legal(s))


def test_no_pounce_tokens_in_the_basic_game(position):
    s = position(variant="basic", hands=[[6, 7, 8], [21]])
    assert s.tokens == (0, 0) and s.token_bank == 0
    assert not any(a.startswith("buy-token") for a in legal(s))


def test_the_litter_box_is_reshuffled_only_when_a_card_must_be_drawn(position, make_game):
    game = make_game(2)
    everything = [game.numbers[c] for c in game.in_play]
    litter = [n for n in everything if n not in (6, 7, 8)]
    s = position(hands=[[6, 7, 8], []], litter=litter)
    assert s.observation(0)["food_bowl"] == 0
    s = act(s, "bank 6")
    assert s.observation(0)["food_bowl"] == 0 and len(s.observation(0)["litter_box"]) == len(litter)
    s = act(s, "bank 7")  # Grooming Time must draw four: now the Litter Box is reshuffled
    assert "reshuffle" in kinds(s)
    obs = s.observation(1)
    assert obs["food_bowl"] == len(litter) - 4 - 3 and obs["litter_box"] == []
    assert len(s.hand(0)) == 5


# -- Pounce and Counter ---------------------------------------------------------------------


def test_a_pounce_window_opens_for_cats_with_a_token_and_a_usable_card(position):
    s = position(3, hands=[[6], [21], [7]])
    s = act(s, "bank 6")
    assert (s.phase, s.current_player) == ("pounce", 1)
    window = s.observation(2)["window"]
    assert window["kind"] == "pounce" and window["seats"] == [1] and not window["last_chance"]
    assert window["after_card"] == 6
    assert legal(s) == ["pass", "pounce attack 0 with 21"]
    s = act(s, "pass")
    assert s.house(0) == (6,) and s.phase == "action"


def test_pounce_choices_are_hidden_until_everyone_has_decided(position):
    s = act(position(3, hands=[[6], [21], [22]]), "bank 6")
    pounced, passed = act(s, "pounce attack 0 with 21"), act(s, "pass")
    assert pounced.current_player == passed.current_player == 2
    assert pounced.observation(2) == passed.observation(2)
    assert pounced.observation(2)["cats"][1]["tokens"] == 1
    assert pounced.observation(2)["cats"][1]["hand_size"] == 1
    assert pounced.observation(1)["window"]["my_choice"] == "pounce attack 0 with 21"
    assert pounced.observation(0)["window"]["decided"] == [1]
    revealed = act(pounced, "pass")
    assert "Pounces revealed: seat 1 pounce attack 0 with 21, seat 2 pass" in texts(revealed)


def test_attacked_cat_pays_and_scores_half_rounded_down_the_attacker_nothing(position):
    s = act(position(hands=[[6], [32]], houses=[[11, 12], []]), "bank 6", "pounce attack 0 with 32")
    assert s.points == (2, 0)  # 5 paws: half rounded down
    assert s.house(0) == (6,)  # paid 3 + 3, then the banked card resolved
    assert s.tokens == (1, 0) and s.token_bank == 3  # the spent token went to the bank


def test_attacked_cat_that_cannot_pay_goes_feral(position):
    s = act(position(hands=[[6], [32]], houses=[[1], []]), "bank 6", "pounce attack 0 with 32")
    assert s.feral == (True, False) and s.points == (0, 0)
    assert s.house(0) == (6,)  # the pending card is banked in the new Territory


def test_a_pounce_incident_can_cancel_the_current_card(position):
    s = act(position(hands=[[25], [37]], houses=[[11, 12], []]), "score 25", "pounce play 37")
    assert s.points == (0, 0) and s.house(0) == (11, 12)  # not scored, cost not paid
    assert "cancelled" in kinds(s)


def test_counter_by_banking_affection_from_hand_meets_the_cost(position):
    s = act(position(hands=[[6, 16], [32]], houses=[[11], []]), "bank 6", "pounce attack 0 with 32")
    assert (s.phase, s.current_player) == ("counter", 0)
    assert legal(s) == ["pass", "counter bank 16"]
    s = act(s, "counter bank 16")
    assert s.phase == "counter-bank"
    s = act(s, "done")
    assert not s.feral[0] and s.points[0] == 2 and s.tokens[0] == 0


def test_counter_by_playing_an_incident_can_cancel_the_pounce(position):
    s = act(
        position(hands=[[6, 37], [32]], houses=[[1], []]),
        "bank 6",
        "pounce attack 0 with 32",
        "counter play 37",
    )
    assert not s.feral[0] and s.house(0) == (1, 6) and s.tokens == (0, 0)


def test_countering_is_never_required(position):
    s = act(
        position(hands=[[6, 16], [32]], houses=[[1], []]),
        "bank 6",
        "pounce attack 0 with 32",
        "pass",
    )
    assert s.feral[0]


def test_a_cat_cannot_win_with_a_counter(position):
    s = act(
        position(points=[7, 0], hands=[[6, 16], [33]], houses=[[11], []]),
        "bank 6",
        "pounce attack 0 with 33",
        "counter bank 16",
        "done",
    )
    assert s.points[0] == 7 and not s.is_terminal()
    assert "no-win" in kinds(s)


def test_no_hand_refill_after_a_counter(position):
    s = act(
        position(hands=[[6, 16], [32]], houses=[[11], []]),
        "bank 6",
        "pounce attack 0 with 32",
        "counter bank 16",
        "done",
        "picky-eater",
    )
    assert s.toy_holder == 1 and s.hand(0) == ()
    assert "no-refill" in kinds(s)


def test_a_domestic_cat_pounces_only_on_the_cat_toy_holder_a_feral_on_any_domestic(position):
    s = act(position(3, hands=[[6], [21], []]), "bank 6")
    assert legal(s) == ["pass", "pounce attack 0 with 21"]
    s = act(position(3, hands=[[6], [21], []], feral=[False, True, False]), "bank 6")
    assert legal(s) == ["pass", "pounce attack 2 with 21", "pounce attack 0 with 21"]


def test_a_pounce_that_is_no_longer_possible_is_withdrawn_card_and_token_kept(position):
    s = act(
        position(3, hands=[[6], [32], [33]], houses=[[1], [], []]),
        "bank 6",
        "pounce attack 0 with 32",
        "pounce attack 0 with 33",
    )
    assert s.feral[0]
    assert s.hand(2) == (33,) and s.tokens[2] == 1
    assert "pounce-withdrawn" in kinds(s)


def test_no_pounce_windows_in_the_basic_game(position):
    s = act(position(variant="basic", hands=[[6, 7], [21, 37]]), "bank 6")
    assert s.phase == "action" and s.current_player == 0


def test_dog_cards_can_be_pounce_only(position):
    s = position(hands=[[47, 6], [21]], options={"dog_cards": "pounce-only"})
    assert "play 47" not in legal(s)
    s = position(hands=[[47, 6], [21]])
    assert "play 47" in legal(s)
    s = act(position(hands=[[6], [47]], options={"dog_cards": "pounce-only"}), "bank 6")
    assert "pounce play 47" in legal(s)


# -- Feral Cats -----------------------------------------------------------------------------


def test_feral_meal_time_keeps_one_of_the_three_cards_drawn(position):
    s = position(phase="turn-start", feral=[True, False], bowl=[6, 7, 8])
    assert s.phase == "keep" and legal(s) == ["keep 6", "keep 7", "keep 8"]
    assert s.observation(0)["window"]["drawn"] == [6, 7, 8]
    assert "drawn" not in s.observation(1)["window"]
    s = act(s, "keep 7")
    assert s.hand(0) == (7,) and Counter(s.observation(1)["litter_box"]) == Counter([6, 8])


def test_feral_pounce_tokens_cost_three_cards(position):
    assert not any(
        a.startswith("buy-token") for a in legal(position(feral=[True, False], hands=[[6, 7], []]))
    )
    assert "buy-token 6 7 8" in legal(position(feral=[True, False], hands=[[6, 7, 8], []]))


def test_a_feral_cat_cannot_score_nor_be_attacked_with_mischief(position):
    s = position(feral=[True, False], hands=[[21], [22]])
    assert "score 21" not in legal(s) and "attack 1 with 21" in legal(s)
    s = act(position(feral=[True, False], hands=[[6], [22]]), "bank 6")
    assert s.phase == "action"  # seat 1 has only a Mischief card: no Pounce on a Feral


def test_troublemaker_a_feral_attacks_any_domestic_cat_as_an_action_without_a_token(position):
    s = act(
        position(feral=[True, False], hands=[[25], []], houses=[[], [1]], tokens=[0, 1]),
        "attack 1 with 25",
    )
    assert s.feral == (True, True) and s.tokens == (0, 1) and s.house(1) == ()


def test_adoption_check_at_four_affection_keeps_the_affection(position):
    s = position(phase="turn-start", feral=[True, False], houses=[[11, 1], []])
    assert not s.feral[0] and s.house(0) == (11, 1)
    assert s.phase == "action" and len(s.hand(0)) == 3  # a Domestic Meal Time
    s = position(phase="turn-start", feral=[True, False], houses=[[11], []])
    assert s.feral[0] and s.phase == "keep"


# -- Instant Actions ------------------------------------------------------------------------


def test_instant_bank_when_any_player_uses_the_icons_card_type(position):
    s = act(position(hands=[[21], [48]], houses=[[1], []]), "score 21")
    assert (s.phase, s.current_player) == ("instant", 1)
    assert legal(s) == ["pass", "instant 48"]
    s = act(s, "instant 48")
    assert s.house(1) == (48,)


def test_instant_score_is_free_and_your_own_cards_trigger_it(position):
    s = act(position(hands=[[21, 53], []], houses=[[1], []]), "score 21", "instant 53")
    assert s.points[0] == 2 and s.house(0) == ()  # paid 1 for #21, nothing for #53


def test_instant_actions_trigger_each_other(position):
    s = act(position(hands=[[6], [51, 50]], bowl=[30], tokens=[1, 0]), "bank 6", "instant 51")
    assert s.house(1) == (51,) and (s.phase, s.current_player) == ("instant", 1)
    s = act(s, "instant 50")  # banking #51 used an Affection card: #50 plays for free
    assert s.hand(1) == (30,) and s.phase == "action" and s.current_player == 0


def test_instant_mischief_icon_of_event_type(position):
    s = act(position(hands=[[36], [49]]), "play 36", "pass")
    assert legal(s) == ["pass", "instant 49"]
    s = act(s, "instant 49")
    assert s.points == (0, 2)


def test_dog_cards_trigger_dog_icons(position):
    s = act(position(hands=[[6], [47, 52]]), "bank 6", "pounce play 47")
    assert "instant 52" in legal(s)
    s = act(s, "instant 52")
    assert s.house(1) == (52,) and s.house(0) == ()  # the banked #6 was cancelled


# -- winning --------------------------------------------------------------------------------


def test_the_ninth_mischief_point_wins_after_a_last_chance_pounce(position):
    s = act(position(points=[7, 0], hands=[[25], [37]], houses=[[11], []]), "score 25")
    window = s.observation(1)["window"]
    assert window["kind"] == "pounce" and window["last_chance"]
    s = act(s, "pass")
    assert s.is_terminal() and s.points[0] == 9
    result = s.result()
    assert result.winners == (0,) and result.win_type == "nine_mischief"
    assert [p.rank for p in result.players] == [1, 2]


def test_a_last_chance_pounce_can_cancel_the_winning_card(position):
    s = act(
        position(points=[7, 0], hands=[[25], [37]], houses=[[11], []]), "score 25", "pounce play 37"
    )
    assert not s.is_terminal() and s.points[0] == 7


def test_a_last_chance_attack_can_leave_the_winner_unable_to_pay(position):
    s = act(
        position(points=[7, 0], hands=[[25], [21]], houses=[[11], []]),
        "score 25",
        "pounce attack 0 with 21",
    )
    assert not s.is_terminal() and s.feral[0] and s.points[0] == 7


def test_feral_victory_nine_affection_banked_holding_the_cat_toy(position):
    s = act(position(feral=[True, False], hands=[[13], []], houses=[[11, 12], []]), "bank 13")
    assert s.is_terminal() and s.result().win_type == "feral_victory"
    assert s.result().winners == (0,)


def test_feral_victory_gets_a_last_chance_pounce_too(position):
    s = act(position(feral=[True, False], hands=[[13], [37]], houses=[[11, 12], []]), "bank 13")
    assert s.observation(1)["window"]["last_chance"]
    s = act(s, "pounce play 37")
    assert not s.is_terminal() and s.affection(0) == 6


def test_points_from_anything_but_the_winning_play_never_reach_nine(position):
    s = act(position(points=[8, 0], hands=[[42], []]), "play 42")
    assert s.points[0] == 8 and not s.is_terminal()
    assert "no-win" in kinds(s)


def test_an_instant_score_by_a_cat_not_holding_the_toy_cannot_win(position):
    s = act(
        position(points=[0, 8], hands=[[21], [53]], houses=[[1], []]),
        "score 21",
        "pass",
        "instant 53",
    )
    assert s.points == (1, 8) and not s.is_terminal()


def test_turn_limit_stops_an_unfinished_game_without_a_winner(position):
    s = act(position(hands=[[6, 7], []], turn=3, options={"turn_limit": 3}), "bank 6", "bank 7")
    assert s.is_terminal() and s.result().winners == () and not s.result().finished


# -- effects --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "setup", "check"),
    [
        (38, {"hands": [[38], [6, 7]]}, lambda s: len(s.hand(0)) == 1 and len(s.hand(1)) == 1),
        (39, {"hands": [[39], [6, 7]]}, lambda s: len(s.hand(1)) == 1),
        (40, {"hands": [[40], []], "houses": [[], [1, 16]]}, lambda s: s.house(1) == (1,)),
        (
            41,
            {"hands": [[41], []], "houses": [[], [1, 16]]},
            lambda s: s.house(1) == (16,) and s.house(0) == (1,),
        ),
        (43, {"hands": [[43], []], "token_bank": 1}, lambda s: s.tokens == (2, 1)),
        (44, {"hands": [[44], []]}, lambda s: s.tokens == (1, 0) and s.token_bank == 3),
        (45, {"hands": [[45], []], "houses": [[], [1]]}, lambda s: s.feral[1] and not s.house(1)),
        (46, {"hands": [[46], []], "feral": [False, True]}, lambda s: not s.feral[1]),
    ],
)
def test_each_effect_primitive(position, card, setup, check):
    s = position(**setup)
    play = next(a for a in legal(s) if a.startswith(f"play {card}"))
    s = act(s, play)
    while s.phase == "pounce":  # nobody Pounces here
        s = act(s, "pass")
    assert check(s)


def test_basic_game_ignores_feral_and_token_steps(position):
    s = act(position(variant="basic", hands=[[45], []], houses=[[], [1]]), "play 45 on 1")
    assert not s.feral[1] and s.house(1) == (1,)


def test_basic_game_removes_the_cards_marked_for_removal(make_game):
    game = make_game(2, variant="basic")
    numbers = {game.numbers[c] for c in game.in_play}
    assert 43 not in numbers and 46 not in numbers and 45 in numbers


def test_cards_are_named_by_number_and_an_illegal_action_says_why(position):
    s = position(hands=[[6], []])
    with pytest.raises(IllegalActionError, match="card #7 is not in seat 0's hand"):
        s.apply(s.game.parse_action("bank 7"))
    with pytest.raises(IllegalActionError, match="no card #500"):
        s.apply(s.game.parse_action("bank 500"))
    with pytest.raises(IllegalActionError, match="seat 0 must take an action"):
        s.apply(s.game.parse_action("pass"))


def test_token_bank_size_is_an_option_defaulting_to_one_per_player(make_game):
    assert make_game(3).new_initial_state(1).token_bank == 3
    state = make_game(3, token_bank=0).new_initial_state(1)
    assert state.token_bank == 0 and state.tokens == (1, 1, 1)
    assert make_game(5, token_bank=7).new_initial_state(1).token_bank == 7
    basic = make_game(3, variant="basic").new_initial_state(1)
    assert basic.token_bank == 0 and basic.tokens == (0, 0, 0)


def test_the_log_records_each_simultaneous_choice_and_its_reveal(position):
    s = act(position(3, hands=[[6], [21], [22]]), "bank 6", "pounce attack 0 with 21", "pass")
    history = [str(a) for a in s.history]
    assert history == ["bank 6", "pounce attack 0 with 21", "pass"]
    assert "Pounces revealed: seat 1 pounce attack 0 with 21, seat 2 pass" in texts(s)
