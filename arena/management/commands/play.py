"""python manage.py play BOT_OR_BUILTIN... --seed N [--games K] [--game G] [--option K=V] [--sandbox MODE]

Cat Lady expansion setups: ``--option edition=box-of-treats-placeholder`` (2-6 seats),
``--option shared_goals=true``, ``--option solitaire=true`` with seats ``BOT cat-player``.

Plays local matches through the same sandbox and runner the arena's workers use, so bot
authors test exactly what the arena runs. A bot is a ``.py`` file; anything else names a
built-in strategy. With ``--games K`` the seeds are N, N+1, ... N+K-1.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.runner import BotSpec, BotSpecError, Limits, run_match
from arena.sandbox import SandboxUnavailable, UnsafeSandboxWarning
from engine.errors import EngineError
from engine.registry import DEFAULT_GAME, load_game, registered_games


class Command(BaseCommand):
    help = "Play local matches between bot files and built-in strategies through the arena sandbox."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "bots",
            nargs="+",
            metavar="BOT_OR_BUILTIN",
            help="a bot file (ends in .py) or a built-in strategy name, one per seat",
        )
        parser.add_argument("--seed", type=int, required=True, help="deck seed of the first game")
        parser.add_argument(
            "--games", type=int, default=1, help="number of games (seeds N, N+1...)"
        )
        parser.add_argument(
            "--sandbox",
            default=None,
            help="bwrap, bwrap-rootless, rlimits-seccomp or unsafe (default: the strongest that works)",
        )
        parser.add_argument(
            "--log-dir", default="var/match-logs", help="where match logs are written"
        )
        parser.add_argument(
            "--move-ms", type=int, default=Limits().move_ms, help="per-move time limit"
        )
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

    def handle(self, *args: Any, **options: Any) -> None:
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        game_options: dict[str, Any] = {}
        for item in options["option"]:
            key, sep, value = item.partition("=")
            if not sep or not key:
                raise CommandError(f"--option {item!r} is not KEY=VALUE")
            if value in ("true", "false"):
                game_options[key] = value == "true"
            else:
                game_options[key] = int(value) if value.lstrip("-").isdigit() else value
        try:
            # The game says whether it seats this many with these options (Box of Treats: 2-6).
            load_game(
                options["game"],
                version=options["game_version"],
                options={**game_options, "players": len(options["bots"])},
            )
        except EngineError as exc:
            raise CommandError(str(exc)) from None
        if options["seed"] < 0:
            raise CommandError("--seed must be a non-negative integer")
        try:
            specs = [BotSpec.parse(text) for text in options["bots"]]
            limits = Limits(move_ms=options["move_ms"])
        except (BotSpecError, ValueError) as exc:
            raise CommandError(str(exc)) from None
        log_dir = Path(options["log_dir"])
        log_dir.mkdir(parents=True, exist_ok=True)
        names = [spec.name for spec in specs]
        wins = [0] * len(specs)
        rank_sum = [0] * len(specs)
        for game_number in range(options["games"]):
            seed = options["seed"] + game_number
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UnsafeSandboxWarning)  # reported below instead
                try:
                    log = run_match(
                        game=options["game"],
                        version=options["game_version"],
                        seed=seed,
                        bots=specs,
                        limits=limits,
                        mode=options["sandbox"],
                        options=game_options,
                    )
                except (SandboxUnavailable, EngineError) as exc:
                    raise CommandError(str(exc)) from None
            if game_number == 0 and log["sandbox_mode"] == "unsafe":
                self.stderr.write(
                    self.style.WARNING(
                        "UNSAFE sandbox: bots ran as plain subprocesses (development only)"
                    )
                )
            path = log_dir / f"match-{options['game']}-{seed}.json"
            path.write_text(json.dumps(log, indent=1))
            self._print_game(log, names, path)
            for seat, rank in enumerate(log["result"]["ranks"]):
                rank_sum[seat] += rank
                wins[seat] += seat in log["result"]["winners"]
        if options["games"] > 1:
            self.stdout.write(f"totals over {options['games']} games:")
            for seat, name in enumerate(names):
                self.stdout.write(
                    f"  seat {seat} {name}: {wins[seat]} wins, "
                    f"mean rank {rank_sum[seat] / options['games']:.2f}"
                )

    def _print_game(self, log: dict[str, Any], names: list[str], path: Path) -> None:
        result = log["result"]
        self.stdout.write(
            f"game seed {log['seed']} ({log['game']} v{log['version']}, "
            f"sandbox {log['sandbox_mode'] or 'none: built-ins only'}):"
        )
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
            self.stdout.write(
                f"  seat {seat} {name}: {result['scores'][seat]} points, rank "
                f"{result['ranks'][seat]}" + (f"  [{'; '.join(notes)}]" if notes else "")
            )
        self.stdout.write(f"  log: {path}")
