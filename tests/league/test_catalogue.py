"""The game catalogue: player counts, result fields and ranking rules of each game."""

import pytest

from league.catalogue import ResultError, check_results, competition_ranks


def test_competition_ranks_share_and_skip():
    assert competition_ranks([(5,), (9,), (5,), (1,)]) == [2, 1, 2, 4]


@pytest.mark.parametrize(
    ("results", "ranks"),
    [
        (
            [{"total_vp": 30, "fed_cats": 4}, {"total_vp": 30, "fed_cats": 6}, {"total_vp": 41}],
            [3, 2, 1],
        ),
        ([{"total_vp": 30, "fed_cats": 5}, {"total_vp": 30, "fed_cats": 5}], [1, 1]),
    ],
    ids=["vp-then-fed-cats", "a-full-tie-is-shared"],
)
def test_cat_lady_ranks_by_vp_then_fed_cats(results, ranks):
    assert check_results("cat-lady", "base", results).ranks == ranks


def test_cat_lady_tie_without_fed_cats_is_refused():
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "base", [{"total_vp": 30}, {"total_vp": 30, "fed_cats": 3}])
    assert "participants.0.fed_cats" in caught.value.errors


def test_cat_lady_categories_must_add_up():
    good = {
        "total_vp": 20,
        "fed_cats_vp": 18,
        "toys_vp": 4,
        "costumes_vp": -2,
        "catnip_vp": 0,
        "vp_tokens_vp": 2,
        "food_penalty_vp": -2,
    }
    check_results("cat-lady", "base", [good, {"total_vp": 3}])
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "base", [{**good, "total_vp": 25}, {"total_vp": 3}])
    assert "add up to 20" in caught.value.errors["participants.0.total_vp"][0]


def test_cat_lady_partial_categories_are_refused():
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "base", [{"total_vp": 20, "toys_vp": 5}, {"total_vp": 3}])
    assert any("all six" in m for ms in caught.value.errors.values() for m in ms)
    # The message names the lines as the form labels them, not by their keys.
    assert caught.value.errors["participants.0.fed_cats_vp"] == [
        "Give all six score-pad categories or none of them (0 counts as given; missing: Fed cats VP, "
        "Costumes VP, Catnip VP, VP tokens VP, Food penalty VP)."
    ]


@pytest.mark.parametrize(
    ("edition", "count", "ok"),
    [
        ("base", 1, False),
        ("base", 2, True),
        ("base", 4, True),
        ("base", 5, False),
        ("premium", 4, True),
        ("box-of-treats", 6, True),
        ("box-of-treats", 7, False),
        ("solitaire", 1, True),
        ("solitaire", 2, False),
    ],
)
def test_cat_lady_player_counts(edition, count, ok):
    results = [{"total_vp": 10 + i, "fed_cats": 1} for i in range(count)]
    details = {"cat_player_vp": 20} if edition == "solitaire" else None
    if ok:
        check_results("cat-lady", edition, results, details)
    else:
        with pytest.raises(ResultError) as caught:
            check_results("cat-lady", edition, results, details)
        assert "participants" in caught.value.errors


def test_solitaire_win_needs_more_vp_than_the_cat_player_and_is_unrated():
    won = check_results("cat-lady", "solitaire", [{"total_vp": 41}], {"cat_player_vp": 40})
    lost = check_results("cat-lady", "solitaire", [{"total_vp": 40}], {"cat_player_vp": 40})
    assert (won.ranks, lost.ranks, won.rated) == ([1], [2], False)


def test_maple_st_tie_breaks_fewest_turns_then_mystery_cards():
    checked = check_results(
        "cat-ladies-of-maple-st",
        "standard",
        [
            {"cats_collected": 7, "turns_taken": 12, "unused_mystery_cards": 1},
            {"cats_collected": 7, "turns_taken": 11, "unused_mystery_cards": 0},
            {"cats_collected": 7, "turns_taken": 12, "unused_mystery_cards": 2},
            {"cats_collected": 6, "turns_taken": 9, "unused_mystery_cards": 4},
        ],
    )
    assert checked.ranks == [3, 1, 2, 4]


def test_cantankerous_ranks_winner_then_points():
    checked = check_results(
        "cantankerous-cats",
        "standard",
        [
            {"mischief_points": 7},
            {"winner": True, "win_type": "feral_victory", "mischief_points": 3},
            {"mischief_points": 7},
        ],
    )
    assert checked.ranks == [2, 1, 2]


@pytest.mark.parametrize(
    ("results", "edition", "path"),
    [
        ([{"mischief_points": 9}, {"mischief_points": 3}], "standard", "participants"),
        (
            [
                {"winner": True, "win_type": "feral_victory", "mischief_points": 2},
                {"mischief_points": 3},
            ],
            "basic",
            "participants.0.win_type",
        ),
        (
            [
                {"winner": True, "win_type": "nine_mischief", "mischief_points": 8},
                {"mischief_points": 3},
            ],
            "standard",
            "participants.0.mischief_points",
        ),
        (
            [{"winner": True, "mischief_points": 9}, {"mischief_points": -1}],
            "standard",
            "participants.1.mischief_points",
        ),
    ],
)
def test_cantankerous_bad_results(results, edition, path):
    with pytest.raises(ResultError) as caught:
        check_results("cantankerous-cats", edition, results)
    assert path in caught.value.errors


def test_unknown_fields_and_editions_are_named():
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "base", [{"total_vp": 3, "bananas": 1}, {"total_vp": 4}])
    assert "participants.0.bananas" in caught.value.errors
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "deluxe", [{"total_vp": 3}, {"total_vp": 4}])
    assert "edition" in caught.value.errors


def test_negative_counts_refused():
    with pytest.raises(ResultError) as caught:
        check_results("cat-lady", "base", [{"total_vp": 3, "fed_cats": -1}, {"total_vp": 4}])
    assert "participants.0.fed_cats" in caught.value.errors
