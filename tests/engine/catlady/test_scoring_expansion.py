"""Scoring rules of the Premium strays and of Box of Treats, one test per rule and
clarification, including every worked example of both rulebooks.

The real Premium strays' VP, colours and food are unknown, so the Premium tests give the
abilities to test cats ("... (test)") with made-up numbers: custom strays on the placeholder
edition. What is asserted is the rule, never a card value."""

from __future__ import annotations

import pytest

from engine.catlady.cards import load_edition
from engine.catlady.scoring import Tableau, score_game
from engine.catlady.scoring_expansion import SharedGoal
from engine.errors import ScoreInputError

PH = load_edition("box-of-treats-placeholder")
BASE = load_edition("base")


def cat(name, ability=None, params=None, vp=None, colours=("black",), needs=None):
    return {
        "name": name,
        "vp": vp,
        "colours": list(colours),
        "needs": {"milk": 1} if needs is None else needs,
        "ability": ability,
        "params": params or {},
    }


FLOOPY = cat("Floopy (test)", "food_sets_used", {"vp_each": 3})
GINGER = cat("Ginger (test)", "eats_catnip", {"catnip": 1}, vp=5, needs={})
KING_FLUFF = cat(
    "King Fluff (test)", "penalty_per_toy", {"vp_each": 5}, vp=12, needs={"chicken": 1}
)
SCRAPPY = cat("Scrappy (test)", "borrow_leftover", vp=2, needs={"any": 1})
SHERRY = cat("Sherry (test)", "reduce_needs", {"amount": 1}, vp=1, needs={"milk": 1})
VOODOO = cat("Voodoo (test)", "per_one_food_cat", {"vp_each": 2}, needs={"tuna": 1, "milk": 1})
MINA = cat(
    "Mina (test)", "per_multicoloured_fed", {"vp_each": 2}, vp=1, needs={"tuna": 1, "chicken": 1}
)
ELVIS = cat("Elvis (test)", "counts_as_costume", {"costumes": 1}, vp=1)
NICKY = cat("Little Nicky (test)", "copy_fed_cat_vp")
MARSHY = cat("Marshmallow (test)", "toy_sets_vp")
MR_ZOE = cat("Mr. Zoe (test)", "discard_for_vp", {"vp_each": 2})
TOMASSO = cat("Tomasso (test)", "counts_as_toy", {"toys": 1}, vp=0)
BANJO = cat("Banjo (test)", "per_food_type_cat", {"food": "tuna", "vp_each": 1})
CHOUPETTE = cat("Choupette (test)", "take_grid_cards", {"count": 2}, vp=1)
CALF = {
    "name": "Calf (test)",
    "vp": 2,
    "colours": ["white"],
    "needs": {},
    "ability": "vp_per_food_fed",
    "params": {"vp_each": 1, "min": 1, "max": 5, "one_type": False},
}
MISTER_FIT = cat("Mister Fit (test)", vp=4, needs={"any": 2})


def edition(*customs):
    return PH.with_custom_strays(list(customs)) if customs else PH


def score(players, ed=None, **kwargs):
    tableaux = [p if isinstance(p, Tableau) else Tableau(**p) for p in players]
    if len(tableaux) == 1:
        tableaux.append(Tableau("Other", food={}, costumes=1))
    return score_game(tableaux, edition=ed or PH, validate=False, **kwargs)


def seat(name, **fields):
    """A player's tableau, with one costume unless told otherwise: when every seat has one,
    all tie for the costume award and no one takes the no-costume penalty."""
    return Tableau(name, **{"costumes": 1, **fields})


def solo(cats, ed=None, **fields):
    """The score of Ann holding ``cats`` (and ``fields``), against a seat with nothing."""
    return score([seat("Ann", cats=cats, **fields)], ed)


def feeding(result, index=0):
    return {f.cat: (f.fed, f.vp) for f in result.players[index].feeding}


# --- Premium strays --------------------------------------------------------------------------


