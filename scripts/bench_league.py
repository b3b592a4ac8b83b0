#!/usr/bin/env python
"""Benchmark the league on PostgreSQL: full rebuild, logged games, standings and history reads.

Builds one Cat Lady league of 500 players and 100,000 games in a database of its own
(created here and dropped at the end, also after an error or Ctrl-C; --keep-db keeps it), then
prints the figures the README quotes:

    .venv/bin/python scripts/bench_league.py            # the full size, a few minutes
    .venv/bin/python scripts/bench_league.py --games 5000 --logged 20 --requests 20  # a smoke run

DATABASE_URL names the server and the scratch database (default
postgres://postgres@127.0.0.1:5432/catleague_bench). The database is DROPPED and re-created, so
its name must contain "bench"; the development and test databases are refused outright.

Games are bulk-loaded with COPY (going through `league.results.services.game_record` 100,000 times would
take hours), but each one is checked and ranked by `league.catalogue.check_results`, exactly as
a logged game would. Everything timed
afterwards goes through the real services and the real HTTP stack (django.test.Client).
Timings are wall-clock on whatever machine runs this: they are noisy on a shared box.

    .venv/bin/python scripts/bench_league.py --baseline 6375dd5 --rounds 3
    .venv/bin/python scripts/bench_league.py --games 5000 --logged 20 --requests 20 --baseline 6375dd5 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `league`, `config`...; scripts/benchlib.py), then prints the medians of every figure,
the speed-ups and the machine. The baseline builds its league in a database of its own: the
DATABASE_URL name with `_base_` and the baseline commit appended. Every run builds its league
afresh; the comparison drops both databases when it ends, however it ends, unless --keep-db.
6375dd5 (main when the engine work began) is the baseline for the README.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/catleague_bench"

TARGET_REBUILD_S = 20.0
TARGET_LOGGED_MS = 50.0
TARGET_STANDINGS_P95_MS = 100.0


# --- figures --------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest value with at least `fraction` of values at or below.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.95)
    4.0
    """
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summary_ms(seconds: list[float]) -> dict[str, float]:
    ms = [s * 1000 for s in seconds]
    return {
        "n": len(ms),
        "median": statistics.median(ms),
        "p95": percentile(ms, 0.95),
        "max": max(ms),
    }


@contextmanager
def stopwatch(label: str) -> Iterator[None]:
    print(f"  {label} ...", end="", flush=True)
    start = time.perf_counter()
    yield
    print(f" {time.perf_counter() - start:.1f} s", flush=True)


# --- building the league --------------------------------------------------------------------


def build_league(*, players_count: int, games_count: int, years: int, seed: int):
    """One league, its members and seasons, and `games_count` games loaded with COPY."""
    from django.contrib.auth import get_user_model
    from django.core.management.color import no_style
    from django.db import connection, transaction
    from django.utils import timezone

    from league.catalogue import check_results
    from league.clubs import services
    from league.models import Game, Membership, Participant, Player
    from league.results import checks

    rng = random.Random(seed)
    organiser = get_user_model().objects.create_user("bench-organiser", password=None)
    league = services.league_create(
        name="Bench Cat Club", slug="bench-club", game="cat-lady", by=organiser
    )
    players = Player.objects.bulk_create(
        Player(name=f"Bench player {index:04d}") for index in range(1, players_count + 1)
    )
    Membership.objects.bulk_create(Membership(league=league, player=p) for p in players)

    today = timezone.localdate()
    last_day = today - dt.timedelta(days=1)
    first_day = last_day - dt.timedelta(days=365 * years)
    seasons = {
        year: services.season_create(
            league=league,
            name=f"{year} season",
            starts_on=dt.date(year, 1, 1),
            ends_on=dt.date(year, 12, 31),
            by=organiser,
        )
        for year in range(first_day.year, today.year + 1)
    }

    span = (last_day - first_day).days
    dates = sorted(first_day + dt.timedelta(days=rng.randint(0, span)) for _ in range(games_count))
    now = timezone.now()
    game_rows: list[tuple[Any, ...]] = []
    participant_rows: list[tuple[Any, ...]] = []
    participant_id = 0
    for game_id, played_on in enumerate(dates, start=1):
        solitaire = rng.random() < 0.01  # a few unrated games, as a real club would log
        edition = "solitaire" if solitaire else "base"
        table = rng.sample(players, 1 if solitaire else rng.choice((2, 3, 3, 4)))
        raw = [{"total_vp": rng.randint(8, 48), "fed_cats": rng.randint(0, 8)} for _ in table]
        details = {"cat_player_vp": rng.randint(8, 40)} if solitaire else {}
        checked = check_results("cat-lady", edition, raw, details)
        season = seasons[played_on.year]
        as_logged = checks.CheckedGame(
            edition=edition,
            played_on=played_on,
            played_time=None,
            season=season,
            participants=[
                (player, seat, result, rank)
                for seat, (player, result, rank) in enumerate(
                    zip(table, checked.results, checked.ranks, strict=True), 1
                )
            ],
            details=checked.details,
            rated=checked.rated and len(table) >= 2,
            headline="total_vp",
        )
        game_rows.append(
            (
                game_id,
                league.pk,
                season.pk,
                "cat-lady",
                edition,
                played_on,
                None,
                "Club room",
                "",
                json.dumps(checked.details),
                as_logged.rated,
                organiser.pk,
                now,
                now,
            )
        )
        for player, seat, result, rank in as_logged.participants:
            participant_id += 1
            participant_rows.append(
                (
                    participant_id,
                    game_id,
                    player.pk,
                    seat,
                    json.dumps(result),
                    int(result["total_vp"]),
                    rank,
                )
            )

    game_columns = [
        "id",
        "league_id",
        "season_id",
        "game",
        "edition",
        "played_on",
        "played_time",
        "place",
        "notes",
        "details",
        "rated",
        "logged_by_id",
        "created_at",
        "updated_at",
    ]
    participant_columns = ["id", "game_id", "player_id", "seat", "result", "score", "rank"]
    with transaction.atomic(), connection.cursor() as cursor:
        raw_cursor = cursor.cursor
        for model, columns, rows in (
            (Game, game_columns, game_rows),
            (Participant, participant_columns, participant_rows),
        ):
            statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                sql.Identifier(model._meta.db_table),
                sql.SQL(", ").join(sql.Identifier(c) for c in columns),
            )
            with raw_cursor.copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)
        for statement in connection.ops.sequence_reset_sql(no_style(), [Game, Participant]):
            cursor.execute(statement)
    vacuum_analyze()
    return league, organiser, players, seasons, len(participant_rows)


