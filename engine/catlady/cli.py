"""Cat Lady's command-line texts: ``python -m engine score FILE|-`` scores the end of a
physical game from a JSON file, and :func:`describe_game` prints a played game.

Exit codes: 0 scored, 2 bad input (unreadable file, malformed JSON, impossible end state).
The input format is documented in docs/scoring.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.catlady.cards import load_edition
from engine.catlady.game import Game, State
from engine.catlady.scoring import (
    BREAKDOWN,
    BREAKDOWN_LABELS,
    GameScore,
    ScoringRules,
    context_from_json,
    score_game,
    tableaux_from_json,
)
from engine.errors import EngineError

__all__ = ["describe_game", "format_text", "main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine score",
        description="Score the end of a game of Cat Lady from a JSON end state.",
    )
    parser.add_argument("file", help="JSON file with the players' holdings, or - for stdin")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--edition", help="card data edition (default: the file's, else base)")
    parser.add_argument(
        "--card-data",
        metavar="FILE",
        help="a club's own card data file (instead of a bundled edition)",
    )
    parser.add_argument(
        "--costume-split",
        choices=("up", "down"),
        default="up",
        help="round a costume split that is not whole up or down (default up)",
    )
    parser.add_argument(
        "--penalty-when-nobody-has-leftover",
        action="store_true",
        help="everybody loses 2 VP when nobody has leftover food",
    )
    parser.add_argument(
        "--macak-catnip-optional",
        action="store_true",
        help="Macak's catnip counts only when it helps",
    )
    return parser


def main(
    argv: list[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the calculator; returns the exit code (0 ok, 2 bad input)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = _parser().parse_args(argv)
    try:
        if args.file == "-":
            text = stdin.read()
            origin = "standard input"
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
            origin = args.file
    except OSError as exc:
        print(f"error: cannot read {args.file}: {exc.strerror}", file=stderr)
        return 2
    except UnicodeDecodeError:
        print(f"error: {args.file} is not UTF-8 text", file=stderr)
        return 2
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        print(
            f"error: {origin} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            file=stderr,
        )
        return 2
    try:
        edition_name = args.edition or (data.get("edition") if isinstance(data, dict) else None)
        if edition_name is not None and not isinstance(edition_name, str):
            raise EngineError("edition: expected a string")
        if args.card_data:
            edition = load_edition(path=args.card_data)
        else:
            edition = load_edition(edition_name or "base")
        edition.require_playable()
        if isinstance(data, dict) and data.get("custom_strays"):
            edition = edition.with_custom_strays(data["custom_strays"])
        rules = ScoringRules(
            costume_split=args.costume_split,
            penalty_when_nobody_has_leftover=args.penalty_when_nobody_has_leftover,
            macak_catnip_optional=args.macak_catnip_optional,
        )
        tableaux = tableaux_from_json(data, edition)
        grid, goals = context_from_json(data, edition, tableaux)
        score = score_game(tableaux, edition=edition, rules=rules, grid=grid, goals=goals)
        label = edition.label
    except EngineError as exc:
        print(f"error: {exc}", file=stderr)
        return 2
    if args.json:
        json.dump(score.to_json(), stdout, indent=2)
        stdout.write("\n")
    else:
        stdout.write(format_text(score, label=label))
    return 0


def format_text(score: GameScore, *, label: str | None = None) -> str:
    """The human-readable report: a score pad, then each player's feeding, then the winner."""
    players = score.players
    width = max(14, *(len(p.name) for p in players))
    lines = [f"Cat Lady ({score.edition} card data v{score.edition_version})", ""]
    if label and "placeholder" in label.lower():
        lines[0] += f" -- {label}"
    lines.append(" " * 14 + "".join(f"{p.name:>{width + 2}}" for p in players))
    keys = list(BREAKDOWN) + [k for k in players[0].breakdown if k not in BREAKDOWN]
    for key in keys:
        lines.append(
            f"{BREAKDOWN_LABELS[key]:<14}"
            + "".join(f"{p.breakdown[key]:>{width + 2}}" for p in players)
        )
    lines.append(f"{'Total':<14}" + "".join(f"{p.total:>{width + 2}}" for p in players))
    lines.append(f"{'Fed cats':<14}" + "".join(f"{p.fed_cat_count:>{width + 2}}" for p in players))
    lines.append(f"{'Rank':<14}" + "".join(f"{p.rank:>{width + 2}}" for p in players))
    for p in players:
        lines += ["", f"{p.name}: feeding"]
        lines += [f"  {f.describe()}" for f in p.feeding] or ["  (no cats)"]
        left = ", ".join(f"{n} {token}" for token, n in p.leftover.items()) or "none"
        lines.append(f"  leftover food: {left}; catnip counted: {p.catnip_counted}")
        lines += [f"  choice: {c}" for c in p.choices]
    names = [players[i].name for i in score.winners]
    lines.append("")
    lines.append(("Winner: " if len(names) == 1 else "Shared win: ") + ", ".join(names))
    if not score.feeding_settled:
        lines.append("note: the feeding choices did not settle; see docs/scoring.md")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))


def describe_game(game: Game, seed: int, bots: Sequence[str], final: State) -> str:
    """Text output of ``python -m engine play`` for one finished game: each seat's score
    with its breakdown and how every cat was fed, and the winner (seats numbered from 1, as on
    the site)."""
    result = final.result()
    lines = [
        f"{game.name} rules v{game.version}, {game.edition.label} data v"
        f"{game.edition.version}, {game.num_players} players, seed {seed}: "
        f"{final.turn} turns" + (" (solitaire: seat 2 is the cat player)" if game.solitaire else "")
    ]
    for seat, player in enumerate(result.players):
        parts = ", ".join(f"{k.replace('_', ' ')} {v:+d}" for k, v in player.breakdown.items())
        lines.append(
            f"  seat {seat + 1} {bots[seat]:<10} rank {player.rank}  total {player.total:>3}"
            f"  fed cats {player.fed_cat_count}  ({parts})"
        )
        for cat in player.feeding:
            lines.append(f"      {cat.describe()}")
        for choice in player.choices:
            lines.append(f"      ({choice})")
    winners = ", ".join(f"seat {s + 1} ({bots[s]})" for s in result.winners)
    lines.append(f"winner: {winners}" + (" (shared)" if len(result.winners) > 1 else ""))
    return "\n".join(lines)