def test_floopy_rulebook_example_two_sets_of_fed_food_score_6():
    # RB-PREM: feed 4 tuna, 3 chicken and 2 milk: 2 sets, 6 VP. Leftover food does not count.
    ed = edition(FLOOPY)
    result = solo(
        ("Floopy (test)", "Bronte", "Sparkle", "Zeus", "Bell", "Snowflake"),
        food={"tuna": 4, "chicken": 3, "milk": 2 + 3},
        ed=ed,
    )
    assert feeding(result)["Floopy (test)"] == (True, 6)
    assert result.players[0].leftover == {"milk": 3}


def test_floopy_counts_a_wild_as_the_food_it_stood_for():
    ed = edition(FLOOPY)
    result = solo(
        ("Floopy (test)", "Bell", "Shadow"), food={"milk": 1, "chicken": 1, "wild": 1}, ed=ed
    )
    assert feeding(result)["Floopy (test)"] == (True, 3)


def test_ginger_eats_a_catnip_that_then_does_not_count():
    ed = edition(GINGER)
    result = solo(("Ginger (test)", "Bell"), food={"chicken": 1}, catnip=3, ed=ed)
    assert feeding(result)["Ginger (test)"] == (True, 5)
    assert result.players[0].catnip_counted == 2
    assert result.players[0].catnip == 2  # 2 catnip: 1 VP per fed cat


def test_ginger_without_catnip_is_unfed():
    ed = edition(GINGER)
    result = solo(("Ginger (test)",), food={}, ed=ed)
    assert feeding(result)["Ginger (test)"] == (False, -2)


def test_ginger_must_eat_a_catnip_even_when_it_costs_the_catnip_score():
    # 2 catnip: feeding Ginger leaves 1 catnip (-2) instead of 2 (+1 per fed cat). Not optional.
    ed = edition(GINGER)
    result = solo(("Ginger (test)", "Bell"), food={"chicken": 1}, catnip=2, ed=ed)
    assert feeding(result)["Ginger (test)"] == (True, 5)
    assert result.players[0].catnip == -2


def test_macak_can_feed_ginger():
    ed = edition(GINGER)
    result = solo(("Ginger (test)", "Macak"), food={"milk": 1}, ed=ed)
    assert feeding(result) == {"Ginger (test)": (True, 5), "Macak": (True, 2)}
    assert result.players[0].catnip_counted == 0


def test_king_fluff_loses_5_per_toy_and_toys_still_score():
    ed = edition(KING_FLUFF)
    one_toy = solo(("King Fluff (test)",), food={"chicken": 1}, toys={"yarn_ball": 1}, ed=ed)
    assert feeding(one_toy)["King Fluff (test)"] == (True, 7)
    assert one_toy.players[0].toys == 1


def test_king_fluff_is_left_unfed_when_the_toys_make_him_cost_more_than_2():
    ed = edition(KING_FLUFF)
    result = score(
        [
            seat(
                "Ann",
                cats=("King Fluff (test)",),
                food={"chicken": 1},
                toys={"yarn_ball": 1, "cat_tower": 1, "mouse_toy": 1},
            ),
            seat("Bob", cats=(), food={"milk": 3}),
        ],
        ed,
    )
    assert feeding(result)["King Fluff (test)"] == (False, -2)
    assert result.players[0].toys == 5


def test_scrappy_feeds_a_hungry_cat_with_another_players_leftover_after_the_penalty():
    ed = edition(SCRAPPY)
    result = score(
        [
            seat("Ann", cats=("Scrappy (test)", "Bronte"), food={"milk": 1}),
            seat("Bob", cats=(), food={"tuna": 2, "chicken": 1}),
            seat("Cy", cats=(), food={"chicken": 1}),
        ],
        ed,
    )
    ann, bob = result.players[0], result.players[1]
    assert feeding(result)["Bronte"] == (True, 3)
    assert ann.food_penalty == 0 and bob.food_penalty == -2  # settled before Scrappy
    assert any("Scrappy" in c and "tuna" in c for c in ann.choices)


def test_scrappy_unfed_borrows_nothing():
    ed = edition(SCRAPPY)
    result = score(
        [
            seat("Ann", cats=("Scrappy (test)", "Bronte"), food={}),
            seat("Bob", cats=(), food={"tuna": 3}),
        ],
        ed,
    )
    assert feeding(result) == {"Scrappy (test)": (False, -2), "Bronte": (False, -2)}


