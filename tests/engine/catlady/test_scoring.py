"""End-game scoring: every rule and clarification, the rulebooks' examples, ties, open questions."""

from __future__ import annotations

import pytest

from engine.catlady.cards import load_edition
from engine.catlady.scoring import (
    ScoringRules,
    Tableau,
    score_game,
    tableaux_from_json,
    toy_sets_vp,
)
from engine.errors import ScoreInputError

BASE = load_edition()
T = Tableau


def score(*tableaux: Tableau, rules: ScoringRules | None = None, validate: bool = True):
    return score_game(
        list(tableaux), edition=BASE, rules=rules or ScoringRules(), validate=validate
    )


def first(tableau: Tableau, **kw):
    """Score one tableau in a 4-player game (full deck) against three quiet opponents."""
    quiet = [T(f"quiet{i}", costumes=1) for i in range(3)]
    return score(tableau, *quiet, **kw).players[0]


def fed_cats(*cats: str, **food: int) -> int:
    return first(T("p", cats=cats, food=food, costumes=1)).fed_cats


def feeding(player) -> dict[str, bool]:
    return {f.cat: f.fed for f in player.feeding}


# --- cats and feeding ------------------------------------------------------------------------


def test_bronte_fed_two_tuna_scores_three():  # base rulebook example
    assert fed_cats("Bronte", tuna=2) == 3


def test_bronte_partly_fed_is_hungry_minus_two():  # no partial feeding
    player = first(T("p", cats=("Bronte",), food={"tuna": 1}, costumes=1))
    assert player.fed_cats == -2 and player.feeding[0].ate == ()
    assert player.leftover_food == 1


def test_wild_stands_for_any_food_and_the_plan_says_so():
    player = first(T("p", cats=("Pumpkin",), food={"chicken": 1, "milk": 1, "wild": 1}, costumes=1))
    assert player.fed_cats == 6
    assert sorted(player.feeding[0].ate) == [
        ("chicken", "chicken"),
        ("chicken", "wild"),
        ("milk", "milk"),
    ]


def test_short_food_leaves_the_cheapest_cat_hungry():
    # 3 tuna: Pablo (6 VP, 3 tuna) beats Bronte (3 VP, 2 tuna)
    player = first(T("p", cats=("Bronte", "Pablo Picatso"), food={"tuna": 3}, costumes=1))
    assert feeding(player) == {"Bronte": False, "Pablo Picatso": True}
    assert player.fed_cats == 6 - 2


def test_equal_vp_feedings_prefer_more_fed_cats():
    # 3 tuna: Pablo alone (6 - 2 - 2) and Bronte + Shadow (3 + 1 - 2) both make 2 VP
    player = first(T("p", cats=("Bronte", "Shadow", "Pablo Picatso"), food={"tuna": 3}, costumes=1))
    assert player.fed_cats == 2 and player.fed_cat_count == 2


def test_wild_goes_where_it_is_worth_most():
    player = first(
        T("p", cats=("Keaton", "Zeus"), food={"milk": 2, "chicken": 1, "wild": 1}, costumes=1)
    )
    assert player.fed_cats == 4 + 3


def test_florence_counts_herself_and_multicoloured_cats():
    assert fed_cats("Florence", chicken=1, milk=1) == 2
    assert fed_cats("Florence", "Bronte", "Dinah", chicken=2, milk=2, tuna=2) == 2 * 3 + 3 + 1


def test_antoinette_and_eliot_count_their_colour():
    assert fed_cats("Antoinette", "Snowflake", tuna=1, milk=2) == 2 * 2 + 2
    assert fed_cats("Eliot", "Sweetheart", "Jazz", chicken=2, tuna=3) == 2 * 3 + 5 + 1


def test_alvin_dinah_luna_score_per_fed_cat_of_their_colour_including_themselves():
    assert fed_cats("Alvin", tuna=1, milk=1) == 1  # Alvin is orange
    assert fed_cats("Dinah", "Snowflake", chicken=1, milk=2) == 2 + 2
    assert fed_cats("Luna", "Jazz", "Shadow", chicken=1, tuna=3) == 3 + 1 + 1


