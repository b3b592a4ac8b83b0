"""Scoring a table for the result form: fields from the engine's data, errors mapped to seats."""

import pytest

from engine.catlady.cards import DATA_DIR
from engine.errors import ScoreInputError
from league.results import entry as result_entry
from league.results.entry import SeatHoldings, TableError, score_table, table_errors
from tests.league.conftest import score_pad

# The league results of the two-seat table scored here, which the result pages' cards_table
# enters too: Bronte and Florence fed (tuna, chicken, milk) with a costume, against Sparkle
# fed tuna with two cat towers.
WINNER_RESULT = score_pad(13, 2, (7, 0, 6, 0, 0, 0))
RUNNER_UP_RESULT = score_pad(3, 1, (3, 2, -2, 0, 0, 0))


@pytest.fixture(scope="module")
def base():
    return result_entry.deck("base").edition


def test_every_bundled_card_data_file_is_offered_base_first():
    decks = result_entry.available_decks()
    assert decks[0].name == "base" and decks[0].status == "complete" and decks[0].playable
    assert {d.name for d in decks} == {
        p.stem.removeprefix("catlady-") for p in DATA_DIR.glob("catlady-*.json")
    }


def test_count_fields_follow_the_edition_and_the_calculators_tableau(base):
    fields = result_entry.count_fields(base)
    food = [f.source for f in fields if f.group == "food"]
    toys = [f.label for f in fields if f.group == "toys"]
    counts = [f.source for f in fields if f.group == "counts"]
    assert food == list(base.food_tokens)
    assert toys == [base.toy_names[t] for t in base.toy_types]
    assert counts == ["costumes", "catnip", "vp_tokens", "lost_cats", "spray_bottles"]
    assert {f.key for f in fields} >= {"food_wild", "toy_yarn_ball", "vp_tokens", "spray_bottles"}


def test_box_of_treats_components_appear_only_where_the_edition_has_them(base):
    treats = result_entry.deck("box-of-treats-placeholder").edition
    keys = {f.key for f in result_entry.count_fields(treats)}
    assert {"food_treat", "cat_brushes", "laser_pointers", "shopping_bags"} <= keys
    assert "wild_toys" not in keys  # the solitaire cat player's, not a member's
    base_keys = {f.key for f in result_entry.count_fields(base)}
    assert not base_keys & {"food_treat", "cat_brushes", "laser_pointers", "shopping_bags"}
    assert result_entry.box_choices(base) == [] and result_entry.box_choices(treats)


def test_cat_choices_list_each_deck_cat_once_and_the_strays(base):
    cats = [value for value, _ in result_entry.cat_choices(base)]
    strays = [value for value, _ in result_entry.stray_choices(base)]
    assert len(cats) == len(set(cats)) == 22 and "Henrietta Van Weedle" in cats
    assert len(strays) == 13 and "Cow" in strays and not set(cats) & set(strays)
    assert dict(result_entry.cat_choices(base))["Bronte"] == "Bronte (3 VP · tuna ×2)"


def test_score_table_gives_the_league_result_fields(base):
    score = score_table(
        [
            SeatHoldings(
                "Kat",
                ["Bronte"],
                ["Florence"],
                {"food_tuna": 2, "food_chicken": 1, "food_milk": 1, "costumes": 1},
            ),
            SeatHoldings("Bo", ["Sparkle"], [], {"food_tuna": 2, "toy_cat_tower": 2}),
        ],
        base,
    )
    assert result_entry.league_results(score) == [WINNER_RESULT, RUNNER_UP_RESULT]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        (
            "players[1].cats[0]: more copies of Bronte than exist (1)",
            {(1, "cats"): ["more copies of Bronte than exist (1)"]},
        ),
        ("players[0].cats[1]: Cow is taken", {(0, "strays"): ["Cow is taken"]}),
        (
            "players[1].food.tuna: expected a whole number",
            {(1, "food_tuna"): ["expected a whole number"]},
        ),
        ("players[0].toys.cat_tower: too many", {(0, "toy_cat_tower"): ["too many"]}),
        ("players[0].vp_tokens: too many", {(0, "vp_tokens"): ["too many"]}),
        ("players[1].boxes[0]: unknown box", {(1, "boxes"): ["unknown box"]}),
        ("players[*].costumes: 9 in all", {(0, "costumes"): ["9 in all"]}),
        ("players: 5 players given", {(None, None): ["5 players given"]}),
        ("something unexpected", {(None, None): ["something unexpected"]}),
    ],
)
def test_engine_error_paths_become_seat_and_field(base, message, expected):
    seats = [
        SeatHoldings("Kat", ["Bronte"], [], {"costumes": 5}),
        SeatHoldings("Bo", ["Bronte"], ["Cow"], {}),
    ]
    assert table_errors(ScoreInputError(message), seats, base).errors == expected


def test_score_table_raises_table_error(base):
    with pytest.raises(TableError) as caught:
        score_table(
            [SeatHoldings("Kat", ["Bronte"], [], {}), SeatHoldings("Bo", ["Bronte"], [], {})], base
        )
    assert caught.value.errors == {(1, "cats"): ["more copies of Bronte than exist (1)"]}
