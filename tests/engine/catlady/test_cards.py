"""Card data: the bundled editions' facts (base, Premium, Box of Treats and its placeholder),
the loader's validation of other files, and custom strays."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.catlady.cards import (
    ABILITY_PARAMS,
    DATA_DIR,
    CardKind,
    Colour,
    EngineError,
    bundled_editions,
    load_edition,
)
from engine.errors import CardDataError
from engine.registry import load_game
from tests.engine.catlady.helpers import premium_completed_by_a_club

BASE_FILE = DATA_DIR / "catlady-base.json"


@pytest.fixture(scope="module")
def base():
    return load_edition("base")


def raw_base() -> dict[str, Any]:
    return json.loads(BASE_FILE.read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "club.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def find(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(item for item in items if item["name"] == name)


# --- the bundled base edition -------------------------------------------------------------


def test_base_has_102_cards_and_13_strays(base):
    assert len(base.deck) == 102
    assert len(base.strays) == 13
    assert base.status == "complete"


def test_deck_sizes_per_player_count_give_equal_turns(base):
    assert [len(base.deck_for_players(n)) for n in (2, 3, 4)] == [74, 89, 102]
    for n in (2, 3, 4):
        setup = base.player_counts[n]
        after_grid = setup.deck_size - setup.random_removals - 9
        assert after_grid % 3 == 0 and (after_grid // 3 + 1) % n == 0


def test_unsupported_player_count_is_refused(base):
    with pytest.raises(EngineError, match="supports"):
        base.deck_for_players(5)


def test_card_kind_totals_match_the_reference(base):
    kinds = Counter(card.kind for card in base.deck)
    assert kinds == {
        CardKind.CAT: 22,
        CardKind.FOOD: 34,
        CardKind.TOY: 15,
        CardKind.COSTUME: 9,
        CardKind.CATNIP: 7,
        CardKind.LOST_CAT: 10,
        CardKind.SPRAY_BOTTLE: 5,
    }


def test_food_on_cards_adds_up_to_the_reference_totals(base):
    totals: Counter[str] = Counter()
    for card in base.deck:
        totals.update(card.food)
    assert totals == {"chicken": 14, "tuna": 14, "milk": 10, "wild": 3}


def test_markers_follow_the_recommended_split(base):
    markers = Counter(card.marker for card in base.deck)
    assert markers == {None: 74, "3+": 15, "4": 13}
    marked_cats = {card.name: card.marker for card in base.deck if card.cat and card.marker}
    assert marked_cats == {
        "Lily": "3+",
        "Chester": "3+",
        "Cooper": "3+",
        "Alvin": "3+",
        "Dinah": "3+",
        "Luna": "3+",
        "Henrietta Van Weedle": "4",
    }
    toys_marked_4 = Counter(card.toy for card in base.deck if card.marker == "4" and card.toy)
    assert toys_marked_4 == dict.fromkeys(base.toy_types, 1)


def test_each_of_the_five_toy_types_has_three_copies(base):
    assert Counter(card.toy for card in base.deck if card.kind is CardKind.TOY) == dict.fromkeys(
        ("mouse_toy", "cat_tower", "feather_wand", "scratching_post", "yarn_ball"), 3
    )


def test_twenty_two_distinct_main_deck_cats(base):
    cats = [card.cat for card in base.deck if card.cat is not None]
    assert len({cat.name for cat in cats}) == 22


@pytest.mark.parametrize(
    ("name", "colours", "vp", "needs"),
    [
        ("Bronte", {"orange"}, 3, (("tuna", 2),)),
        ("Pumpkin", {"orange"}, 6, (("chicken", 2), ("milk", 1))),
        ("Sir Cuddleface", {"white"}, 4, (("milk", 2),)),
        ("Sox", {"white"}, 6, (("milk", 1), ("tuna", 2))),
        (
            "Henrietta Van Weedle",
            {"black", "orange", "white"},
            5,
            (("chicken", 1), ("milk", 1), ("tuna", 1)),
        ),
        ("Sweetheart", {"black", "orange", "white"}, 5, (("chicken", 1), ("tuna", 1))),
        ("Hemingway", {"black"}, None, (("milk", 1),)),
        ("Macak", {"orange"}, 2, (("milk", 1),)),
    ],
)
def test_cat_facts(base, name, colours, vp, needs):
    cat = base.cat(name)
    assert {c.value for c in cat.colours} == colours
    assert cat.vp == vp
    assert cat.needs == needs


def test_cat_lookup_tolerates_case_spacing_and_aliases(base):
    assert base.cat("sir cuddleface").name == "Sir Cuddleface"
    assert base.cat("Henriette Van Weelde").name == "Henrietta Van Weedle"
    assert base.cat("LEVAR").name == "LeVar Purrton"


def test_unknown_cat_is_a_card_data_error(base):
    with pytest.raises(CardDataError, match="unknown cat 'Garfield'"):
        base.cat("Garfield")


def test_disputed_cards_are_provisional(base):
    provisional_cats = {
        cat.name for cat in [*base.strays, *(c.cat for c in base.deck if c.cat)] if cat.provisional
    }
    assert provisional_cats == {"Alvin", "Dinah", "Luna", "Moonbeam", "Cow", "Truffle"}
    assert base.cat("Bronte").provisional is False
    # the 3+/4 split is disputed for these cards
    assert all(
        card.provisional
        for card in base.deck
        if card.kind in (CardKind.CATNIP, CardKind.LOST_CAT, CardKind.SPRAY_BOTTLE)
    )


def test_alvin_dinah_luna_follow_the_recommended_reading(base):
    for name, colour in (("Alvin", "orange"), ("Dinah", "white"), ("Luna", "black")):
        cat = base.cat(name)
        assert cat.vp is None and cat.ability == "per_colour_fed"
        assert dict(cat.params) == {"colour": colour, "vp_each": 1}
        assert cat.facts["ability"]["confidence"] == "S1"


def test_ability_driven_eaters_have_no_fixed_needs(base):
    assert base.cat("Waffle").needs == ()
    assert dict(base.cat("Waffle").params) == {"vp_each": 3, "min": 1, "max": 4, "one_type": True}
    assert dict(base.cat("Cow").params)["max"] is None
    assert base.cat("Truffle").params["amount"] == 1


def test_every_fact_carries_a_source_and_confidence(base):
    for card in base.deck:
        assert card.source and card.confidence in {"C2", "S1", "INF", "UNK"}
        for fact in card.facts.values():
            assert fact["source"] and fact["confidence"] in {"C2", "S1", "INF", "UNK"}
    for stray in base.strays:
        assert stray.source and stray.confidence


def test_every_ability_in_the_data_is_known(base):
    abilities = {c.ability for c in base.strays} | {c.cat.ability for c in base.deck if c.cat}
    assert abilities - {None} <= set(ABILITY_PARAMS)


def test_scoring_constants_come_from_the_data(base):
    assert base.scoring.toy_set_vp == (0, 1, 3, 5, 8, 12)
    assert [base.scoring.catnip_vp(n, 5) for n in range(6)] == [0, -2, 5, 5, 10, 10]


def test_colours_and_foods(base):
    assert base.colours == (Colour.BLACK, Colour.ORANGE, Colour.WHITE)
    assert base.foods == ("chicken", "tuna", "milk")


def test_bundled_edition_is_loaded_once(base):
    assert load_edition("base") is base


def test_unknown_edition_name_lists_the_known_ones():
    with pytest.raises(CardDataError, match="known editions: base"):
        load_edition("kittens")


# --- club files: corrections load without code changes, bad files are refused --------------


def test_club_file_with_a_corrected_card_loads_without_code_change(tmp_path):
    data = raw_base()
    alvin = find(data["cats"], "Alvin")
    alvin.update(vp=4, ability=None, params={}, provisional=False, confidence="S1", source="JAVA")
    data["version"] = "club-1"
    edition = load_edition(path=write(tmp_path, data))
    assert edition.version == "club-1"
    assert edition.cat("Alvin").vp == 4 and edition.cat("Alvin").ability is None
    assert edition.path.endswith("club.json")


def test_club_file_with_another_marker_split_changes_deck_sizes(tmp_path):
    data = raw_base()
    catnip = find(data["cards"], "Catnip")
    catnip["copies"] = {"none": 3, "3+": 2, "4": 2}
    milk = find(data["cards"], "Milk")
    milk["copies"] = {"none": 7, "3+": 0, "4": 1}
    data["player_counts"]["2"]["deck_size"] = 74
    data["player_counts"]["3"]["deck_size"] = 88
    edition = load_edition(path=write(tmp_path, data))
    assert len(edition.deck_for_players(3)) == 88


def mutate(path: str, value: Any):
    """Set a dotted path in the base data, e.g. 'cats.Bronte.needs'."""

    def apply(data: dict[str, Any]) -> dict[str, Any]:
        data = copy.deepcopy(data)
        parts = path.split(".")
        target: Any = data
        for part in parts[:-1]:
            target = find(target, part) if isinstance(target, list) else target[part]
        if value is KeyError:
            del target[parts[-1]]
        else:
            target[parts[-1]] = value
        return data

    return apply


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            mutate("cats.Bronte.needs", {"fish": 2}),
            r"cats\[8\] \(Bronte\)\.needs: unknown food 'fish'",
        ),
        (mutate("cats.Bronte.ability", "laser_eyes"), r"unknown ability 'laser_eyes'"),
        (mutate("cats.Bronte.colours", ["purple"]), r"unknown colour 'purple'"),
        (mutate("cats.Bronte.vp", KeyError), r"Bronte\): missing field 'vp'"),
        (mutate("cats.Bronte.vp", "three"), r"Bronte\)\.vp: expected int or null"),
        (
            mutate("cats.Bronte.copies", {"none": 2}),
            r"player_counts.2.deck_size: the cards add up to 75",
        ),
        (mutate("cats.Bronte.confidence", "sure"), r"unknown confidence 'sure'"),
        (mutate("cards.Catnip.copies", {"5+": 7}), r"unknown marker '5\+'"),
        (mutate("cards.Wild.food", {"caviar": 1}), r"unknown food token 'caviar'"),
        (mutate("strays.Florence.params", {"colour": "orange"}), r"missing field 'vp_each'"),
        (
            mutate("strays.Waffle.params", {"vp_each": 3, "min": 3, "max": 2, "one_type": True}),
            r"bad food range",
        ),
        (mutate("strays.Waffle.needs", {"milk": 1}), r"sets the food; needs must be empty"),
        (mutate("strays.Hemingway.ability", None), r"parameters given but the cat has no ability"),
        (mutate("components.strays", 12), r"says 12 strays but 13 are listed"),
        (mutate("format", 2), r"unsupported data format 2"),
        (mutate("scoring.toy_set_vp", [1, 3, 5]), r"toy_set_vp"),
    ],
)
def test_bad_club_files_are_refused_with_the_field_named(tmp_path, change, message):
    with pytest.raises(CardDataError, match=message):
        load_edition(path=write(tmp_path, change(raw_base())))


def test_duplicate_cat_names_are_refused(tmp_path):
    data = raw_base()
    data["strays"].append({**find(data["strays"], "Penny"), "key": "stray/penny-2"})
    data["components"]["strays"] = 14
    with pytest.raises(CardDataError, match="two cats share the name 'Penny'"):
        load_edition(path=write(tmp_path, data))


def test_invalid_json_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{ not json", encoding="utf-8")
    with pytest.raises(CardDataError, match="not valid JSON"):
        load_edition(path=path)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(CardDataError, match="cannot read card data"):
        load_edition(path=tmp_path / "nope.json")


# ==========================================================================================
# Card data for Premium and Box of Treats: what is known is shipped with its source, what is
# not is marked unknown (and blocks play), the placeholder deck says what it is, and clubs'
# files and custom strays are validated with messages that name the field.
# ==========================================================================================


PLACEHOLDER_NAME = "placeholder — not the published card list"


def raw(name: str) -> dict[str, Any]:
    return json.loads((DATA_DIR / f"catlady-{name}.json").read_text(encoding="utf-8"))


def write_expansion(tmp_path: Path, data: dict[str, Any], name: str = "club.json") -> Path:
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
        load_edition(path=write_expansion(tmp_path, data))


def test_a_club_can_complete_an_incomplete_edition(tmp_path):
    data = premium_completed_by_a_club(unknown_ability_vp=2)
    club = load_edition(path=write_expansion(tmp_path, data))
    assert club.playable and club.cat("Floopy").vp == 3


def test_an_incomplete_status_with_nothing_unknown_is_refused(tmp_path):
    data = raw("box-of-treats-placeholder")
    data["status"] = "incomplete"
    with pytest.raises(CardDataError, match="nothing is unknown"):
        load_edition(path=write_expansion(tmp_path, data))


def test_a_complete_status_with_unknown_facts_is_refused(tmp_path):
    data = raw("premium")
    data["status"] = "complete"
    with pytest.raises(
        CardDataError, match="only allowed in an edition whose status is 'incomplete'"
    ):
        load_edition(path=write_expansion(tmp_path, data))


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