def test_levar_sets_use_each_cat_once_and_multicoloured_cats_count_as_all_colours():
    # Sweetheart alone is a set; Dinah + a black cat is a set (Premium rulebook)
    assert fed_cats("LeVar Purrton", "Sweetheart", chicken=2, tuna=2) == 4 + 5
    assert fed_cats("LeVar Purrton", "Dinah", "Jazz", chicken=2, tuna=2, milk=1) == 4 + 2 + 1
    # LeVar (white) + Bell (orange) + Jazz (black) + Sweetheart: two sets
    assert (
        fed_cats("LeVar Purrton", "Bell", "Jazz", "Sweetheart", chicken=3, tuna=3) == 8 + 1 + 1 + 5
    )
    # two oranges and a black cannot make two sets
    assert fed_cats("LeVar Purrton", "Bell", "Chester", "Jazz", chicken=2, tuna=3) == 4 + 3


def test_zoroaster_scores_per_costume_and_costumes_still_score():
    player = first(T("p", cats=("Zoroaster",), food={"chicken": 2}, costumes=3))
    assert player.fed_cats == 6 and player.costumes == 6


def test_penny_scores_per_toy_and_toys_still_score():
    player = first(
        T("p", cats=("Penny",), food={"milk": 1}, toys={"mouse_toy": 2, "yarn_ball": 1}, costumes=1)
    )
    assert player.fed_cats == 3 and player.toys == 3 + 1


def test_macak_counts_as_catnip_only_when_fed():
    fed = first(
        T("p", cats=("Macak", "Bell"), food={"milk": 1, "chicken": 1}, catnip=1, costumes=1)
    )
    assert fed.catnip_counted == 2 and fed.catnip == 2  # 2 catnip: +1 per fed cat
    hungry = first(T("p", cats=("Macak", "Bell"), food={"chicken": 1}, catnip=1, costumes=1))
    assert hungry.catnip_counted == 1 and hungry.catnip == -2


def test_macak_as_the_only_catnip_loses_two_unless_the_club_makes_it_optional():
    player = first(T("p", cats=("Macak",), food={"milk": 1}, costumes=1))
    assert (player.fed_cats, player.catnip) == (2, -2)
    optional = first(
        T("p", cats=("Macak",), food={"milk": 1}, costumes=1),
        rules=ScoringRules(macak_catnip_optional=True),
    )
    assert (optional.fed_cats, optional.catnip) == (2, 0)


def test_waffle_eats_one_food_type_only():
    # 2 tuna + 2 milk: Waffle eats 2 of one type (6 VP), never all 4
    player = first(T("p", cats=("Waffle",), food={"tuna": 2, "milk": 2}, costumes=1))
    assert player.fed_cats == 6 and player.leftover_food == 2


def test_waffle_eats_at_most_four_and_wilds_can_join_his_type():
    assert fed_cats("Waffle", tuna=6) == 12
    player = first(T("p", cats=("Waffle",), food={"tuna": 2, "wild": 1}, costumes=1))
    assert player.fed_cats == 9 and ("tuna", "wild") in player.feeding[0].ate


def test_waffle_against_bronte_is_an_optimisation():
    # 4 tuna: Waffle eats all 4 (12) and Bronte goes hungry (-2) beats 3 + 6
    player = first(T("p", cats=("Waffle", "Bronte"), food={"tuna": 4}, costumes=1))
    assert player.fed_cats == 10


def test_cow_eats_all_leftover_food_two_vp_each():
    player = first(
        T("p", cats=("Cow", "Bronte"), food={"tuna": 3, "milk": 2, "wild": 1}, costumes=1)
    )
    assert player.fed_cats == 3 + 2 * 4 and player.leftover_food == 0


def test_cow_may_eat_the_food_of_a_cat_left_hungry():
    # found by the brute-force property test: Cow eating both wilds (4) with Alvin hungry (-2)
    # beats Alvin fed (1) with Cow hungry (-2)
    player = first(T("p", cats=("Cow", "Alvin"), food={"wild": 2}, costumes=1))
    assert player.fed_cats == 2 and feeding(player) == {"Cow": True, "Alvin": False}