def vacuum_analyze() -> None:
    """What autovacuum does within a minute of a bulk change (it may be off on a dev server)."""
    from django.db import connection

    from league.models import Game, Participant, PlayerRating

    with connection.cursor() as cursor:
        for model in (Game, Participant, PlayerRating):
            cursor.execute(
                sql.SQL("VACUUM ANALYZE {}")
                .format(sql.Identifier(model._meta.db_table))
                .as_string(cursor.connection)
            )


# --- the timed parts ------------------------------------------------------------------------


class PathCounter:
    """Counts which rating path `league.results.services.game_record` took, by wrapping the two functions."""

    def __init__(self) -> None:
        from league.results import ratings as rating_pass

        self.module = rating_pass
        self.counts = {"incremental": 0, "rebuild_from": 0}
        self._originals = (rating_pass._rate_one, rating_pass.rebuild_from)

    def __enter__(self) -> PathCounter:
        rate_one, rebuild_from = self._originals

        def counted_rate_one(*args, **kwargs):
            self.counts["incremental"] += 1
            return rate_one(*args, **kwargs)

        def counted_rebuild_from(*args, **kwargs):
            self.counts["rebuild_from"] += 1
            return rebuild_from(*args, **kwargs)

        self.module._rate_one = counted_rate_one
        self.module.rebuild_from = counted_rebuild_from
        return self

    def __exit__(self, *exc: object) -> None:
        self.module._rate_one, self.module.rebuild_from = self._originals


def random_table(rng: random.Random, players: list) -> list:
    from league.results import checks

    table = rng.sample(players, rng.choice((2, 3, 3, 4)))
    # Distinct fed cats: a tie on total VP is always broken, so no game is refused.
    fed = rng.sample(range(0, 12), len(table))
    return [
        checks.ParticipantInput(
            player_id=p.pk, seat=seat, result={"total_vp": rng.randint(8, 48), "fed_cats": f}
        )
        for seat, (p, f) in enumerate(zip(table, fed, strict=True), start=1)
    ]


def time_logged_games(
    *, league, organiser, players, rng, dates_and_times
) -> tuple[list[float], dict]:
    from league.results import services as result_services

    seconds = []
    with PathCounter() as paths:
        for played_on, played_time in dates_and_times:
            participants = random_table(rng, players)
            start = time.perf_counter()
            result_services.game_record(
                league=league,
                participants=participants,
                played_on=played_on,
                played_time=played_time,
                logged_by=organiser,
                edition="base",
                place="Club room",
            )
            seconds.append(time.perf_counter() - start)
    return seconds, dict(paths.counts)


def time_requests(client, urls: Callable[[int], str], count: int, warm_up: int = 5) -> list[float]:
    for index in range(warm_up):
        client.get(urls(index))
    seconds = []
    for index in range(count):
        url = urls(index)
        start = time.perf_counter()
        response = client.get(url)
        seconds.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise SystemExit(f"bench_league: GET {url} answered {response.status_code}")
    return seconds