def test_sherry_reduces_non_stray_needs_by_one_of_the_owners_choice():
    # RB-PREM: Pumpkin (2 chicken + 1 milk) can be fed 2 chicken, or 1 chicken + 1 milk.
    ed = edition(SHERRY)
    for food in ({"chicken": 2}, {"chicken": 1, "milk": 1}):
        result = solo(
            ("Sherry (test)", "Pumpkin"), food={**food, "milk": food.get("milk", 0) + 1}, ed=ed
        )
        assert feeding(result)["Pumpkin"] == (True, 6)


def test_sherry_takes_a_one_food_cat_to_zero_still_fed():
    ed = edition(SHERRY)
    result = solo(("Sherry (test)", "Bell"), food={"milk": 1}, ed=ed)
    assert feeding(result)["Bell"] == (True, 1)


def test_sherry_does_not_reduce_strays():
    ed = edition(SHERRY)
    result = solo(("Sherry (test)", "Macak"), food={"milk": 1}, ed=ed)
    assert [fed for fed, _ in feeding(result).values()].count(True) == 1


def test_sherry_is_mandatory_extra_food_stays_leftover():
    ed = edition(SHERRY)
    result = solo(("Sherry (test)", "Bronte"), food={"milk": 1, "tuna": 2}, ed=ed)
    assert feeding(result)["Bronte"] == (True, 3)
    assert result.players[0].leftover == {"tuna": 1}


def test_voodoo_scores_2_per_other_one_food_cat():
    ed = edition(VOODOO)
    result = solo(
        ("Voodoo (test)", "Bell", "Shadow", "Bronte"),
        food={"tuna": 4, "milk": 1, "chicken": 1},
        ed=ed,
    )
    assert feeding(result)["Voodoo (test)"] == (True, 4)  # Bell and Shadow, not Bronte


def test_voodoo_counts_cow_fed_one_food():
    ed = edition(VOODOO)
    result = solo(("Voodoo (test)", "Cow"), food={"tuna": 2, "milk": 1}, ed=ed)
    # Cow eats 1 (counted by Voodoo: +2) or 1 more (+2 for Cow): equal VP, fewer leftovers win
    assert feeding(result)["Cow"][0]


def test_voodoo_with_sherry_counts_natural_one_food_cats_not_reduced_ones():
    ed = edition(VOODOO, SHERRY)
    result = solo(
        ("Voodoo (test)", "Sherry (test)", "Bell", "Bronte"), food={"tuna": 2, "milk": 2}, ed=ed
    )
    assert feeding(result)["Bronte"] == (True, 3)  # 2 tuna reduced to 1: fed
    assert feeding(result)["Bell"] == (True, 1)  # 1 chicken reduced to 0: fed, still 1-food
    # Bell (1 chicken, taken to 0) and Sherry (1 milk) count; Bronte (2 tuna, taken to 1) not
    assert feeding(result)["Voodoo (test)"] == (True, 4)


# --- Box of Treats: treats -------------------------------------------------------------------


def test_mina_with_a_treat_rulebook_example():
    # RB-BOT: Mina needs 1 tuna and 1 chicken; you have 1 chicken and a treat. Fed the treat
    # she is worth 1 VP whatever multicoloured cats you feed, and cannot also eat the chicken.
    pied = cat("Pied (test)", vp=1, colours=("black", "white"), needs={"milk": 1})
    ed = edition(MINA, pied)
    result = solo(("Mina (test)", "Pied (test)"), food={"chicken": 1, "treat": 1, "milk": 1}, ed=ed)
    assert feeding(result) == {"Mina (test)": (True, 1), "Pied (test)": (True, 1)}
    assert result.players[0].leftover == {"chicken": 1}


def test_a_treat_feeds_any_cat_for_exactly_1_vp_and_no_ability():
    result = solo(("Pablo Picatso",), food={"treat": 1})
    assert feeding(result)["Pablo Picatso"] == (True, 1)
    florence = solo(("Florence", "Bell"), food={"treat": 1, "chicken": 1})
    assert feeding(florence)["Florence"] == (True, 1)