def test_cow_needs_at_least_one_food():
    # Sweetheart (5 VP) beats Cow on the same 2 food (4 VP); nothing is left for Cow
    player = first(T("p", cats=("Cow", "Sweetheart"), food={"tuna": 1, "chicken": 1}, costumes=1))
    assert player.fed_cats == 5 - 2 and feeding(player) == {"Cow": False, "Sweetheart": True}


def test_truffle_scores_for_other_fed_cats_eating_her_chosen_food():
    # Truffle eats tuna: Bronte and Shadow eat tuna -> 4; milk would give 0
    player = first(
        T(
            "p",
            cats=("Truffle", "Bronte", "Shadow", "Snowflake"),
            food={"tuna": 4, "milk": 1},
            costumes=1,
        )
    )
    assert player.feeding[0].vp == 4 and player.feeding[0].ate == (("tuna", "tuna"),)


def test_moonbeam_turns_two_food_into_wilds():
    # Keaton needs 2 milk; only chicken spare: Moonbeam lets 2 chicken stand in
    player = first(T("p", cats=("Moonbeam", "Keaton"), food={"chicken": 3, "tuna": 1}, costumes=1))
    assert player.fed_cats == 3 + 4
    assert player.feeding[1].ate == (("milk", "chicken"), ("milk", "chicken"))


def test_moonbeam_conversions_are_capped_at_two():
    player = first(
        T("p", cats=("Moonbeam", "Pablo Picatso"), food={"chicken": 4, "tuna": 1}, costumes=1)
    )
    assert feeding(player) == {"Moonbeam": True, "Pablo Picatso": False}


def test_sweetheart_is_every_colour():
    assert fed_cats("Florence", "Antoinette", "Sweetheart", chicken=2, tuna=2, milk=2) == 4 + 4 + 5


# --- Hemingway and cross-player feeding --------------------------------------------------------


def test_hemingway_is_seven_with_strictly_most_fed_cats():
    s = score(
        T("a", cats=("Hemingway", "Bell"), food={"milk": 1, "chicken": 1}, costumes=1),
        T("b", cats=("Gershon",), food={"chicken": 1}, costumes=1),
    )
    assert s.players[0].fed_cats == 7 + 1


def test_hemingway_is_three_on_a_tie_for_most_fed_cats():
    s = score(
        T("a", cats=("Hemingway", "Bell"), food={"milk": 1, "chicken": 1}, costumes=1),
        T("b", cats=("Gershon", "Snowflake"), food={"chicken": 1, "milk": 1}, costumes=1),
    )
    assert s.players[0].fed_cats == 3 + 1


# --- toys, costumes, catnip, tokens, penalty ---------------------------------------------------


def test_kats_toys_score_nine():  # base rulebook example: 5 + 3 + 1
    player = first(T("Kat", toys={"feather_wand": 1, "cat_tower": 2, "mouse_toy": 3}, costumes=1))
    assert player.toys == 9


@pytest.mark.parametrize(
    ("counts", "vp"),
    [
        ([], 0),
        ([1], 1),
        ([1, 1], 3),
        ([1, 1, 1], 5),
        ([1, 1, 1, 1], 8),
        ([1, 1, 1, 1, 1], 12),
        ([3, 3, 3, 3, 3], 36),
        ([2, 0, 0, 0, 0], 2),
        ([2, 1, 1, 1, 1], 13),
    ],
)
def test_toy_sets(counts, vp):
    assert toy_sets_vp(counts, BASE.scoring.toy_set_vp) == vp


def test_most_costumes_scores_six_and_none_loses_two():
    s = score(T("a", costumes=3), T("b", costumes=1), T("c"))
    assert [p.costumes for p in s.players] == [6, 0, -2]


def test_tied_costumes_split_six():
    s = score(T("a", costumes=2), T("b", costumes=2), T("c", costumes=1))
    assert [p.costumes for p in s.players] == [3, 3, 0]


