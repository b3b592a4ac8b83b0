"""Actions as values: the short text form, the JSON form, and refusing malformed input."""

from __future__ import annotations

import json

import pytest

from engine.catlady import actions
from engine.catlady.actions import Line, action_from_json, parse_action
from engine.errors import EngineError
from engine.registry import load_game

EVERY_KIND = [
    (actions.PlaceToken(Line.ROW_1), "place-token row 1", {"type": "place-token", "line": "row 1"}),
    (actions.Take(Line.ROW_2), "take row 2", {"type": "take", "line": "row 2"}),
    (actions.Take(Line.COL_3), "take col 3", {"type": "take", "line": "col 3"}),
    (actions.Spray(Line.COL_1), "spray col 1", {"type": "spray", "line": "col 1"}),
    (
        actions.LostCatsForStray("Florence"),
        "lost-cats stray Florence",
        {"type": "lost-cats-stray", "stray": "Florence"},
    ),
    (
        actions.LostCatsForStray("LeVar Purrton"),
        "lost-cats stray LeVar Purrton",
        {"type": "lost-cats-stray", "stray": "LeVar Purrton"},
    ),
    (actions.LostCatsForVP(), "lost-cats vp", {"type": "lost-cats-vp"}),
    (actions.EndTurn(), "end-turn", {"type": "end-turn"}),
]


@pytest.mark.parametrize(("action", "text", "obj"), EVERY_KIND)
def test_text_and_json_forms_round_trip(action, text, obj):
    assert str(action) == text
    assert parse_action(text) == action
    assert action.to_json() == obj
    assert action_from_json(json.loads(json.dumps(obj))) == action


def test_actions_are_hashable_values():
    assert actions.Take(Line.ROW_1) == actions.Take(Line.ROW_1)
    assert actions.Take(Line.ROW_1) != actions.Spray(Line.ROW_1)
    assert (
        len(
            {
                actions.Take(Line.ROW_1),
                actions.Take(Line.ROW_1),
                actions.EndTurn(),
                actions.EndTurn(),
            }
        )
        == 2
    )


def test_lines_number_rows_from_the_top_and_columns_from_the_left():
    assert Line.ROW_1.slots == (0, 1, 2)
    assert Line.ROW_3.slots == (6, 7, 8)
    assert Line.COL_1.slots == (0, 3, 6)
    assert Line.COL_3.slots == (2, 5, 8)
    assert Line.parse("Column 2") is Line.COL_2


def test_text_form_tolerates_case_and_spacing():
    assert parse_action("  TAKE   Row 2 ") == actions.Take(Line.ROW_2)
    assert parse_action("Lost-Cats VP") == actions.LostCatsForVP()


@pytest.mark.parametrize(
    "text",
    [
        "",
        "take",
        "take row 4",
        "take diagonal 1",
        "take row 0",
        "jump row 1",
        "end-turn now",
        "lost-cats",
        "lost-cats stray",
        "lost-cats vp 2",
        "spray",
    ],
)
def test_malformed_text_is_refused(text):
    with pytest.raises(EngineError):
        parse_action(text)


@pytest.mark.parametrize(
    "obj",
    [
        None,
        "take row 1",
        [],
        {},
        {"type": "take"},
        {"type": "take", "line": 1},
        {"type": "take", "line": "row 1", "extra": True},
        {"type": "end-turn", "line": "row 1"},
        {"type": "lost-cats-stray"},
        {"type": "lost-cats-stray", "stray": "  "},
        {"type": "fly"},
    ],
)
def test_malformed_json_is_refused(obj):
    with pytest.raises(EngineError):
        action_from_json(obj)


def test_the_game_canonicalises_stray_names_and_refuses_unknown_ones():
    game = load_game(options={"players": 2})
    assert game.parse_action("lost-cats stray levar purrton") == actions.LostCatsForStray(
        "LeVar Purrton"
    )
    assert game.action_from_json({"type": "lost-cats-stray", "stray": "WAFFLE"}) == (
        actions.LostCatsForStray("Waffle")
    )
    with pytest.raises(EngineError, match="no stray cat is called 'Garfield'"):
        game.parse_action("lost-cats stray Garfield")