def test_a_wild_is_never_a_treat():
    result = solo(("Pablo Picatso",), food={"wild": 1})
    assert feeding(result)["Pablo Picatso"] == (False, -2)


def test_treats_are_leftover_food_for_the_penalty():
    result = score(
        [seat("Ann", cats=(), food={"treat": 2}), seat("Bob", cats=(), food={"tuna": 1})]
    )
    assert result.players[0].food_penalty == -2 and result.players[1].food_penalty == 0


def test_a_treat_fed_two_food_cat_is_not_a_one_food_cat_but_keeps_its_food_type():
    ed = edition(VOODOO, BANJO)
    result = solo(
        ("Voodoo (test)", "Banjo (test)", "Bronte", "Shadow"),
        food={"tuna": 2, "milk": 2, "treat": 2},
        ed=ed,
    )
    plates = feeding(result)
    # Shadow (1 tuna) counts for Voodoo even treat-fed; Bronte (2 tuna) treat-fed does not.
    assert plates["Bronte"] == (True, 1) or plates["Bronte"] == (True, 3)
    banjo = plates["Banjo (test)"]
    assert banjo[0] and banjo[1] >= 2  # Bronte and Shadow are tuna cats however they are fed


# --- boxes, gray and multicoloured cats --------------------------------------------------------

BOXES = (
    "Placeholder Gray Cat Box",
    "Placeholder White Milk Cat Box",
    "Placeholder Orange Chicken Cat Box",
)


def test_box_rulebook_example_two_filled_of_three_score_3_each():
    # RB-BOT: 2 filled boxes and 1 empty: each filled box scores 3 VP, 6 VP in all.
    result = solo(
        ("Placeholder Gray Cat 1", "Sir Cuddleface"), food={"chicken": 1, "milk": 2}, boxes=BOXES
    )
    assert result.players[0].breakdown["boxes"] == 6


def test_hungry_cats_and_strays_fill_boxes_one_box_each():
    result = solo(("Sir Cuddleface", "Antoinette"), food={}, boxes=BOXES[1:2] + BOXES[1:2])
    # both white milk cats, both hungry; two White Milk boxes, one cat each
    assert result.players[0].breakdown["boxes"] == 4


def test_one_cat_cannot_fill_two_boxes():
    result = solo(("Sweetheart",), food={}, boxes=BOXES[:1] + BOXES[:1])
    assert result.players[0].breakdown["boxes"] == 2  # 1 filled x 2 boxes


def test_all_colour_cats_are_gray():
    result = solo(("Henrietta Van Weedle",), food={}, boxes=BOXES[:1])
    assert result.players[0].breakdown["boxes"] == 1


def test_an_any_food_cat_is_a_chicken_cat_only_if_fed_chicken():
    hungry = solo(
        ("Placeholder Any-Food Cat 1",), food={}, boxes=("Placeholder Orange Chicken Cat Box",)
    )
    assert hungry.players[0].breakdown["boxes"] == 0
    ed = edition(cat("Orange Any (test)", vp=1, colours=("orange",), needs={"any": 1}))
    fed = solo(
        ("Orange Any (test)",),
        food={"chicken": 1, "milk": 1},
        boxes=("Placeholder Orange Chicken Cat Box",),
        ed=ed,
    )
    assert fed.players[0].breakdown["boxes"] == 1  # the scorer chose chicken for the box


def test_three_cats_card_cannot_fill_a_box_counts_three_and_loses_6_unfed():
    hungry = solo(("Placeholder Three Cats",), food={}, boxes=BOXES[:1])
    assert feeding(hungry)["Placeholder Three Cats"] == (False, -6)
    assert hungry.players[0].breakdown["boxes"] == 0
    fed = solo(("Placeholder Three Cats",), food={"tuna": 1, "chicken": 1, "milk": 1}, catnip=2)
    assert fed.players[0].fed_cat_count == 3 and fed.players[0].catnip == 3