def test_costume_split_that_is_not_whole_rounds_per_setting():
    tied = [T(n, costumes=1) for n in "abcd"]
    assert [p.costumes for p in score(*tied).players] == [2] * 4
    down = score(*tied, rules=ScoringRules(costume_split="down"))
    assert [p.costumes for p in down.players] == [1] * 4


@pytest.mark.parametrize(("catnip", "vp"), [(0, 0), (1, -2), (2, 2), (3, 2), (4, 4), (6, 4)])
def test_catnip_scales_with_fed_cats(catnip, vp):
    player = first(
        T("p", cats=("Bell", "Gershon", "Chester"), food={"chicken": 2}, catnip=catnip, costumes=1)
    )
    assert player.catnip == vp  # two of the three cats are fed


def test_vp_tokens_are_two_each():
    assert first(T("p", vp_tokens=2, costumes=1)).vp_tokens == 4


def test_most_leftover_food_loses_two_and_ties_all_pay():
    s = score(
        T("a", food={"milk": 2}, costumes=1),
        T("b", food={"tuna": 2}, costumes=1),
        T("c", food={"chicken": 1}, costumes=1),
    )
    assert [p.food_penalty for p in s.players] == [-2, -2, 0]


def test_nobody_pays_when_nobody_has_leftover_unless_the_club_says_so():
    players = [T("a", costumes=1), T("b", costumes=1)]
    assert [p.food_penalty for p in score(*players).players] == [0, 0]
    strict = score(*players, rules=ScoringRules(penalty_when_nobody_has_leftover=True))
    assert [p.food_penalty for p in strict.players] == [-2, -2]


def test_leftover_penalty_is_part_of_the_feeding_trade_off():
    # b can feed Bronte (3 VP, 0 left, 2 fed? no: 1 fed) or Waffle 1 tuna... Both players' best own
    # feeding leaves food; feeding Waffle the spare chicken avoids the penalty.
    s = score(
        T("a", cats=("Waffle", "Zeus"), food={"chicken": 3}, costumes=1),
        T("b", food={"milk": 1}, costumes=1),
    )
    a = s.players[0]
    # Waffle 3 chicken (9) + Zeus hungry (-2) = 7, 0 left; Zeus (3) + Waffle 1 (3) = 6, 0 left
    assert a.fed_cats == 7 and a.food_penalty == 0 and s.players[1].food_penalty == -2


def test_a_player_gives_up_vp_to_dodge_the_penalty_only_when_it_pays():
    # a: Sox (6 VP) needs tuna 2 + milk 1; with tuna 2, milk 1, chicken 1 -> 1 left either way.
    # b has 1 leftover: a ties b and both pay unless a can do better.
    s = score(
        T("a", cats=("Sox", "Bell"), food={"tuna": 2, "milk": 1, "chicken": 1}, costumes=1),
        T("b", food={"milk": 1}, costumes=1),
    )
    assert s.players[0].leftover_food == 0 and s.players[0].fed_cats == 7
    assert s.players[1].food_penalty == -2


def test_score_pad_total_is_the_sum_of_the_breakdown():
    s = score(
        T(
            "a",
            cats=("Bronte", "Florence"),
            food={"tuna": 2, "chicken": 1, "milk": 2},
            toys={"mouse_toy": 1},
            costumes=1,
            catnip=2,
            vp_tokens=1,
        ),
        T("b", cats=("Keaton",), food={"milk": 2}),
    )
    for p in s.players:
        assert p.total == sum(p.breakdown.values())
    assert list(s.players[0].breakdown) == [
        "fed_cats",
        "toys",
        "costumes",
        "catnip",
        "vp_tokens",
        "food_penalty",
    ]


# --- winner and ranks ---------------------------------------------------------------------------


def test_winner_is_most_vp():
    s = score(T("a", vp_tokens=1, costumes=1), T("b", costumes=1))
    assert s.winners == (0,) and [p.rank for p in s.players] == [1, 2]


