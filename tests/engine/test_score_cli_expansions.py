"""The score calculator with expansion content: boxes, treats, goals, the grid for
Choupette, custom strays, the cat player, clubs' card files and incomplete editions."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import pytest

from engine.catlady.cards import DATA_DIR
from engine.catlady.cli import main

EXAMPLE = (
    Path(__file__).resolve().parents[2]
    / "docs"
    / "examples"
    / "score-box-of-treats-placeholder.json"
)


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def test_documented_expansion_example_scores_and_says_placeholder():
    code, out, err = run([str(EXAMPLE)])
    assert code == 0 and err == ""
    assert "placeholder — not the published card list" in out
    assert "Boxes" in out and "Shared goals" in out
    assert "Placeholder Grid Cat takes Costume and Yarn Ball from the grid" in out
    assert "Biscuit: treat -> 1 VP" in out


def test_expansion_json_has_the_extra_lines_and_choices():
    code, out, _ = run([str(EXAMPLE), "--json"])
    data = json.loads(out)
    ann = data["players"][0]
    assert code == 0 and ann["breakdown"]["boxes"] == 1 and ann["breakdown"]["goals"] == 3
    assert ann["total"] == sum(ann["breakdown"].values())
    assert "shared goal met: 8 Toys" in ann["choices"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["goals"][0].update(players=["Ann", "Ann"]), "already share|not"),
        (lambda d: d["goals"][0].update(goal="Nap All Day"), "unknown goal 'Nap All Day'"),
        (lambda d: d["players"][0].update(boxes=["Hat Box"]), "unknown box"),
        (lambda d: d["players"][0].update(cat_brushes=-1), "must not be negative"),
        (lambda d: d["players"][0].update(food={"treat": 99}), "treat"),
        (lambda d: d.update(grid=["caviar"]), "unknown card 'caviar'"),
        (lambda d: d["custom_strays"][0].update(ability="flies"), "unknown ability 'flies'"),
        (
            lambda d: d["players"][0].update(starting_cards=["Placeholder start: VP"]),
            "only the cat player",
        ),
        (lambda d: d.update(players=d["players"][:2]), "shared goals need 3 or more players"),
    ],
)
def test_bad_expansion_input_exits_2_naming_the_field(change, message):
    data = example()
    change(data)
    code, out, err = run(["-"], json.dumps(data))
    assert code == 2 and out == ""
    assert err.startswith("error: ")

    assert re.search(message, err), err


def test_goals_between_non_neighbours_are_refused():
    data = example()
    data["players"].append({"name": "Di", "cats": [], "costumes": 1})
    data["goals"] = [{"goal": "8 Toys", "players": ["Ann", "Cy"]}]
    code, _, err = run(["-"], json.dumps(data))
    assert code == 2 and "neighbours" in err


def test_box_of_treats_cards_in_a_base_game_are_refused():
    players = [{"name": "a", "cats": [], "cat_brushes": 1}, {"name": "b", "cats": []}]
    code, _, err = run(["-"], json.dumps(players))
    assert code == 2 and "Box of Treats cards" in err


def test_an_incomplete_edition_cannot_be_scored():
    code, _, err = run(["-", "--edition", "premium"], json.dumps([]))
    assert code == 2 and "incomplete" in err and "Floopy" in err


def test_a_clubs_completed_card_file_scores(tmp_path):
    data = json.loads((DATA_DIR / "catlady-premium.json").read_text(encoding="utf-8"))
    for stray in data["strays"]:
        stray.update(colours=["black"], vp=3)
        if stray["needs"] == "unknown":
            stray["needs"] = {"milk": 1}
        if stray["ability"] == "unknown":
            stray.update(ability=None, params={})
    data.pop("unknown_facts")
    data["status"] = "complete"
    club = tmp_path / "premium-club.json"
    club.write_text(json.dumps(data), encoding="utf-8")
    players = [
        {
            "name": "a",
            "cats": ["Floopy", "Bronte", "Bell"],
            "food": {"tuna": 2, "chicken": 1, "milk": 1},
            "costumes": 1,
        },
        {"name": "b", "cats": []},
    ]
    code, out, err = run(["-", "--card-data", str(club), "--json"], json.dumps(players))
    assert code == 0, err
    floopy = json.loads(out)["players"][0]["feeding"][0]
    assert floopy == {
        "cat": "Floopy",
        "fed": True,
        "vp": 3 + 3,
        "ate": [{"food": "milk", "token": "milk"}],
    }


def test_the_cat_player_with_starting_cards():
    data = {
        "edition": "box-of-treats-placeholder",
        "players": [
            {"name": "You", "cats": ["Bronte"], "food": {"tuna": 2}, "costumes": 1},
            {
                "name": "Cat player",
                "cat_player": True,
                "cats": ["Chairman Meow"],
                "food": {"tuna": 1, "milk": 1},
                "spray_bottles": 1,
                "starting_cards": ["Placeholder start: Food", "Placeholder start: VP"],
            },
        ],
    }
    code, out, err = run(["-", "--json"], json.dumps(data))
    assert code == 0, err
    cat = json.loads(out)["players"][1]
    assert cat["cat_player"] is True
    assert cat["feeding"][0]["fed"] is True  # 3 wild from the Food card + tuna + milk as wild
    assert cat["breakdown"]["vp_tokens"] == 4 and cat["breakdown"]["items"] == 1
    assert copy.deepcopy(cat)["leftover_food"] == 2