def queries_for(client, url: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    return len(captured.captured_queries)


# --- main -----------------------------------------------------------------------------------

# The read endpoints timed, in the table's order: figure key, label in the table, and the
# share of --requests each gets.
READS = (
    ("standings", "standings", 1),
    ("history_page", "rating history (page of 50)", 1),
    ("history_1000", "rating history (limit=1000)", 4),
    ("season_standings", "season standings", 4),
)


def backdated_days(years: int) -> tuple[int, ...]:
    return (7, 30, 365, 365 * years - 1)


def kind(key: str) -> str:
    """Times in ms or s are compared (smaller is better); the rest are counts."""
    return "time" if key.endswith(("_ms", "_s")) else "count"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument(
        "--years", type=int, default=4, help="Spread the games over this many years"
    )
    parser.add_argument("--logged", type=int, default=200, help="Games logged today, one by one")
    parser.add_argument(
        "--untimed",
        type=int,
        default=50,
        help="Games logged today with no time of day (the usual club entry)",
    )
    parser.add_argument("--requests", type=int, default=200, help="Requests per endpoint")
    parser.add_argument("--seed", type=int, default=2024)
    return benchdjango.main_on_scratch_django(
        __file__, parser, default_url=DEFAULT_URL, run=run, report=report, describe=kind
    )


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone

    from league.models import Game, Participant, PlayerRating
    from league.results import services as result_services

    print(f"Catleague league benchmark, {dt.datetime.now():%Y-%m-%d %H:%M}")
    print(
        f"  python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, database {benchlib.scratch_database_name(url)} "
        f"({'KEPT at the end (--keep-db)' if args.keep_db else 'dropped at the end'})"
    )
    ok = True
    with stopwatch("migrations"):
        call_command("migrate", verbosity=0)
    with stopwatch(f"building {args.players} players and {args.games:,} games (COPY)"):
        league, organiser, players, seasons, participant_count = build_league(
            players_count=args.players, games_count=args.games, years=args.years, seed=args.seed
        )
    print(
        f"  {Game.objects.count():,} games, {participant_count:,} participants, "
        f"{len(seasons)} seasons"
    )

    # 1. Full rebuild.
    start = time.perf_counter()
    report = result_services.ratings_rebuild(league=league)
    rebuild_s = time.perf_counter() - start
    print(
        f"  full rebuild {rebuild_s:.1f} s: {report.games_rated:,} games rated, "
        f"{report.players} players, zero-sum {'OK' if report.zero_sum else 'VIOLATED'} "
        f"(max per game {report.max_game_imbalance:.1e}, total {report.total_imbalance:.1e})"
    )
    ok &= report.zero_sum
    # A rebuild rewrites every participant row; let the dead rows go before timing reads.
    vacuum_analyze()

    rng = random.Random(args.seed + 1)
    today = timezone.localdate()

    # 2. Games logged today. With no time of day they sort first on their day and among
    # themselves by content key, so a new one often lands before an earlier one of today and
    # replays today's games (rebuild_from); that is measured separately, and first, because a
    # game with a time sorts after every untimed game of the day.
    untimed_s, untimed_paths = time_logged_games(
        league=league,
        organiser=organiser,
        players=players,
        rng=rng,
        dates_and_times=[(today, None)] * args.untimed,
    )
    # Increasing times of day: each game comes after every other game, the incremental path.
    morning = dt.datetime.combine(today, dt.time(0, 0))
    timed = [
        (today, (morning + dt.timedelta(seconds=20 * (i + 1))).time()) for i in range(args.logged)
    ]
    logged_s, logged_paths = time_logged_games(
        league=league, organiser=organiser, players=players, rng=rng, dates_and_times=timed
    )
    print(f"  logged today with increasing times: paths {logged_paths}")
    print(f"  logged today with no time:          paths {untimed_paths}")
    figures: dict[str, Any] = {"full_rebuild_s": rebuild_s}
    for name, samples in (("logged", logged_s), ("untimed", untimed_s)):
        if samples:
            stats = summary_ms(samples)
            for statistic in ("median", "p95", "max"):
                figures[f"{name}_{statistic}_ms"] = stats[statistic]

    # 3. Backdated games: the rating pass replays every game from their date.
    for days in backdated_days(args.years):
        played_on = today - dt.timedelta(days=days)
        replayed = Game.objects.filter(league=league, played_on__gte=played_on).count()
        seconds, _ = time_logged_games(
            league=league,
            organiser=organiser,
            players=players,
            rng=rng,
            dates_and_times=[(played_on, None)],
        )
        figures[f"backdated_{days}d_ms"] = seconds[0] * 1000
        figures[f"backdated_{days}d_games"] = replayed + 1

    # The backdated and logged games must leave the ratings exactly as a rebuild would.
    def standing_rows() -> list[tuple]:
        return sorted(
            PlayerRating.objects.filter(league=league).values_list(
                "player_id",
                "rating",
                "games_played",
                "rated_games",
                "wins",
                "placement_sum",
                "trend",
                "last_played_on",
            )
        )

    before = dict(Participant.objects.filter(game__league=league).values_list("id", "rating_after"))
    standings_before = standing_rows()
    report_after = result_services.ratings_rebuild(league=league)
    after = dict(Participant.objects.filter(game__league=league).values_list("id", "rating_after"))
    drift = max(abs((before[k] or 0.0) - (after[k] or 0.0)) for k in after)
    same_standings = standings_before == standing_rows()
    print(
        f"  incremental vs full rebuild: largest rating difference {drift:.1e}, standings "
        f"{'identical' if same_standings else 'DIFFERENT'} "
        f"(zero-sum {'OK' if report_after.zero_sum else 'VIOLATED'})"
    )
    ok &= drift <= 1e-6 and same_standings and report_after.zero_sum
    vacuum_analyze()

    # 4. Reads through the HTTP stack, as an anonymous visitor of a public league.
    client = Client()
    standings_url = f"/api/leagues/{league.pk}/standings/"
    season = seasons[max(y for y in seasons if y < today.year)]  # the last full season
    season_url = f"{standings_url}?season={season.pk}"
    player_ids = [p.pk for p in players]

    def history_url(index: int) -> str:
        return f"/api/players/{player_ids[index % len(player_ids)]}/ratings/?league={league.pk}"

    def full_history_url(index: int) -> str:
        return history_url(index) + "&limit=1000"

    reads = {
        "standings": lambda _: standings_url,
        "history_page": history_url,
        "history_1000": full_history_url,
        "season_standings": lambda _: season_url,
    }
    for key, _, share in READS:
        urls = reads[key]
        seconds = time_requests(client, urls, max(1, args.requests // share))
        stats = summary_ms(seconds)
        for statistic in ("median", "p95", "max"):
            figures[f"{key}_{statistic}_ms"] = stats[statistic]
        figures[f"{key}_queries"] = queries_for(client, urls(0))

    for name, paths in (("logged", logged_paths), ("untimed", untimed_paths)):
        for path, count in paths.items():
            figures[f"{name}_paths_{path}"] = count
    figures["checks_ok"] = int(ok)
    return figures


def report(args: argparse.Namespace, figures: dict[str, Any]) -> int:
    """The table of one run's figures; 1 when a correctness check failed."""

    def verdict(value: float, target: float, unit: str) -> str:
        return f"target < {target:g} {unit}: {'met' if value < target else 'MISSED'}"

    def stats(name: str, n: int) -> tuple[int, float, float, float]:
        return (
            n,
            figures[f"{name}_median_ms"],
            figures[f"{name}_p95_ms"],
            figures[f"{name}_max_ms"],
        )

    rebuild_s = figures["full_rebuild_s"]
    print()
    print(f"{'figure':<44} {'n':>5} {'median':>10} {'p95':>10} {'max':>10}")
    print("-" * 82)
    print(
        f"{'full rebuild (s)':<44} {1:>5} {rebuild_s:>10.2f} {'':>10} {'':>10}  "
        f"{verdict(rebuild_s, TARGET_REBUILD_S, 's')}"
    )
    n, median, p95, most = stats("logged", args.logged)
    print(
        f"{'game logged, after every game (ms)':<44} {n:>5} {median:>10.1f} "
        f"{p95:>10.1f} {most:>10.1f}  "
        f"{verdict(p95, TARGET_LOGGED_MS, 'ms')} (p95)"
    )
    if "untimed_median_ms" in figures:
        n, median, p95, most = stats("untimed", args.untimed)
        print(
            f"{'game logged today, no time of day (ms)':<44} {n:>5} "
            f"{median:>10.1f} {p95:>10.1f} {most:>10.1f}"
        )
    for days in backdated_days(args.years):
        replayed = figures[f"backdated_{days}d_games"]
        name = f"backdated {days} days back, {replayed:,} games (ms)"
        print(f"{name:<44} {1:>5} {figures[f'backdated_{days}d_ms']:>10.1f}")
    for key, label, share in READS:
        n, median, p95, most = stats(key, max(1, args.requests // share))
        name = f"GET {label} (ms, {figures[f'{key}_queries']} queries)"
        line = f"{name:<44} {n:>5} {median:>10.1f} {p95:>10.1f} {most:>10.1f}"
        if key == "standings":
            line += f"  {verdict(p95, TARGET_STANDINGS_P95_MS, 'ms')} (p95)"
        print(line)
    print("-" * 82)
    print("Wall-clock times on a shared machine: other processes add noise, mostly to p95 and max.")
    if not figures["checks_ok"]:
        print("bench_league: a correctness check failed (see above).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
