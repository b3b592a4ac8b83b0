"""Local matches for bot authors: the arena's own runner and sandbox, from a shell.

No Django: ``bin/manage play`` and the starter kit's ``play.py`` (which ships this module with
the runner, the sandbox and the engine) both call :func:`main`'s pieces, so an author tests
exactly what the arena runs. Seats are printed as people count them, from 1.

    python3 play.py my_bot.py random greedy --seed 1 --games 10
    python3 play.py my_bot.py greedy --game cantankerous-cats --seed 1 --option variant=basic
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, load_game, registered_games

from .runner import BotSpec, BotSpecError, Limits, run_match
from .sandbox import SandboxUnavailable, UnsafeSandboxWarning

__all__ = ["ARGUMENTS", "LocalPlayError", "add_arguments", "main", "play"]

# What add_arguments parses, by the name play() takes it under.
ARGUMENTS = (
    "bots",
    "seed",
    "games",
    "sandbox",
    "log_dir",
    "move_ms",
    "game",
    "option",
    "game_version",
)

UNSAFE_NOTE = "UNSAFE sandbox: bots ran as plain subprocesses (development only)"


class LocalPlayError(ValueError):
    """A bad argument or a match that cannot be played here, in words for the author."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of a local match (shared by ``bin/manage play`` and the kit's play.py)."""
    parser.add_argument(
        "bots",
        nargs="+",
        metavar="BOT_OR_BUILTIN",
        help="a bot file (ends in .py) or a built-in strategy name, one per seat",
    )
    parser.add_argument("--seed", type=int, required=True, help="deck seed of the first game")
    parser.add_argument("--games", type=int, default=1, help="number of games (seeds N, N+1...)")
    parser.add_argument(
        "--sandbox",
        default=None,
        help="bwrap, bwrap-rootless, rlimits-seccomp or unsafe (default: the strongest that works)",
    )
    parser.add_argument("--log-dir", default="var/match-logs", help="where match logs are written")
    parser.add_argument("--move-ms", type=int, default=Limits().move_ms, help="per-move time limit")
    games = sorted({name for name, _ in registered_games()})
    parser.add_argument(
        "--game",
        default=DEFAULT_GAME,
        choices=games,
        help=f"{', '.join(games)} (default {DEFAULT_GAME})",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a game option, e.g. variant=basic (repeatable)",
    )
    parser.add_argument(
        "--rules-version",
        dest="game_version",
        default=None,
        help="rules version (default: latest)",
    )


def game_options(items: Sequence[str]) -> dict[str, Any]:
    """``["variant=basic", "shared_goals=true"]`` -> ``{"variant": "basic", "shared_goals": True}``."""
    options: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise LocalPlayError(f"--option {item!r} is not KEY=VALUE")
        if value in ("true", "false"):
            options[key] = value == "true"
        else:
            options[key] = int(value) if value.lstrip("-").isdigit() else value
    return options


def play(
    *,
    bots: Sequence[str],
    seed: int,
    games: int = 1,
    game: str = DEFAULT_GAME,
    game_version: str | None = None,
    option: Sequence[str] = (),
    sandbox: str | None = None,
    move_ms: int | None = None,
    log_dir: str = "var/match-logs",
    say: Callable[[str], None] = print,
    warn: Callable[[str], None] = print,
) -> list[dict[str, Any]]:
    """Play ``games`` matches (seeds ``seed``, ``seed + 1``...), write each log under
    ``log_dir``, ``say`` each result line; returns the logs. Raises :class:`LocalPlayError`."""
    if games < 1:
        raise LocalPlayError("--games must be at least 1")
    if seed < 0:
        raise LocalPlayError("--seed must be a non-negative integer")
    options = game_options(option)
    try:
        # The game says whether it seats this many with these options (Box of Treats: 2-6).
        load_game(game, version=game_version, options={**options, "players": len(bots)})
        specs = [BotSpec.parse(text) for text in bots]
        limits = Limits(move_ms=move_ms) if move_ms is not None else Limits()
    except (EngineError, BotSpecError, ValueError) as exc:
        raise LocalPlayError(str(exc)) from None
    folder = Path(log_dir)
    folder.mkdir(parents=True, exist_ok=True)
    names = [spec.name for spec in specs]
    logs = []
    for number in range(games):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnsafeSandboxWarning)  # said once below instead
            try:
                log = run_match(
                    game=game,
                    version=game_version,
                    seed=seed + number,
                    bots=specs,
                    limits=limits,
                    mode=sandbox,
                    options=options,
                )
            except (SandboxUnavailable, EngineError) as exc:
                raise LocalPlayError(str(exc)) from None
        if number == 0 and log["sandbox_mode"] == "unsafe":
            warn(UNSAFE_NOTE)
        path = folder / f"match-{game}-{seed + number}.json"
        path.write_text(json.dumps(log, indent=1))
        for line in result_lines(log, names):
            say(line)
        say(f"  log: {path}")
        logs.append(log)
    if games > 1:
        for line in totals_lines(logs, names):
            say(line)
    return logs


def result_lines(log: dict[str, Any], names: Sequence[str]) -> list[str]:
    """One match: its seed and sandbox, then each seat (from 1) with points, rank and faults."""
    result = log["result"]
    lines = [
        f"game seed {log['seed']} ({log['game']} v{log['version']}, "
        f"sandbox {log['sandbox_mode'] or 'none: built-ins only'}):"
    ]
    for seat, name in enumerate(names):
        faults = log["faults"][seat]
        notes = []
        if faults:
            kinds = sorted({fault["status"] for fault in faults})
            notes.append(f"{len(faults)} faults ({', '.join(kinds)})")
        if seat in log["forfeited"]:
            notes.append("FORFEITED")
        if seat in result["winners"]:
            notes.append("winner")
        lines.append(
            f"  seat {seat + 1} {name}: {result['scores'][seat]} points, rank "
            f"{result['ranks'][seat]}" + (f"  [{'; '.join(notes)}]" if notes else "")
        )
    return lines


def totals_lines(logs: Sequence[dict[str, Any]], names: Sequence[str]) -> list[str]:
    wins = [sum(seat in log["result"]["winners"] for log in logs) for seat in range(len(names))]
    ranks = [sum(log["result"]["ranks"][seat] for log in logs) for seat in range(len(names))]
    lines = [f"totals over {len(logs)} games:"]
    for seat, name in enumerate(names):
        lines.append(
            f"  seat {seat + 1} {name}: {wins[seat]} wins, mean rank {ranks[seat] / len(logs):.2f}"
        )
    return lines


def main(argv: Sequence[str] | None = None, *, prog: str = "play.py") -> int:
    """The starter kit's command line; 0 when every match was played, 2 on a bad argument."""
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n")[0])
    add_arguments(parser)
    arguments = vars(parser.parse_args(argv))
    try:
        play(**arguments, warn=lambda text: print(text, file=sys.stderr))
    except LocalPlayError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