def test_tie_on_vp_goes_to_most_fed_cats():
    s = score(
        T("a", cats=("Bell", "Gershon"), food={"chicken": 2}, costumes=1),
        T("b", cats=("Zeus",), food={"chicken": 2}, costumes=1, vp_tokens=0),
    )
    assert [p.total for p in s.players] == [5, 6]
    s = score(
        T("a", cats=("Bell", "Gershon", "Shadow"), food={"chicken": 2, "tuna": 1}, costumes=1),
        T("b", cats=("Zeus",), food={"chicken": 2}, costumes=1),
    )
    assert [p.total for p in s.players] == [6, 6]
    assert s.winners == (0,) and [p.rank for p in s.players] == [1, 2]


def test_full_tie_is_shared():
    s = score(T("a", costumes=1), T("b", costumes=1), T("c"))
    assert s.winners == (0, 1) and [p.rank for p in s.players] == [1, 1, 3]


def test_result_is_json_serialisable_and_shows_the_feeding():
    import json

    s = score(T("a", cats=("Bronte",), food={"tuna": 1, "wild": 1}, costumes=1), T("b"))
    data = json.loads(json.dumps(s.to_json()))
    assert data["winners"] == ["a"]
    assert data["players"][0]["feeding"][0] == {
        "cat": "Bronte",
        "fed": True,
        "vp": 3,
        "ate": [{"food": "tuna", "token": "tuna"}, {"food": "tuna", "token": "wild"}],
    }


# --- impossible input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([T("a", cats=("Garfield",)), T("b")], r"players\[0\]\.cats\[0\]: unknown cat 'Garfield'"),
        (
            [T("a", cats=("Bronte",)), T("b", cats=("Bronte",))],
            r"players\[1\]\.cats\[0\]: more copies",
        ),
        ([T("a", cats=("Henrietta Van Weedle",)), T("b")], r"not in the deck for 2 players"),
        ([T("a", food={"tuna": -1}), T("b")], r"players\[0\]\.food\.tuna: must not be negative"),
        ([T("a", costumes=5), T("b", costumes=5)], r"costumes: 10 costume cards"),
        ([T("a", food={"tuna": 15}), T("b")], r"food\.tuna: 15 tokens"),
        ([T("a", vp_tokens=5), T("b")], r"lost_cats: lost cats held plus 2 per VP token"),
        (
            [T("a", cats=("Florence", "Penny", "Cow", "Waffle"), lost_cats=0), T("b")],
            r"4 stray cats taken",
        ),
        ([T("a")], r"1 players given"),
        ([T("a"), T("a")], r"'a' is used by two players"),
        ([T("a", toys={"laser": 1}), T("b")], r"toys\.laser: unknown toy"),
    ],
)
def test_impossible_end_states_are_refused(players, message):
    with pytest.raises(ScoreInputError, match=message):
        score_game(players, edition=BASE)


def test_tableaux_from_json_names_the_field():
    with pytest.raises(ScoreInputError, match=r"players\[1\]\.food\.tuna: expected a whole number"):
        tableaux_from_json(
            {
                "players": [
                    {"name": "a", "cats": []},
                    {"name": "b", "cats": [], "food": {"tuna": "two"}},
                ]
            },
            BASE,
        )
    with pytest.raises(ScoreInputError, match=r"players\[0\]: unknown field\(s\) cat"):
        tableaux_from_json([{"name": "a", "cats": [], "cat": []}], BASE)
    with pytest.raises(ScoreInputError, match=r"missing field 'cats'"):
        tableaux_from_json([{"name": "a"}], BASE)
    with pytest.raises(ScoreInputError, match=r"costumes: expected a whole number, got true"):
        tableaux_from_json([{"name": "a", "cats": [], "costumes": True}], BASE)


def test_tableaux_from_json_accepts_display_names_and_a_bare_list():
    [t] = tableaux_from_json(
        [{"name": "a", "cats": ["sir cuddleface"], "toys": {"Cat Tower": 1, "cat_tower": 1}}], BASE
    )
    assert t.cats == ("Sir Cuddleface",) and dict(t.toys) == {"cat_tower": 2}