def test_multicoloured_means_more_than_one_colour_and_not_the_three_cats_card():
    assert PH.cat("Placeholder Gray and White Cat").multicoloured
    assert not PH.cat("Placeholder Three Cats").multicoloured
    assert not PH.cat("Bronte").multicoloured


# --- "any food", 1-food and 2-food cats -----------------------------------------------------


@pytest.mark.parametrize(
    "food", [{"chicken": 2}, {"tuna": 2}, {"chicken": 1, "tuna": 1}, {"wild": 1, "milk": 1}]
)
def test_mister_fit_two_any_food(food):
    ed = edition(MISTER_FIT)
    result = solo(("Mister Fit (test)",), food=food, ed=ed)
    assert feeding(result)["Mister Fit (test)"] == (True, 4)


def test_one_and_two_food_cats():
    assert PH.cat("Bell").food_count == 1 and PH.cat("Bronte").food_count == 2
    assert PH.cat("Placeholder Any-Food Cat 2").food_count == 2
    assert PH.cat("Cow").food_count is None


# --- the named cats' clarifications ---------------------------------------------------------


@pytest.mark.parametrize(
    ("food", "vp"), [({"milk": 1}, 3), ({"milk": 5}, 7), ({"milk": 7}, 7), ({}, -2)]
)
def test_calf_2_vp_plus_1_per_food_up_to_5(food, vp):
    ed = edition(CALF)
    result = solo(("Calf (test)",), food=food, ed=ed)
    assert feeding(result)["Calf (test)"][1] == vp


def test_choupette_takes_the_two_best_grid_cards_when_fed():
    ed = edition(CHOUPETTE)
    grid = ["toy/yarn-ball", "toy/cat-tower", "lost-cat", "spray-bottle", "costume", "catnip"]
    result = score(
        [dict(name="Ann", cats=("Choupette (test)",), food={"milk": 1}, toys={"mouse_toy": 1})],
        ed,
        grid=grid,
    )
    ann = result.players[0]
    assert any(c.startswith("Choupette (test) takes") for c in ann.choices)
    # a costume (tied for most with Other: 3, and no -2) and a second toy (a set of 2: 3)
    assert (ann.costumes, ann.toys, ann.total) == (3, 3, 1 + 3 + 3)


def test_choupette_unfed_takes_nothing():
    ed = edition(CHOUPETTE)
    result = score(
        [seat("Ann", cats=("Choupette (test)",), food={})], ed, grid=["costume", "catnip"]
    )
    assert not any("Choupette" in c for c in result.players[0].choices)


def test_elvis_fed_counts_as_a_costume():
    ed = edition(ELVIS)
    result = score(
        [
            dict(name="Ann", cats=("Elvis (test)",), food={"milk": 1}),
            dict(name="Bob", cats=(), food={}),
        ],
        ed,
    )
    assert result.players[0].costumes == 6  # Elvis alone: most costumes, no -2
    hungry = score(
        [dict(name="Ann", cats=("Elvis (test)",), food={}), dict(name="Bob", cats=(), food={})], ed
    )
    assert hungry.players[0].costumes == -2


def test_little_nicky_scores_the_vp_of_the_best_other_fed_cat():
    ed = edition(NICKY)
    result = solo(
        ("Little Nicky (test)", "Bronte", "Bell"), food={"milk": 1, "tuna": 2, "chicken": 1}, ed=ed
    )
    assert feeding(result)["Little Nicky (test)"] == (True, 3)
    assert any("copies Bronte" in c for c in result.players[0].choices)


def test_marshmallow_is_worth_the_toy_sets():
    ed = edition(MARSHY)
    result = solo(
        ("Marshmallow (test)",),
        food={"milk": 1},
        toys={"feather_wand": 1, "cat_tower": 2, "mouse_toy": 3},
        ed=ed,
    )
    assert feeding(result)["Marshmallow (test)"] == (True, 9)  # Kat's 5 + 3 + 1
    assert result.players[0].toys == 9


def test_mr_zoe_discards_sprays_and_lost_cats_for_2_each():
    ed = edition(MR_ZOE)
    result = solo(("Mr. Zoe (test)",), food={"milk": 1}, spray_bottles=2, lost_cats=1, ed=ed)
    assert feeding(result)["Mr. Zoe (test)"] == (True, 6)


