"""manage.py play: local matches through the runner, readable output, clear refusals."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.arena.bots import BOTS_DIR, safe_modes, sandbox_missing


def play(*args: str) -> str:
    out = StringIO()
    call_command("play", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_plays_several_games_and_writes_each_log(tmp_path: Path) -> None:
    if not safe_modes():
        sandbox_missing("no safe sandbox mode here")
    output = play(
        str(BOTS_DIR / "first_legal.py"),
        "random",
        "--seed",
        "7",
        "--games",
        "2",
        "--log-dir",
        str(tmp_path),
    )
    assert "game seed 7" in output and "game seed 8" in output
    assert "totals over 2 games" in output
    log = json.loads((tmp_path / "match-cat-lady-8.json").read_text())
    assert log["seed"] == 8 and log["players"][0]["bot"] == "first_legal.py"
    assert f"log: {tmp_path / 'match-cat-lady-7.json'}" in output


def test_builtins_alone_need_no_sandbox(tmp_path: Path) -> None:
    output = play("random", "greedy", "--seed", "1", "--log-dir", str(tmp_path))
    assert "sandbox none: built-ins only" in output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["missing_bot.py", "random", "--seed", "1"], "cannot read bot file"),
        (["alphacat", "random", "--seed", "1"], "no built-in strategy 'alphacat'"),
        (["random", "--seed", "1"], "2 to 4 players"),
        (["random", "random", "--seed", "1", "--games", "0"], "--games must be at least 1"),
        (["random", "random", "--seed", "1", "--sandbox", "docker"], "unknown sandbox mode"),
    ],
)
def test_bad_arguments_fail_with_a_clear_message(
    args: list[str], message: str, tmp_path: Path
) -> None:
    with pytest.raises(CommandError, match=message):
        play(*args, "--log-dir", str(tmp_path))
