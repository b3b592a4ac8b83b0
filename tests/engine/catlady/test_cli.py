"""Cat Lady's command line: the score calculator (``python -m engine score FILE|- [--json]``),
base and expansion content, and ``python -m engine play|replay`` for Cat Lady."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import pytest

from engine.catlady.cli import main
from tests.engine.catlady.helpers import premium_completed_by_a_club
from tests.engine.helpers import run_cli

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "examples" / "score-example.json"


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_documented_example_scores_with_a_winner():
    code, out, err = run([str(EXAMPLE)])
    assert code == 0 and err == ""
    assert "Winner: Kat" in out
    assert "Florence: chicken, milk -> 6 VP" in out
    assert "Bronte: tuna, tuna (wild) -> 3 VP" in out


def test_json_output_is_machine_readable():
    code, out, _ = run([str(EXAMPLE), "--json"])
    data = json.loads(out)
    assert code == 0
    assert data["winners"] == ["Kat"]
    kat = data["players"][0]
    assert kat["total"] == sum(kat["breakdown"].values()) == 27
    assert kat["breakdown"]["toys"] == 9  # Kat's toys, as in the rulebook


def test_reads_standard_input_and_a_bare_list():
    players = [
        {"name": "a", "cats": ["Bronte"], "food": {"tuna": 2}, "costumes": 1},
        {"name": "b", "cats": [], "food": {"milk": 1}},
    ]
    code, out, _ = run(["-", "--json"], json.dumps(players))
    assert code == 0 and json.loads(out)["players"][0]["total"] == 3 + 6


def test_rules_settings_are_flags():
    players = [{"name": n, "cats": [], "costumes": 1} for n in "abcd"]
    _, out, _ = run(["-", "--json", "--costume-split", "down"], json.dumps(players))
    assert [p["breakdown"]["costumes"] for p in json.loads(out)["players"]] == [1] * 4
    _, out, _ = run(["-", "--json", "--penalty-when-nobody-has-leftover"], json.dumps(players))
    assert [p["breakdown"]["food_penalty"] for p in json.loads(out)["players"]] == [-2] * 4


def test_unknown_cat_exits_2_with_the_field():
    code, out, err = run(
        ["-"], json.dumps([{"name": "a", "cats": ["Garfield"]}, {"name": "b", "cats": []}])
    )
    assert code == 2 and out == ""
    assert 'players[0].cats[0]: unknown cat "Garfield"' in err


def test_impossible_counts_exit_2():
    two_bronte = [{"name": "a", "cats": ["Bronte"]}, {"name": "b", "cats": ["Bronte"]}]
    assert run(["-"], json.dumps(two_bronte))[0] == 2
    negative = [{"name": "a", "cats": [], "catnip": -1}, {"name": "b", "cats": []}]
    code, _, err = run(["-"], json.dumps(negative))
    assert code == 2 and "players[0].catnip: must not be negative" in err


def test_malformed_json_exits_2():
    code, _, err = run(["-"], "{ players: ")
    assert code == 2 and "not valid JSON" in err


def test_missing_file_exits_2(tmp_path):
    code, _, err = run([str(tmp_path / "nope.json")])
    assert code == 2 and "cannot read" in err


def test_wrong_shape_exits_2():
    code, _, err = run(["-"], json.dumps({"players": "everyone"}))
    assert code == 2 and "players: expected a list" in err


# ==========================================================================================
# The score calculator with expansion content: boxes, treats, goals, the grid for
# Choupette, custom strays, the cat player, clubs' card files and incomplete editions.
# ==========================================================================================


EXPANSION_EXAMPLE = (
    Path(__file__).resolve().parents[3]
    / "docs"
    / "examples"
    / "score-box-of-treats-placeholder.json"
)


def example() -> dict:
    return json.loads(EXPANSION_EXAMPLE.read_text(encoding="utf-8"))


def test_documented_expansion_example_scores_and_says_placeholder():
    code, out, err = run([str(EXPANSION_EXAMPLE)])
    assert code == 0 and err == ""
    assert "placeholder — not the published card list" in out
    assert "Boxes" in out and "Shared goals" in out
    assert "Placeholder Grid Cat takes Costume and Yarn Ball from the grid" in out
    assert "Biscuit: treat -> 1 VP" in out


def test_expansion_json_has_the_extra_lines_and_choices():
    code, out, _ = run([str(EXPANSION_EXAMPLE), "--json"])
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
    data = premium_completed_by_a_club()
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


def test_cli_plays_a_game_and_its_log_replays(capsys, tmp_path):
    log = tmp_path / "match.json"
    code, out, _ = run_cli(
        capsys, "play --players 4 --bots random greedy greedy random --seed 7 --log", log
    )
    assert code == 0
    assert "4 players, seed 7: 32 turns" in out and "winner: seat" in out
    assert out.count("rank ") == 4
    code, out, _ = run_cli(capsys, "replay", log)
    assert code == 0 and out.startswith("ok: ") and "32 turns" in out


def test_cli_summarises_several_games_per_bot_and_per_seat(capsys, tmp_path):
    logs = tmp_path / "logs.jsonl"
    code, out, _ = run_cli(
        capsys, "play --players 2 --bots random greedy --games 3 --seed 1 --json --log", logs
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 3
    assert summary["per_bot"]["greedy"]["seats_played"] == 3
    assert sum(row["wins"] for row in summary["per_seat"]) == pytest.approx(3)
    assert len(logs.read_text().splitlines()) == 3
    code, out, _ = run_cli(capsys, "replay", logs)
    assert code == 0 and out.count("ok: ") == 3


def test_cli_refuses_a_tampered_log_with_exit_code_2(capsys, tmp_path):
    log = tmp_path / "match.json"
    run_cli(capsys, "play --players 2 --bots random random --log", log)
    data = json.loads(log.read_text())
    data["result"]["players"][0]["total"] += 1
    log.write_text(json.dumps(data))
    code, out, err = run_cli(capsys, "replay", log)
    assert code == 2 and "result differs" in err
    (tmp_path / "junk.json").write_text("{not json")
    assert run_cli(capsys, "replay", tmp_path / "junk.json")[0] == 2
    assert run_cli(capsys, "replay", tmp_path / "missing.json")[0] == 2


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "4", "--bots", "random", "random"],
        ["play", "--players", "5", "--bots"] + ["random"] * 5,
        ["play", "--players", "2", "--bots", "random", "wizard"],
        ["play", "--players", "2", "--bots", "random", "random", "--seed", "-1"],
        ["play", "--players", "2", "--bots", "random", "random", "--games", "0"],
        ["fly"],
    ],
)
def test_cli_refuses_bad_arguments(capsys, argv):
    code, _, err = run_cli(capsys, *argv)
    assert code == 2 and err


def test_cli_dispatches_score_to_the_calculator(capsys, tmp_path):
    end = tmp_path / "end.json"
    player = {"toys": {}, "catnip": 0, "vp_tokens": 0, "lost_cats": 0, "spray_bottles": 0}
    end.write_text(
        json.dumps(
            {
                "players": [
                    {
                        **player,
                        "name": "Ann",
                        "cats": ["Bronte"],
                        "food": {"tuna": 2},
                        "costumes": 1,
                    },
                    {**player, "name": "Bob", "cats": [], "food": {}, "costumes": 0},
                ]
            }
        )
    )
    code, out, _ = run_cli(capsys, "score", end, "--json")
    assert code == 0
    assert json.loads(out)["winners"] == ["Ann"]
    assert run_cli(capsys, "score", tmp_path / "missing.json")[0] == 2