def test_tomasso_is_the_toy_that_scores_most_but_never_a_sixth_unique_toy():
    ed = edition(TOMASSO)
    four = solo(
        ("Tomasso (test)",),
        food={"milk": 1},
        toys={"mouse_toy": 1, "cat_tower": 1, "feather_wand": 1, "scratching_post": 1},
        ed=ed,
    )
    assert four.players[0].toys == 12  # completes the set of 5
    five = solo(("Tomasso (test)",), food={"milk": 1}, toys=dict.fromkeys(PH.toy_types, 1), ed=ed)
    assert five.players[0].toys == 12 + 1  # a second set of 1, not a set of 6


def test_banjo_counts_tuna_cats_by_needs_or_by_what_they_were_fed():
    ed = edition(BANJO, cat("Any (test)", vp=1, needs={"any": 1}))
    result = solo(
        ("Banjo (test)", "Bronte", "Any (test)", "Bell"),
        food={"milk": 1, "tuna": 3, "chicken": 1},
        ed=ed,
    )
    assert feeding(result)["Banjo (test)"] == (True, 2)  # Bronte + Any fed tuna; not Bell


# --- 5-6 players: costumes ------------------------------------------------------------------


def costume_table(counts):
    return [Tableau(f"P{i}", costumes=c) for i, c in enumerate(counts)]


@pytest.mark.parametrize(
    ("counts", "expected"),
    [
        ((3, 2, 1, 1, 0), [6, 3, 0, 0, -2]),  # most 6, second 3
        ((3, 3, 2, 1, 1), [5, 5, 0, 0, 0]),  # tie for most: 9 split, rounded up; no second
        ((3, 3, 3, 1, 1, 1), [3, 3, 3, 0, 0, 0]),  # 9 / 3
        ((4, 2, 2, 1, 1, 1), [6, 2, 2, 0, 0, 0]),  # tie for second: 3 split, rounded up
        ((4, 2, 2, 2, 2, 1), [6, 1, 1, 1, 1, 0]),  # 3 / 4 rounded up
    ],
)
def test_costumes_at_five_and_six_players(counts, expected):
    result = score_game(costume_table(counts), edition=PH, validate=False)
    assert [p.costumes for p in result.players] == expected


def test_four_players_keep_the_base_costume_rule():
    result = score_game(costume_table((3, 2, 1, 1)), edition=PH, validate=False)
    assert [p.costumes for p in result.players] == [6, 0, 0, 0]


# --- shared goals ------------------------------------------------------------------------------


def goal(name):
    return next(g for g in PH.goals if g.name == name)


def test_shared_goal_rulebook_example_8_toys_pays_both_partners():
    # RB-BOT: you have 3 toys and your partner 6: the goal is met, 3 VP each.
    toys3 = {"mouse_toy": 1, "cat_tower": 1, "yarn_ball": 1}
    toys6 = {"mouse_toy": 2, "cat_tower": 2, "feather_wand": 2}
    tableaux = [
        Tableau("You", toys=toys3, costumes=1),
        Tableau("Right", toys=toys6, costumes=1),
        Tableau("Left", costumes=1),
    ]
    result = score_game(
        tableaux, edition=PH, validate=False, goals=[SharedGoal(goal("8 Toys"), (0, 1))]
    )
    assert [p.breakdown["goals"] for p in result.players] == [3, 3, 0]


def test_a_goal_not_met_is_worth_nothing():
    tableaux = [
        Tableau("You", toys={"mouse_toy": 1}, costumes=1),
        Tableau("Right", toys={"cat_tower": 2}, costumes=1),
        Tableau("Left", costumes=1),
    ]
    result = score_game(
        tableaux, edition=PH, validate=False, goals=[SharedGoal(goal("8 Toys"), (0, 1))]
    )
    assert [p.breakdown["goals"] for p in result.players] == [0, 0, 0]


