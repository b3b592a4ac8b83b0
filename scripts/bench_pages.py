#!/usr/bin/env python
"""Time the league's web pages on the 100,000-game benchmark league (target: < 300 ms each).

    .venv/bin/python scripts/bench_pages.py                 # build the data, time, drop it
    .venv/bin/python scripts/bench_pages.py --keep-db       # keep the data for the next run
    .venv/bin/python scripts/bench_pages.py --requests 20 --keep-db   # reuse it, fewer requests
    .venv/bin/python scripts/bench_pages.py --rebuild --keep-db   # build the kept data again

The data is the league of scripts/bench_league.py (500 players, 100,000 Cat Lady games over four
years, seasons per year), built with its `build_league` and rated by `league.results.services.ratings_rebuild`,
in a PostgreSQL database of its own. BENCH_PAGES_DATABASE_URL names it (default
postgres://postgres@127.0.0.1:5432/catleague_bench_pages); its name must contain "bench". A run
reuses the database when it already holds the league at the requested size, and DROPS it at the
end, also after an error or Ctrl-C, unless --keep-db keeps it for later runs (building takes a
few minutes at the full size). --drop, the old way to ask for the drop, is still accepted.

Each page is requested through Django's test Client (the whole stack: middleware, view, selectors,
template), as a visitor for the public pages and as a league member for the result form, after a
few warm-up requests. It prints the median, p95 and max in milliseconds and the number of SQL
queries per page, and exits 1 when a page's p95 is over the target. Timings are wall-clock on
whatever machine runs this and are noisy on a shared box.

    .venv/bin/python scripts/bench_pages.py --baseline 6375dd5 --rounds 3
    .venv/bin/python scripts/bench_pages.py --games 5000 --requests 10 --baseline 6375dd5 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `league`, `config`...; scripts/benchlib.py), then prints the medians of every figure,
the speed-ups and the machine. The baseline's league lives in a database of its own, the
BENCH_PAGES_DATABASE_URL name with `_base_` and the baseline commit appended. Each tree's
first run builds its league and the later rounds reuse it; when the comparison ends, however it
ends, both databases are DROPPED unless --keep-db keeps them (a later comparison with the same
baseline commit then reuses both). 6375dd5 (main when the engine work began) is the baseline
for the README.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import re
import sys
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_league  # noqa: E402  (the data builder and the statistics helpers)
import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/catleague_bench_pages"
TARGET_MS = 300.0
SLUG = "bench-club"


def _database_exists(url: str) -> bool:
    name = benchlib.scratch_database_name(url)
    with psycopg.connect(benchlib.maintenance_url(url), autocommit=True) as conn:
        return (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            is not None
        )


def _create_database(url: str) -> None:
    name = benchlib.scratch_database_name(url)
    with psycopg.connect(benchlib.maintenance_url(url), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def _existing_league(games: int):
    """The benchmark league if this database already holds it, rated, at the requested size."""
    from django.db.utils import ProgrammingError

    from league.models import Game, League, PlayerRating

    try:
        league = League.objects.filter(slug=SLUG).first()
    except ProgrammingError:  # not migrated yet
        return None
    if league is None:
        return None
    count = Game.objects.filter(league=league).count()
    rated = PlayerRating.objects.filter(league=league).exists()
    if count < games or not rated:
        print(f"  the database holds {count:,} games (rated: {rated}); rebuilding")
        return None
    return league


def _prepare(args: argparse.Namespace, url: str):
    from django.core.management import call_command

    from league.models import Game, League
    from league.results import services as result_services

    with bench_league.stopwatch("migrations"):
        call_command("migrate", verbosity=0)
    league = None if args.rebuild else _existing_league(args.games)
    if league is not None:
        print(f"  reusing {Game.objects.filter(league=league).count():,} games in {SLUG}")
        return league
    if League.objects.exists():
        # Start from an empty database: drop and re-create it, then migrate again.
        from django.db import connections

        connections.close_all()
        benchdjango.recreate_database(url)
        with bench_league.stopwatch("migrations (fresh database)"):
            call_command("migrate", verbosity=0)
    with bench_league.stopwatch(f"building {args.players} players and {args.games:,} games (COPY)"):
        league, *_ = bench_league.build_league(
            players_count=args.players, games_count=args.games, years=args.years, seed=args.seed
        )
    with bench_league.stopwatch("rating every game (league.results.services.ratings_rebuild)"):
        result_services.ratings_rebuild(league=league)
    bench_league.vacuum_analyze()
    return league


def _member_client(league):
    """A logged-in client for a member of the league (one of the benchmark players)."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from league.models import Player

    player = Player.objects.filter(memberships__league=league).order_by("pk").first()
    user = player.user
    if user is None:
        user = get_user_model().objects.create_user(f"bench-member-{player.pk}", password=None)
        player.user = user
        player.save(update_fields=["user"])
    client = Client()
    client.force_login(user)
    return client


