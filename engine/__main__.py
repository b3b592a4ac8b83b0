"""Command line: ``python -m engine play|replay|score``.

    python -m engine play --players 4 --bots random greedy greedy random --seed 7
    python -m engine play --players 2 --bots greedy mcts:iterations=50 --games 20 --seed 1
    python -m engine play --players 3 --bots random random greedy --seed 3 --log match.json
    python -m engine play --players 6 --edition box-of-treats-placeholder --bots random --seed 1
    python -m engine play --players 4 --edition box-of-treats-placeholder --shared-goals --bots greedy random random random
    python -m engine play --solitaire --edition box-of-treats-placeholder --bots greedy
    python -m engine play --game cantankerous-cats --players 4 --bots greedy random random random
    python -m engine play --game cantankerous-cats --players 3 --option variant=basic --deck club.json ...
    python -m engine replay match.json
    python -m engine score endgame.json [--json]

Exit codes: 0 success, 2 bad arguments or a log that does not replay.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from engine.catlady.cli import main as score_main
from engine.contract import Game, GameState, Strategy
from engine.errors import EngineError
from engine.log import make_log, replay
from engine.registry import DEFAULT_GAME, game_spec, load_game
from engine.strategies import get, names
from engine.strategies.match import play_match

EXIT_BAD_INPUT = 2


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "score":
        return int(score_main(args[1:]) or 0)
    parser = _parser()
    options = parser.parse_args(args)
    try:
        result: int = options.run(options)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return result


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    play = commands.add_parser("play", help="play bots against each other")
    play.add_argument("--game", default=DEFAULT_GAME)
    play.add_argument("--version", default=None, help="rules version (default: latest)")
    play.add_argument("--players", type=int, default=4)
    play.add_argument("--edition", default=None, help="Cat Lady card data (default: base)")
    play.add_argument(
        "--shared-goals",
        action="store_true",
        help="Cat Lady: play with Box of Treats shared goals (3 or more players)",
    )
    play.add_argument(
        "--solitaire",
        action="store_true",
        help="Cat Lady: solitaire against the cat player (one bot; the cat player is seat 2)",
    )
    play.add_argument(
        "--starting-cards",
        type=int,
        default=None,
        help="solitaire: the cat player's starting cards (harder 3, easier 1)",
    )
    play.add_argument(
        "--custom-strays",
        metavar="FILE",
        help="Cat Lady: a JSON list of the club's custom stray cats",
    )
    play.add_argument(
        "--deck",
        default=None,
        help="Cantankerous Cats deck: demo (default), or a club's .json file",
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other game option, e.g. variant=basic (repeatable)",
    )
    play.add_argument(
        "--bots",
        nargs="+",
        required=True,
        metavar="BOT",
        help=f"one per seat: {', '.join(names())}, optionally name:key=value,...; "
        "one bot for --solitaire",
    )
    play.add_argument("--seed", type=_non_negative, default=0)
    play.add_argument(
        "--games", type=_positive, default=1, help="play N games with seeds seed, seed+1, ..."
    )
    play.add_argument(
        "--log", metavar="FILE", help="write the match log (one JSON log per line with --games > 1)"
    )
    play.add_argument("--json", action="store_true", help="machine-readable output")
    play.set_defaults(run=_play)

    check = commands.add_parser("replay", help="check that a match log replays")
    check.add_argument("file", help="a match log (JSON), or one log per line; '-' for stdin")
    check.set_defaults(run=_replay)

    commands.add_parser("score", help="score the end of a physical game (see --help there)")
    return parser


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be >= 1")
    return value


def _options(options: argparse.Namespace) -> dict[str, Any]:
    chosen: dict[str, Any] = {"players": options.players}
    if options.edition is not None:
        chosen["edition"] = options.edition
    if options.deck is not None:
        chosen["deck"] = options.deck
    for item in options.option:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise EngineError(f"--option {item!r} is not KEY=VALUE")
        chosen[key] = int(value) if value.lstrip("-").isdigit() else value
    return chosen


def _bot(spec: str, game: str | None = None) -> Strategy:
    name, _, raw = spec.partition(":")
    params: dict[str, Any] = {}
    for item in filter(None, raw.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise EngineError(f"bot parameter {item!r} in {spec!r} is not key=value")
        params[key] = (
            json.loads(value) if value[:1].isdigit() or value in ("true", "false") else value
        )
    return get(name, game=game, **params)


def _play(options: argparse.Namespace) -> int:
    game_options = _options(options)
    bot_specs = list(options.bots)
    if options.solitaire:
        if len(bot_specs) != 1:
            raise EngineError(
                f"solitaire is one bot against the cat player: give one --bots, "
                f"not {len(bot_specs)}"
            )
        game_options.update(players=2, solitaire=True)
        bot_specs.append("cat-player")
        if options.starting_cards is not None:
            game_options["starting_cards"] = options.starting_cards
    elif options.starting_cards is not None:
        raise EngineError("--starting-cards is for --solitaire")
    if options.shared_goals:
        game_options["shared_goals"] = True
    if options.custom_strays:
        try:
            game_options["custom_strays"] = json.loads(_read(options.custom_strays))
        except OSError as exc:
            raise EngineError(f"cannot read {options.custom_strays}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise EngineError(f"{options.custom_strays} is not JSON: {exc}") from None
    game = load_game(options.game, version=options.version, options=game_options)
    if len(bot_specs) != game.num_players:
        raise EngineError(
            f"{game.num_players} players need {game.num_players} --bots, got {len(bot_specs)}"
        )
    options.bots = bot_specs
    bots = [_bot(spec, game.name) for spec in bot_specs]
    finals = []
    for seed in range(options.seed, options.seed + options.games):
        finals.append((seed, play_match(game, bots, seed)))
    if options.log:
        logs = [make_log(game, seed, final.history) for seed, final in finals]
        with open(options.log, "w", encoding="utf-8") as out:
            if len(logs) == 1:
                json.dump(logs[0], out, indent=1)
                out.write("\n")
            else:
                out.writelines(json.dumps(log) + "\n" for log in logs)
    if options.games == 1:
        seed, final = finals[0]
        if options.json:
            print(
                json.dumps(
                    {"seed": seed, "bots": options.bots, "result": final.result().to_json()},
                    indent=1,
                )
            )
        else:
            print(game_spec(game.name).describe_match(game, seed, options.bots, final))
    else:
        summary = _summarise(game, options.bots, [final for _, final in finals])
        print(json.dumps(summary, indent=1) if options.json else _describe_summary(summary))
    return 0


def _summarise(game: Game, bots: Sequence[str], finals: Sequence[GameState]) -> dict[str, Any]:
    """Wins (a shared win counts 1/k), mean score and mean rank per bot name and per seat."""

    def empty() -> dict[str, float]:
        return {"seats_played": 0, "wins": 0.0, "score": 0.0, "rank": 0.0}

    per_bot: dict[str, dict[str, float]] = {}
    per_seat = [empty() for _ in range(game.num_players)]
    for final in finals:
        result = final.result()
        for seat, player in enumerate(result.players):
            win = 1 / len(result.winners) if seat in result.winners else 0.0
            for row in (per_bot.setdefault(bots[seat], empty()), per_seat[seat]):
                row["seats_played"] += 1
                row["wins"] += win
                row["score"] += player.total
                row["rank"] += player.rank

    def finish(row: dict[str, float]) -> dict[str, float]:
        n = row["seats_played"] or 1
        return {
            "seats_played": int(row["seats_played"]),
            "wins": round(row["wins"], 3),
            "mean_score": round(row["score"] / n, 2),
            "mean_rank": round(row["rank"] / n, 2),
        }

    return {
        "game": game.name,
        "version": game.version,
        "players": game.num_players,
        "games": len(finals),
        "per_bot": {name: finish(row) for name, row in per_bot.items()},
        "per_seat": [
            {"seat": seat, "bot": bots[seat], **finish(row)} for seat, row in enumerate(per_seat)
        ],
    }


def _describe_summary(summary: dict[str, Any]) -> str:
    lines = [
        f"{summary['games']} games of {summary['game']} v{summary['version']}, "
        f"{summary['players']} players"
    ]
    header = f"  {'':<24}{'seats':>6}{'wins':>8}{'mean score':>12}{'mean rank':>11}"
    lines += ["per bot:", header]
    for name, row in summary["per_bot"].items():
        lines.append(
            f"  {name:<24}{row['seats_played']:>6}{row['wins']:>8.1f}"
            f"{row['mean_score']:>12.2f}{row['mean_rank']:>11.2f}"
        )
    lines += ["per seat:", header]
    for row in summary["per_seat"]:
        label = f"seat {row['seat'] + 1} {row['bot']}"
        lines.append(
            f"  {label:<24}{row['seats_played']:>6}{row['wins']:>8.1f}"
            f"{row['mean_score']:>12.2f}{row['mean_rank']:>11.2f}"
        )
    return "\n".join(lines)


def _replay(options: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if options.file == "-" else _read(options.file)
    except OSError as exc:
        raise EngineError(f"cannot read {options.file}: {exc.strerror}") from None
    try:
        logs = [json.loads(text)]
    except json.JSONDecodeError:
        try:
            logs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as exc:
            raise EngineError(
                f"{options.file} is not JSON (nor one JSON log per line): {exc}"
            ) from None
    for number, log in enumerate(logs, start=1):
        final = replay(log)
        where = f"log {number}: " if len(logs) > 1 else ""
        if final.is_terminal():
            result = final.result()
            winners = ", ".join(f"seat {s + 1}" for s in result.winners)
            totals = " ".join(str(p.total) for p in result.players)
            print(
                f"{where}ok: {len(final.history)} actions, {final.turn} turns, "
                f"scores {totals}, winner {winners}"
            )
        else:
            print(f"{where}ok (unfinished match): {len(final.history)} actions, turn {final.turn}")
    return 0


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


if __name__ == "__main__":
    sys.exit(main())