def test_fed_cat_goal_counts_both_partners_fed_cats():
    g = goal("Placeholder: 10 Fed Cats")
    cats_a = ("Shadow", "Jazz", "Chester", "Bell", "Cooper")
    cats_b = ("Gershon", "Lily", "Snowflake", "Keaton", "Zeus")
    tableaux = [
        Tableau("A", cats=cats_a, food={"tuna": 3, "chicken": 2}, costumes=1),
        Tableau("B", cats=cats_b, food={"chicken": 3, "milk": 4}, costumes=1),
        Tableau("C", costumes=1),
    ]
    result = score_game(tableaux, edition=PH, validate=False, goals=[SharedGoal(g, (0, 1))])
    assert result.players[0].breakdown["goals"] == g.vp


# --- the solitaire cat player -------------------------------------------------------------------


def test_cat_player_uses_all_chicken_tuna_and_milk_as_wild_but_not_treats():
    # RB-BOT: a cat that needs 3 chicken can be fed 2 tuna and 1 milk.
    result = score_game(
        [
            Tableau("You", costumes=1),
            Tableau(
                "Cat player",
                cats=("Chairman Meow", "Bronte"),
                food={"tuna": 2, "milk": 1, "treat": 1},
                cat_player=True,
            ),
        ],
        edition=PH,
        validate=False,
    )
    cat_player = result.players[1]
    assert {f.cat: f.fed for f in cat_player.feeding} == {"Chairman Meow": True, "Bronte": True}
    assert cat_player.to_json()["cat_player"] is True


def test_cat_player_scores_1_per_brush_laser_and_spray():
    result = score_game(
        [
            Tableau("You", costumes=1),
            Tableau(
                "Cat player",
                cat_brushes=1,
                laser_pointers=1,
                spray_bottles=2,
                costumes=1,
                cat_player=True,
            ),
        ],
        edition=PH,
        validate=False,
    )
    assert result.players[1].breakdown["items"] == 4


def test_against_the_cat_player_a_tie_is_a_loss():
    result = score_game(
        [Tableau("You", costumes=1), Tableau("Cat player", costumes=1, cat_player=True)],
        edition=PH,
        validate=False,
    )
    assert result.players[0].total == result.players[1].total
    assert result.winners == (1,)


# --- the general scorer agrees with the base scorer on base games ------------------------------


def test_base_tableaux_score_the_same_through_either_scorer():
    from engine.catlady.scoring import DEFAULT_RULES
    from engine.catlady.scoring_expansion import score_expansion

    tableaux = [
        Tableau(
            "Ann",
            cats=("Waffle", "Bronte", "Florence", "Hemingway"),
            food={"tuna": 4, "milk": 2, "chicken": 1, "wild": 1},
            costumes=2,
            catnip=2,
        ),
        Tableau(
            "Bob",
            cats=("Cow", "Alvin", "LeVar Purrton", "Sweetheart"),
            food={"wild": 2, "tuna": 3, "chicken": 2},
            toys={"mouse_toy": 2},
            costumes=1,
        ),
        Tableau(
            "Cy",
            cats=("Moonbeam", "Truffle", "Pumpkin"),
            food={"chicken": 3, "tuna": 2},
            vp_tokens=1,
        ),
    ]
    base = score_game(tableaux, edition=BASE, validate=False)
    general = score_expansion(tableaux, edition=BASE, rules=DEFAULT_RULES)
    assert [p.total for p in general.players] == [p.total for p in base.players]
    assert [p.breakdown for p in general.players] == [p.breakdown for p in base.players]


