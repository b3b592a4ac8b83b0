"""Card data for Premium and Box of Treats: what is known is shipped with its source, what is
not is marked unknown (and blocks play), the placeholder deck says what it is, and clubs'
files and custom strays are validated with messages that name the field."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.catlady.cards import DATA_DIR, CardKind, Colour, bundled_editions, load_edition
from engine.errors import CardDataError, EngineError
from engine.registry import load_game

PLACEHOLDER_NAME = "placeholder — not the published card list"


def raw(name: str) -> dict[str, Any]:
    return json.loads((DATA_DIR / f"catlady-{name}.json").read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict[str, Any], name: str = "club.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_bundled_editions():
    assert bundled_editions() == ["base", "box-of-treats", "box-of-treats-placeholder", "premium"]


# --- Premium -------------------------------------------------------------------------------


def test_premium_keeps_the_base_deck_and_has_twenty_strays():
    premium, base = load_edition("premium"), load_edition("base")
    assert premium.status == "incomplete" and not premium.playable
    assert [c.key for c in premium.deck] == [c.key for c in base.deck]
    assert len(premium.strays) == 20
    assert premium.components["vp_tokens"] == 5  # the Premium box has 5 VP tokens
    assert premium.supported_players == (2, 3, 4)


@pytest.mark.parametrize(
    ("name", "ability", "params"),
    [
        ("Floopy", "food_sets_used", {"vp_each": 3}),
        ("Ginger", "eats_catnip", {"catnip": 1}),
        ("King Fluff", "penalty_per_toy", {"vp_each": 5}),
        ("Scrappy", "borrow_leftover", {}),
        ("Sherry", "reduce_needs", {"amount": 1}),
        ("Voodoo", "per_one_food_cat", {"vp_each": 2}),
    ],
)
def test_premium_strays_carry_the_rulebook_abilities_and_nothing_invented(name, ability, params):
    cat = load_edition("premium").cat(name)
    assert cat.stray and cat.ability == ability and dict(cat.params) == params
    assert {"vp", "colours"} <= cat.unknown
    assert cat.vp is None and cat.colours == frozenset()
    assert cat.source and cat.confidence == "S1"


def test_scrappy_food_is_known_the_other_new_strays_food_is_not():
    premium = load_edition("premium")
    assert premium.cat("Scrappy").needs_any == 1 and "needs" not in premium.cat("Scrappy").unknown
    for name in ("Floopy", "Ginger", "King Fluff", "Sherry", "Voodoo"):
        assert "needs" in premium.cat(name).unknown


def test_premium_is_refused_for_play_with_a_message_saying_what_is_missing():
    with pytest.raises(EngineError, match=r"premium edition's card data is incomplete .*Floopy"):
        load_game(options={"players": 2, "edition": "premium"})


# --- Box of Treats (the real, incomplete data) -----------------------------------------------


def test_box_of_treats_setup_table_from_the_rulebook():
    bot = load_edition("box-of-treats")
    assert bot.status == "incomplete"
    removed = {n: set(bot.player_counts[n].remove_markers) for n in range(2, 7)}
    assert removed == {
        2: {"3+", "4", "5+", "6"},
        3: {"4", "5+", "6"},
        4: {"5+", "6"},
        5: {"6"},
        6: set(),
    }
    assert {bot.player_counts[n].random_removals for n in range(2, 7)} == {6}
    assert [bot.player_counts[n].strays_dealt for n in range(2, 7)] == [3, 3, 3, 4, 4]
    assert "2-player deck_size" in bot.unknowns


def test_box_of_treats_known_rules_data():
    bot = load_edition("box-of-treats")
    assert Colour.GRAY in bot.colours and "treat" in bot.food_tokens
    assert bot.scoring.costume_second_vp == 3 and bot.scoring.costume_second_min_players == 5
    assert bot.scoring.treat_fed_vp == 1
    toys = next(g for g in bot.goals if g.name == "8 Toys")
    assert (toys.stat, toys.amount, toys.vp) == ("toys", 8, 3)
    fed = next(g for g in bot.goals if g.name == "14 Fed Cats")
    assert fed.vp is None  # the rulebook does not say
    assert bot.cat("Calf").params["max"] == 5 and bot.cat("Calf").vp == 2
    assert bot.cat("Aoshima & Friends").can_fill_box is False
    assert bot.cat("Mister Fit").needs_any == 2 and "ability" in bot.cat("Mister Fit").unknown
    assert bot.cat("Biddy").requires_goals
    # cards whose counts are unknown are not dealt: the deck is only the base deck
    assert len(bot.deck) == 102
    with pytest.raises(EngineError, match="incomplete"):
        load_game(options={"players": 5, "edition": "box-of-treats"})


def test_every_unknown_fact_is_written_unknown_never_guessed():
    data = raw("box-of-treats")
    for cat in data["unplaced_cats"] + data["strays"]:
        assert cat["vp"] in ("unknown", 2)  # only Calf's "2 VP plus 1 per food" is printed
        assert cat["colours"] == "unknown"


# --- the placeholder deck ------------------------------------------------------------------


def test_placeholder_says_so_in_its_name_file_and_label():
    ph = load_edition("box-of-treats-placeholder")
    assert ph.status == "placeholder" and ph.playable
    assert (
        "placeholder" in ph.name and Path(ph.path).name == "catlady-box-of-treats-placeholder.json"
    )
    assert PLACEHOLDER_NAME in ph.label
    assert "NOT THE PUBLISHED CARD LIST" in raw("box-of-treats-placeholder")["about"]


def test_placeholder_cards_are_marked_placeholder_and_base_cards_are_real():
    ph, base = load_edition("box-of-treats-placeholder"), load_edition("base")
    base_keys = {c.key for c in base.deck} | {s.key for s in base.strays}
    added = [c for c in ph.deck if c.key not in base_keys]
    assert len(added) == 36
    for card in added:
        assert card.name.startswith("Placeholder") and card.confidence == "PH"
    for stray in ph.strays:
        assert stray.key in base_keys or (
            stray.name.startswith("Placeholder") and stray.confidence == "PH"
        )


def test_placeholder_deck_gives_every_player_the_same_number_of_turns():
    ph = load_edition("box-of-treats-placeholder")
    for n, turns_each in {2: 12, 3: 10, 4: 9, 5: 8, 6: 7}.items():
        setup = ph.player_counts[n]
        after_grid = setup.deck_size - setup.random_removals - 9
        assert after_grid % 3 == 0
        assert after_grid // 3 + 1 == n * turns_each  # the last draft empties the deck


def test_placeholder_has_every_box_of_treats_card_kind():
    ph = load_edition("box-of-treats-placeholder")
    kinds = Counter(c.kind for c in ph.deck)
    for kind in (CardKind.BOX, CardKind.CAT_BRUSH, CardKind.LASER_POINTER, CardKind.SHOPPING_BAG):
        assert kinds[kind] >= 2 or kind is CardKind.BOX
    foods = Counter(tuple(sorted(c.food.items())) for c in ph.deck if c.kind is CardKind.FOOD)
    assert foods[(("chicken", 1), ("tuna", 1))] == 2 and foods[(("treat", 1),)] == 4
    assert any(Colour.GRAY in c.cat.colours for c in ph.deck if c.cat)
    assert ph.cat("Sweetheart").colours == frozenset(ph.colours)  # all colours: gray too
    assert ph.solitaire is not None and ph.solitaire.placeholder
    assert len(ph.solitaire.turn_cards) == 9 and len(ph.solitaire.starting_cards) == 6
    assert sum(t.kind == "cat_token" for t in ph.solitaire.turn_cards) == 1


# --- validation of club files ----------------------------------------------------------------


def minimal_expansion() -> dict[str, Any]:
    data = copy.deepcopy(raw("box-of-treats-placeholder"))
    data["edition"] = "club"
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["cats"][0].update(ability="purrs_loudly"), "unknown ability 'purrs_loudly'"),
        (lambda d: d["cats"][0].update(needs={"fish": 1}), "unknown food 'fish'"),
        (lambda d: d["cats"][0].update(needs={"milk": -1}), r"needs.milk: expected a count >= 0"),
        (lambda d: d["cats"][0].pop("colours"), "missing field 'colours'"),
        (
            lambda d: d["cats"][0].update(vp="unknown"),
            "only allowed in an edition whose status is 'incomplete'",
        ),
        (lambda d: d["cards"][0].update(box={}), "a box requires a colour, a food or both"),
        (lambda d: d["cards"][0].update(box={"colour": "purple"}), "unknown colour 'purple'"),
        (lambda d: d["cards"][0].update(kind="scratcher"), "unknown card kind 'scratcher'"),
        (
            lambda d: d["cards"][7].update(food={"treat": 1, "caviar": 1}),
            "unknown food token 'caviar'",
        ),
        (lambda d: d.update(label="Box of Treats made up"), "must say 'placeholder'"),
        (
            lambda d: d["player_counts"]["5"].update(deck_size=140),
            "the cards add up to 132 for 5 players",
        ),
        (lambda d: d["goals"][0].update(stat="naps"), "unknown goal stat 'naps'"),
        (
            lambda d: d["solitaire"]["turn_cards"][0].update(arrow="diagonal"),
            "expected 'row N' or 'col N'",
        ),
        (lambda d: d["solitaire"]["turn_cards"][0].update(kind="most_naps"), "unknown turn card"),
        (lambda d: d.update(extends="kittens"), "unknown edition 'kittens'"),
        (lambda d: d["strays"][0].update(members=[["black"]]), "2 or more colour lists"),
    ],
)
def test_bad_club_files_are_refused_naming_the_field(tmp_path, change, message):
    data = minimal_expansion()
    change(data)
    with pytest.raises(CardDataError, match=message):
        load_edition(path=write(tmp_path, data))


def test_a_club_can_complete_an_incomplete_edition(tmp_path):
    data = raw("premium")
    for stray in data["strays"]:
        stray.update(colours=["black"], vp=3 if stray["ability"] != "unknown" else 2)
        if stray["needs"] == "unknown":
            stray["needs"] = {"milk": 1}
        if stray["ability"] == "unknown":
            stray.update(ability=None, params={})
    data.pop("unknown_facts")
    data["status"] = "complete"
    club = load_edition(path=write(tmp_path, data))
    assert club.playable and club.cat("Floopy").vp == 3


def test_an_incomplete_status_with_nothing_unknown_is_refused(tmp_path):
    data = raw("box-of-treats-placeholder")
    data["status"] = "incomplete"
    with pytest.raises(CardDataError, match="nothing is unknown"):
        load_edition(path=write(tmp_path, data))


def test_a_complete_status_with_unknown_facts_is_refused(tmp_path):
    data = raw("premium")
    data["status"] = "complete"
    with pytest.raises(
        CardDataError, match="only allowed in an edition whose status is 'incomplete'"
    ):
        load_edition(path=write(tmp_path, data))


# --- custom strays (Premium's blank cards) ---------------------------------------------------

BISCUIT = {
    "name": "Biscuit",
    "vp": None,
    "colours": ["orange", "white"],
    "needs": {"milk": 1},
    "ability": "per_colour_fed",
    "params": {"colour": "white", "vp_each": 1},
}


def test_custom_strays_join_the_stray_deck_of_a_game():
    game = load_game(options={"players": 3, "custom_strays": [BISCUIT]})
    biscuit = game.edition.cat("biscuit")
    assert biscuit.custom and biscuit.stray and biscuit.confidence == "CLUB"
    assert game.edition.strays[-1] is biscuit and len(game.edition.strays) == 14
    assert game.options["custom_strays"] == [BISCUIT]  # stored in the match log


def test_base_game_options_do_not_grow_a_custom_strays_entry():
    assert "custom_strays" not in load_game(options={"players": 2}).options


@pytest.mark.parametrize(
    ("stray", "message"),
    [
        ({**BISCUIT, "ability": "teleports"}, "unknown ability 'teleports'"),
        ({**BISCUIT, "needs": {"caviar": 1}}, "unknown food 'caviar'"),
        ({**BISCUIT, "needs": {}}, "the cat needs some food"),
        ({**BISCUIT, "colours": ["tabby"]}, "unknown colour 'tabby'"),
        ({**BISCUIT, "params": {"vp_each": 1}}, "missing field 'colour'"),
        ({**BISCUIT, "name": "Florence"}, "a cat called 'Florence' already exists"),
        ({**BISCUIT, "vp": "unknown"}, "only allowed"),
        ({**BISCUIT, "whiskers": 12}, "unknown field"),
        ({"vp": 1, "colours": ["black"], "needs": {"milk": 1}}, "needs a name"),
        ({**BISCUIT, "ability": None, "params": {}, "vp": None}, "needs a VP number"),
    ],
)
def test_bad_custom_strays_are_refused(stray, message):
    with pytest.raises(EngineError, match=message):
        load_game(options={"players": 2, "custom_strays": [stray]})


def test_at_most_eighteen_custom_strays():
    many = [{**BISCUIT, "name": f"Cat {i}"} for i in range(19)]
    with pytest.raises(CardDataError, match="18 blank cards"):
        load_game(options={"players": 2, "custom_strays": many})
