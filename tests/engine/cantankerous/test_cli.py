"""Cantankerous Cats through ``python -m engine play|replay``: :mod:`engine.cantankerous.cli`
describes a played game, bad arguments exit with code 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.engine.helpers import run_cli

GAME = "cantankerous-cats"


def test_cli_plays_and_replays_a_game(capsys, tmp_path):
    log = tmp_path / "match.json"
    code, out, _ = run_cli(
        capsys, f"play --game {GAME} --players 3 --bots greedy random random --seed 4 --log", log
    )
    assert code == 0
    assert "DEMO DECK — not the published cards" in out and "winner: seat" in out
    assert json.loads(log.read_text())["game"] == GAME
    code, out, _ = run_cli(capsys, "replay", log)
    assert code == 0 and out.startswith("ok: ")


def test_cli_many_games_and_options(capsys, deck_path):
    code, out, _ = run_cli(
        capsys,
        f"play --game {GAME} --players 2 --bots greedy random --games 6 --option variant=basic --deck",
        Path(deck_path),
        "--json",
    )
    summary = json.loads(out)
    assert code == 0 and summary["games"] == 6 and summary["per_bot"]["greedy"]["wins"] >= 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "7", "--bots", *["random"] * 7], "played by 2-6 players, not 7"),
        (["--players", "2", "--bots", "random", "mcts"], "unknown strategy 'mcts'"),
        (
            ["--players", "2", "--bots", "random", "random", "--deck", "official"],
            "cannot be played yet",
        ),
        (
            ["--players", "2", "--bots", "random", "random", "--option", "colour"],
            "--option 'colour' is not KEY=VALUE",
        ),
        (
            ["--players", "2", "--bots", "random", "random", "--option", "dog_cards=bark"],
            "option 'dog_cards' must be one of incident, pounce-only",
        ),
        (
            ["--players", "2", "--bots", "random", "random", "--edition", "base"],
            "unknown option\\(s\\) for cantankerous-cats: edition",
        ),
    ],
)
def test_cli_refuses_bad_arguments_with_exit_code_2(capsys, argv, message):
    code, _, err = run_cli(capsys, "play", "--game", GAME, *argv)
    assert code == 2
    assert re.search(message, err), err