def test_scrappy_borrowing_keeps_the_cats_choupette_took_from_the_grid():
    # Found by the differential tests: Scrappy's second feeding rebuilt the holdings without
    # the Grid Cat's picks (here Zeus), so the plates no longer matched the cats and scoring
    # crashed. A position from a random 4-player placeholder game (seed 402, move 77).
    def t(name, cats, food, toys, **kw):
        return Tableau(
            name=name,
            cats=cats,
            food=food,
            toys=dict(
                zip(
                    ("mouse_toy", "cat_tower", "feather_wand", "scratching_post", "yarn_ball"),
                    toys,
                    strict=True,
                )
            ),
            **kw,
        )

    tableaux = [
        t(
            "seat 0",
            (
                "Placeholder Grid Cat",
                "Sox",
                "Alvin",
                "Placeholder Costume Cat",
                "Jazz",
                "Placeholder Borrower Stray",
            ),
            {"chicken": 5, "tuna": 2, "milk": 5},
            (0, 0, 1, 0, 0),
            costumes=4,
            catnip=2,
            boxes=("Placeholder Orange Chicken Cat Box",),
        ),
        t(
            "seat 1",
            (
                "Henrietta Van Weedle",
                "Chairman Meow",
                "Sparkle",
                "Lily",
                "Placeholder Gray Cat 2",
                "Keaton",
                "Placeholder One-Food Fan Stray",
            ),
            {"chicken": 2, "tuna": 3, "milk": 2, "wild": 1, "treat": 1},
            (0, 1, 0, 1, 0),
            catnip=2,
            vp_tokens=1,
            boxes=("Placeholder Gray Cat Box",),
            laser_pointers=1,
        ),
        t(
            "seat 2",
            ("Placeholder Any-Food Cat 2", "Pumpkin", "Snowflake", "Dinah"),
            {"chicken": 6, "tuna": 6, "milk": 2, "wild": 1},
            (2, 1, 0, 0, 1),
            costumes=2,
            vp_tokens=2,
        ),
        t(
            "seat 3",
            (
                "Luna",
                "Shadow",
                "Gershon",
                "Placeholder Toy Cat",
                "Blackberry",
                "Placeholder Gray Cat 1",
                "Bronte",
                "Cooper",
                "Pablo Picatso",
                "Bell",
            ),
            {"chicken": 3, "tuna": 4, "milk": 1},
            (0, 1, 2, 1, 1),
            costumes=2,
            vp_tokens=1,
            lost_cats=1,
        ),
    ]
    grid = (
        "food/tuna-2",
        "ph/any-1",
        "cat/zeus",
        "lost-cat",
        "food/chicken-1",
        "toy/scratching-post",
        "cat/chester",
        "food/wild",
        "catnip",
    )
    score = score_game(tableaux, edition=PH, validate=False, grid=grid)
    seat0 = score.players[0]
    assert "Placeholder Grid Cat takes Tuna x2 and Zeus from the grid" in seat0.choices
    assert any(c.startswith("Scrappy: fed with seat 2's leftover") for c in seat0.choices)
    assert [f.cat for f in seat0.feeding][-1] == "Zeus"
    assert [p.total for p in score.players] == [33, 19, 22, 19]


def _six_players(**fields_per_seat):
    return [
        Tableau(name=f"p{i}", **{k: v[i] for k, v in fields_per_seat.items()}) for i in range(6)
    ]


def test_shopping_bags_raise_the_food_an_end_state_may_hold():
    # The 6-player placeholder deck has 16 chicken on cards and 2 shopping bags, each giving
    # 1 chicken, 1 tuna and 1 milk (RB-BOT): 18 chicken can be gained, not 16.
    eighteen = _six_players(food=[{"chicken": 3}] * 6)
    score_game(eighteen, edition=PH)  # no error
    nineteen = _six_players(food=[{"chicken": 4}, *[{"chicken": 3}] * 5])
    with pytest.raises(ScoreInputError, match="19 tokens in all, but only 18 can be gained"):
        score_game(nineteen, edition=PH)


def test_vp_tokens_from_shopping_bags_need_no_lost_cats():
    from engine.catlady.scoring import _limits

    lost_in_deck = _limits(PH, 6)["kind:lost_cat"]
    # 2 bags x 5 opponents: 10 VP tokens may come from shopping bags.
    held = [lost_in_deck, 0, 0, 0, 0, 0]
    ok = _six_players(lost_cats=held, vp_tokens=[0, 2, 2, 2, 2, 2])
    score_game(ok, edition=PH)  # every lost cat held, every VP token from a bag
    too_many = _six_players(lost_cats=held, vp_tokens=[1, 2, 2, 2, 2, 2])
    with pytest.raises(ScoreInputError, match="per VP token beyond the 10 shopping bags can give"):
        score_game(too_many, edition=PH)