def _time(
    client, urls: Callable[[int], str], count: int, *, warm_up: int = 3, post=None, cold=False
) -> list[float]:
    from django.core.cache import cache

    for index in range(warm_up):
        client.get(urls(index)) if post is None else client.post(urls(index), post(index))
    seconds = []
    for index in range(count):
        url = urls(index)
        if cold:
            cache.clear()  # as after any change to the league
        start = time.perf_counter()
        response = client.get(url) if post is None else client.post(url, post(index))
        seconds.append(time.perf_counter() - start)
        if response.status_code != 200:
            raise SystemExit(f"bench_pages: {url} answered {response.status_code}")
    return seconds


def _queries(client, url: str, data=None) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url) if data is None else client.post(url, data)
    return len(captured.captured_queries)


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    from django.test import Client

    from league.models import Game, Participant, Player, PlayerRating, Season

    print(f"Catleague page benchmark, {time.strftime('%Y-%m-%d %H:%M')}")
    print(
        f"  python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, database {benchlib.scratch_database_name(url)}"
    )
    league = _prepare(args, url)
    games = Game.objects.filter(league=league)
    print(
        f"  {games.count():,} games, {Participant.objects.filter(game__league=league).count():,} "
        f"participants, {PlayerRating.objects.filter(league=league).count()} rated players"
    )

    rng = random.Random(args.seed)
    game_ids = list(games.order_by("?").values_list("pk", flat=True)[: args.requests + 10])
    player_ids = list(
        Player.objects.filter(ratings__league=league)
        .order_by("?")
        .values_list("pk", flat=True)[: args.requests + 10]
    )
    # The most recent full season: a year of about 25,000 games.
    seasons = list(Season.objects.filter(league=league).order_by("-starts_on"))
    season = max(seasons, key=lambda s: games.filter(season=s).count())
    season_games = games.filter(season=season).count()
    visitor = Client()
    member = _member_client(league)
    entry = f"/games/new/?league={SLUG}&edition=base&players=4&mode=cards:base"
    totals = f"/games/new/?league={SLUG}&edition=base&players=4&mode=totals"
    member_ids = list(
        Player.objects.filter(memberships__league=league)
        .order_by("pk")
        .values_list("pk", flat=True)[:4]
    )

    def cards_preview(index: int) -> dict:
        # A realistic end of game: each player's few cats and food, scored by the engine.
        hands = [["Bronte", "Bell"], ["Sox", "Zeus"], ["Keaton", "Lily"], ["Pumpkin", "Shadow"]]
        data = {"played_on": time.strftime("%Y-%m-%d"), "action": "preview"}
        for seat, (player_id, cats) in enumerate(zip(member_ids, hands, strict=True), start=1):
            data |= {
                f"seat{seat}-player": player_id,
                f"seat{seat}-seat": seat,
                f"seat{seat}-cats": cats,
                f"seat{seat}-food_tuna": rng.randint(0, 3),
                f"seat{seat}-food_milk": rng.randint(0, 3),
                f"seat{seat}-food_chicken": rng.randint(0, 3),
                f"seat{seat}-costumes": rng.randint(0, 2),
            }
        return data

    # (figure key, url for request i, client, POST data for request i or None, cache cleared
    # first); the labels are in PAGES.
    pages: list[tuple[str, Callable[[int], str], object, object, bool]] = [
        ("home", lambda i: "/", visitor, None, False),
        ("leagues", lambda i: "/leagues/", visitor, None, False),
        ("league_standings", lambda i: f"/leagues/{SLUG}/", visitor, None, False),
        (
            "season_standings",
            lambda i: f"/leagues/{SLUG}/?season={season.pk}",
            visitor,
            None,
            False,
        ),
        (
            "season_standings_cold",
            lambda i: f"/leagues/{SLUG}/?season={season.pk}",
            visitor,
            None,
            True,
        ),
        ("league_games_p200", lambda i: f"/leagues/{SLUG}/?page=200", visitor, None, False),
        (
            "game",
            lambda i: f"/leagues/{SLUG}/games/{game_ids[i % len(game_ids)]}/",
            visitor,
            None,
            False,
        ),
        (
            "player",
            lambda i: f"/players/{player_ids[i % len(player_ids)]}/",
            visitor,
            None,
            False,
        ),
        (
            "player_games_p10",
            lambda i: f"/players/{player_ids[i % len(player_ids)]}/?league={SLUG}&page=10",
            visitor,
            None,
            False,
        ),
        ("form_setup", lambda i: "/games/new/", member, None, False),
        ("form_cards", lambda i: entry, member, None, False),
        ("form_totals", lambda i: totals, member, None, False),
        ("form_preview", lambda i: entry, member, cards_preview, False),
    ]
    figures: dict[str, Any] = {"season_name": season.name, "season_games": season_games}
    labels = page_labels(figures)
    print()
    print(f"  {'page':<52} {'n':>4} {'median':>8} {'p95':>8} {'max':>8} {'queries':>8}")
    for key, urls, client, post, cold in pages:
        seconds = _time(client, urls, args.requests, post=post, cold=cold)
        stats = bench_league.summary_ms(seconds)
        queries = _queries(client, urls(0), post(0) if post else None)
        verdict = "ok" if stats["p95"] < TARGET_MS else "OVER"
        for statistic in ("median", "p95", "max"):
            figures[f"{key}_{statistic}_ms"] = stats[statistic]
        figures[f"{key}_queries"] = queries
        print(
            f"  {labels[key]:<52} {stats['n']:>4} {stats['median']:>6.0f}ms "
            f"{stats['p95']:>6.0f}ms {stats['max']:>6.0f}ms {queries:>8}  {verdict}",
            flush=True,
        )
    return figures


