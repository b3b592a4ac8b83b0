"""The score calculator: `python -m engine score FILE|- [--json]`."""

from __future__ import annotations

import io
import json
from pathlib import Path

from engine.catlady.cli import main

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