def page_labels(figures: dict[str, Any]) -> dict[str, str]:
    """Each page's figure key and its label in the table, in the table's order."""
    return {
        "home": "home",
        "leagues": "leagues",
        "league_standings": "league standings",
        "season_standings": (
            f"season standings ({figures['season_name']}, {figures['season_games']:,} games)"
        ),
        "season_standings_cold": "season standings, cold (just after a change)",
        "league_games_p200": "league games, page 200",
        "game": "game",
        "player": "player (all leagues)",
        "player_games_p10": "player, games page 10",
        "form_setup": "result form: setup step",
        "form_cards": "result form: Cat Lady cards, 4 players",
        "form_totals": "result form: totals, 4 players",
        "form_preview": "result form: preview scored by the engine",
    }


def report(args: argparse.Namespace, figures: dict[str, Any]) -> int:
    """The verdict (and the Markdown table) after the rows; 1 when a p95 is over the target."""
    labels = page_labels(figures)
    ok = all(figures[f"{key}_p95_ms"] < TARGET_MS for key in labels)
    print()
    print(f"  target: p95 < {TARGET_MS:.0f} ms per page: {'met' if ok else 'NOT met'}")
    if args.markdown:
        print()
        print("| Page | n | Median | p95 | Max | Queries |")
        print("|---|---:|---:|---:|---:|---:|")
        for key, label in labels.items():
            print(
                f"| {label} | {args.requests} | {figures[f'{key}_median_ms']:.0f} ms | "
                f"{figures[f'{key}_p95_ms']:.0f} ms | {figures[f'{key}_max_ms']:.0f} ms | "
                f"{figures[f'{key}_queries']} |"
            )
    return 0 if ok else 1


def kind(key: str) -> str:
    """Times in ms are compared (smaller is better); queries and game counts are counts."""
    return "time" if key.endswith("_ms") else "count"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--years", type=int, default=4)
    parser.add_argument("--requests", type=int, default=50, help="Timed requests per page")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rebuild", action="store_true", help="Build the data again")
    benchlib.add_keep_db_argument(parser)
    # What --drop asked for is now the default: it is accepted for old command lines and does
    # nothing (--keep-db decides).
    parser.add_argument("--drop", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--markdown", action="store_true", help="Also print a Markdown table")
    benchlib.add_baseline_arguments(parser, default_rounds=3)
    args = parser.parse_args()
    return (
        benchlib.run(__file__, args, measure, report, kind, in_tree=True, database=database_url)
        or 0
    )


def database_url(tree: str | None) -> str:
    """The scratch database of ``tree`` (None: this repository)."""
    url = os.environ.get("BENCH_PAGES_DATABASE_URL", DEFAULT_URL)
    if not re.search(r"bench", urllib.parse.urlsplit(url).path):
        sys.exit("bench_pages: the database name must contain 'bench'")
    return benchlib.tree_database_url(url, tree)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run, in the database of the tree on ``sys.path``."""
    url = database_url(args.tree)
    benchlib.scratch_database_name(url)  # refuses protected names
    try:
        if not _database_exists(url):
            _create_database(url)
        benchdjango.setup_django(
            {
                "DATABASE_URL": url,
                "DJANGO_ALLOWED_HOSTS": os.environ.get(
                    "DJANGO_ALLOWED_HOSTS", "testserver,localhost"
                ),
            }
        )
        return run(args, url)
    finally:
        if not args.keep_db:
            benchlib.drop_databases([url])


if __name__ == "__main__":
    sys.exit(main())
