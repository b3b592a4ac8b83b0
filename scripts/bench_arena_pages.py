#!/usr/bin/env python
"""Benchmark the arena's pages: render time of every page type over a large arena.

Builds, in a database of its own (created here and dropped at the end, also after an error or
Ctrl-C, unless --keep-db): 300 bots by 60 owners, each with one to three versions, on the three
Cat Lady ladders; 100,000 finished ladder matches over a year with their seats and rating
changes; 20 Swiss tournaments with a final table. The newest 2,000 matches carry real match
logs (played by the runner with house bots, 2 to 4 seats); older ones keep their seats and
ratings but no log. Then every arena page is requested through the real HTTP stack
(django.test.Client) and timed:

    .venv/bin/python scripts/bench_arena_pages.py              # the full size, a few minutes
    .venv/bin/python scripts/bench_arena_pages.py --matches 5000 --requests 10   # a smoke run

DATABASE_URL names the server and the scratch database (default
postgres://postgres@127.0.0.1:5432/catleague_bench_arena). The database is DROPPED and
re-created, so its name must contain "bench". Each page must render in under 300 ms at the
95th percentile; the replay page of a 4-player match is reported with its size and the time
the replay builder takes on its own (its first view, with the replay cache cleared, and a
later one). Timings are wall-clock and noisy on a shared machine.

    .venv/bin/python scripts/bench_arena_pages.py --baseline 6375dd5 --rounds 3
    .venv/bin/python scripts/bench_arena_pages.py --matches 5000 --requests 10 --baseline 6375dd5 --rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `arena`, `config`, `engine`...; scripts/benchlib.py), then prints the medians of every
figure, the speed-ups and the machine. The baseline builds its arena in a database of its
own: the DATABASE_URL name with `_base_` and the baseline commit appended. Every run builds its
arena afresh; the comparison drops both databases when it ends, however it ends, unless
--keep-db. 6375dd5 (main when the engine work began) is the baseline for the README.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import benchdjango  # noqa: E402
import benchlib  # noqa: E402
from bench_league import percentile, stopwatch  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/catleague_bench_arena"
TARGET_P95_MS = 300.0


# --- building the arena ---------------------------------------------------------------------


def _copy(model: Any, columns: list[str], rows: list[tuple[Any, ...]]) -> None:
    """COPY ``rows`` into ``model``'s table. A NOT NULL column that ``columns`` does not name and
    that has only Django's default (``Match.dispatch`` and ``Match.infra_failure``, since
    d9f19e8) gets that default, so the same loader fills the tables of older and newer
    revisions."""
    from django.db import connection
    from django.db.models import NOT_PROVIDED

    missing = [
        field
        for field in model._meta.concrete_fields
        if field.column not in columns
        and not field.null
        and field.db_default is NOT_PROVIDED
        and field.get_default() is not None
    ]
    defaults = tuple(field.get_db_prep_save(field.get_default(), connection) for field in missing)
    with connection.cursor() as cursor:
        statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
            sql.Identifier(model._meta.db_table),
            sql.SQL(", ").join(sql.Identifier(c) for c in [*columns, *(f.column for f in missing)]),
        )
        with cursor.cursor.copy(statement) as copy:
            for row in rows:
                copy.write_row((*row, *defaults))


def _reset_sequences(*models: Any) -> None:
    from django.core.management.color import no_style
    from django.db import connection

    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), list(models)):
            cursor.execute(statement)


def sample_logs(count: int, seed: int) -> dict[int, list[dict[str, Any]]]:
    """Real match logs by player count, played by the runner with house bots."""
    from arena.runner import run_match

    rng = random.Random(seed)
    logs: dict[int, list[dict[str, Any]]] = {2: [], 3: [], 4: []}
    for players in (2, 3, 4):
        for _ in range(count):
            bots = [rng.choice(["random", "greedy"]) for _ in range(players)]
            logs[players].append(run_match(seed=rng.randrange(2**31), bots=bots))
    return logs


def build_arena(*, bots: int, owners: int, matches: int, logged: int, tournaments: int, seed: int):
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from arena.common import default_limits
    from arena.ladders.services import ladders_ensure
    from arena.models import Bot, BotVersion, LadderEntry, Match, MatchSeat, Tournament

    rng = random.Random(seed)
    User = get_user_model()
    users = [User(username=f"owner{i:03d}") for i in range(owners)]
    for user in users:
        user.set_unusable_password()
    users = User.objects.bulk_create(users)
    ladders = {ladder.players: ladder for ladder in ladders_ensure()}
    source = (benchlib.tree_root() / "arena" / "botkit" / "starter_bot.py").read_text()
    now = timezone.now()
    start = now - dt.timedelta(days=365)

    with transaction.atomic():
        bot_rows = Bot.objects.bulk_create(
            Bot(owner=users[i % owners], name=f"bench-bot-{i:04d}", description="benchmark bot")
            for i in range(bots)
        )
        versions: list[BotVersion] = []
        for bot in bot_rows:
            count = rng.choice((1, 1, 2, 3))
            for number in range(1, count + 1):
                versions.append(
                    BotVersion(
                        bot=bot,
                        number=number,
                        source=source + f"\n# v{number}\n",
                        sha256=f"{bot.pk:032x}{number:032x}",
                        size=len(source),
                        author=bot.owner,
                        status="active" if number == count else "retired",
                    )
                )
        versions = BotVersion.objects.bulk_create(versions)
        active = [v for v in versions if v.status == "active"]
        for version in active:
            Bot.objects.filter(pk=version.bot_id).update(active_version=version)
        entries = {
            (players, v.pk): LadderEntry(ladder=ladder, version=v, seat_record={})
            for players, ladder in ladders.items()
            for v in active
        }

        logs = sample_logs(max(1, logged // 60), seed)
        match_rows, seat_rows = [], []
        seat_id = 0
        times = sorted(
            start + dt.timedelta(seconds=rng.uniform(0, 365 * 86400)) for _ in range(matches)
        )
        for match_id, finished in enumerate(times, start=1):
            players = rng.choice((2, 3, 4))
            ladder = ladders[players]
            table = rng.sample(active, players)
            ranks = list(range(1, players + 1))
            rng.shuffle(ranks)
            log = None
            if match_id > matches - logged:
                log = rng.choice(logs[players])
            match_rows.append(
                (
                    match_id,
                    "ladder",
                    "finished",
                    "cat-lady",
                    "1",
                    rng.randrange(2**31),
                    ladder.pk,
                    None,
                    None,
                    f"set{match_id // players}",
                    None,
                    "bwrap",
                    json.dumps(default_limits()),
                    1,
                    "",
                    json.dumps(log) if log else None,
                    "{}",  # base game: no options beyond the player count
                    finished,
                    finished,
                    finished,
                )
            )
            for seat, (version, rank) in enumerate(zip(table, ranks, strict=True)):
                entry = entries[(players, version.pk)]
                before = entry.rating
                expected = 0.5
                actual = (players - rank) / (players - 1)
                entry.rating = before + ladder.k_factor * (actual - expected)
                entry.games += 1
                entry.wins += int(rank == 1)
                games, wins = entry.seat_record.get(str(seat), [0, 0])
                entry.seat_record[str(seat)] = [games + 1, wins + int(rank == 1)]
                seat_id += 1
                seat_rows.append(
                    (
                        seat_id,
                        match_id,
                        seat,
                        version.pk,
                        "",
                        rng.randint(5, 45),
                        rank,
                        0,
                        False,
                        before,
                        entry.rating,
                    )
                )
        _copy(
            Match,
            [
                "id",
                "kind",
                "status",
                "game",
                "engine_version",
                "seed",
                "ladder_id",
                "tournament_id",
                "tournament_round",
                "duplicate_set",
                "requested_by_id",
                "sandbox_mode",
                "limits",
                "attempts",
                "failure",
                "log",
                "options",
                "created_at",
                "started_at",
                "finished_at",
            ],
            match_rows,
        )
        _copy(
            MatchSeat,
            [
                "id",
                "match_id",
                "seat",
                "version_id",
                "builtin",
                "score",
                "rank",
                "faults",
                "forfeited",
                "rating_before",
                "rating_after",
            ],
            seat_rows,
        )
        LadderEntry.objects.bulk_create(entries.values(), batch_size=2000)
        _reset_sequences(Match, MatchSeat)

        # Tournaments: Swiss, 8 entrants, 3 rounds of 2-player tables, final of 4.
        next_match = matches
        for number in range(tournaments):
            entrants = rng.sample(active, 8)
            tournament = Tournament.objects.create(
                name=f"Bench Cup {number + 1}",
                organiser=users[0],
                format="swiss",
                table_size=2,
                rounds=3,
                final_size=4,
                current_round=4,
                seed=number,
                status="finished",
            )
            tournament.entrants.set(entrants)
            for round_number in range(1, 5):
                tables = (
                    [entrants[:4]]
                    if round_number == 4
                    else [entrants[i : i + 2] for i in range(0, 8, 2)]
                )
                for table in tables:
                    for shift in range(len(table)):
                        next_match += 1
                        match = Match.objects.create(
                            kind="tournament",
                            status="finished",
                            seed=number,
                            tournament=tournament,
                            tournament_round=round_number,
                            finished_at=now,
                        )
                        ranks = list(range(1, len(table) + 1))
                        rng.shuffle(ranks)
                        rotated = table[shift:] + table[:shift]
                        MatchSeat.objects.bulk_create(
                            MatchSeat(
                                match=match, seat=s, version=v, rank=r, score=rng.randint(5, 40)
                            )
                            for s, (v, r) in enumerate(zip(rotated, ranks, strict=True))
                        )
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return {"users": users, "ladders": ladders, "active": active, "bots": bot_rows}


# --- timing ----------------------------------------------------------------------------------


def time_page(client: Any, url: str, requests: int, *, cold: bool = False) -> dict[str, float]:
    """Request ``url`` and time it; ``cold`` clears the cache first (the replay's first view)."""
    from django.core.cache import cache

    client.get(url)  # warm: template loading, first query plans
    samples = []
    size = 0
    for _ in range(requests):
        if cold:
            cache.clear()
        begun = time.perf_counter()
        response = client.get(url)
        samples.append((time.perf_counter() - begun) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}")
        size = len(response.content)
    return {
        "median": statistics.median(samples),
        "p95": percentile(samples, 0.95),
        "max": max(samples),
        "kb": size / 1024,
    }


def run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    from django.core.management import call_command
    from django.db.models import Count
    from django.test import Client

    from arena.models import Bot, Match, Tournament
    from arena.replay import build_replay

    print(f"Catleague arena pages benchmark, {dt.datetime.now():%Y-%m-%d %H:%M}")
    print(
        f"  python {platform.python_version()}, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, database {benchlib.scratch_database_name(url)}"
    )
    with stopwatch("migrations"):
        call_command("migrate", verbosity=0)
    with stopwatch(
        f"building {args.bots} bots and {args.matches:,} matches ({args.logged:,} with logs)"
    ):
        built = build_arena(
            bots=args.bots,
            owners=args.owners,
            matches=args.matches,
            logged=args.logged,
            tournaments=args.tournaments,
            seed=args.seed,
        )
    print(
        f"  {Match.objects.count():,} matches, "
        f"{Match.objects.aggregate(n=Count('seats'))['n']:,} seats"
    )

    top = (
        Bot.objects.filter(active_version__ladder_entries__ladder__players=4)
        .order_by("-active_version__ladder_entries__games")
        .first()
    )
    replay_match = (
        Match.objects.filter(log__isnull=False, ladder__players=4).order_by("-id").first()
    )
    owner = Client()
    owner.force_login(top.owner)
    visitor = Client()
    match_url = f"/arena/matches/{replay_match.pk}/"
    # (figure key, client, url, cache cleared first); the labels are in PAGES.
    pages = [
        ("arena_home", visitor, "/arena/", False),
        *(
            (f"ladder_{n}p", visitor, f"/arena/ladders/{built['ladders'][n].pk}/", False)
            for n in (2, 3, 4)
        ),
        ("bot_visitor", visitor, f"/arena/bots/{top.name}/", False),
        ("bot_owner", owner, f"/arena/bots/{top.name}/", False),
        ("version_source", owner, f"/arena/bots/{top.name}/v1/source/", False),
        ("new_bot_form", owner, "/arena/bots/new/", False),
        ("matches_p1", visitor, "/arena/matches/", False),
        ("matches_p500", visitor, "/arena/matches/?page=500", False),
        ("tournament", visitor, f"/arena/tournaments/{Tournament.objects.first().pk}/", False),
        ("replay_first_view", visitor, match_url, True),
        ("replay_cached", visitor, match_url, False),
    ]
    print(
        f"\n  {'page':28} {'median':>8} {'p95':>8} {'max':>8} {'size':>8}   "
        f"(ms over {args.requests} requests)"
    )
    figures: dict[str, Any] = {}
    for key, client, page_url, cold in pages:
        page = time_page(client, page_url, args.requests, cold=cold)
        passed = page["p95"] < TARGET_P95_MS
        for name in ("median", "p95", "max"):
            figures[f"{key}_{name}_ms"] = page[name]
        figures[f"{key}_kb"] = page["kb"]
        print(
            f"  {PAGES[key]:28} {page['median']:8.1f} {page['p95']:8.1f} {page['max']:8.1f} "
            f"{page['kb']:6.0f} KB  {'ok' if passed else 'OVER ' + str(TARGET_P95_MS)}"
        )

    builds = []
    for _ in range(args.requests):
        begun = time.perf_counter()
        replay = build_replay(replay_match.log)
        builds.append((time.perf_counter() - begun) * 1000)
    figures["replay_moves"] = len(replay["moves"])
    figures["replay_frames"] = len(replay["frames"])
    figures["replay_builder_median_ms"] = statistics.median(builds)
    figures["replay_builder_p95_ms"] = percentile(builds, 0.95)
    figures["replay_json_kb"] = len(json.dumps(replay)) / 1024
    return figures


# Each page's figure key and its label in the table, in the table's order.
PAGES = {
    "arena_home": "arena home",
    **{f"ladder_{n}p": f"ladder, {n} players" for n in (2, 3, 4)},
    "bot_visitor": "bot page (visitor)",
    "bot_owner": "bot page (owner)",
    "version_source": "version source (owner)",
    "new_bot_form": "new bot form",
    "matches_p1": "matches, page 1",
    "matches_p500": "matches, page 500",
    "tournament": "tournament",
    "replay_first_view": "match + replay, 4p, 1st view",
    "replay_cached": "match + replay, 4p, cached",
}


def report(args: argparse.Namespace, figures: dict[str, Any]) -> int:
    """The replay builder's figures and the verdict; 1 when a page's p95 is over the target."""
    ok = all(figures[f"{key}_p95_ms"] < TARGET_P95_MS for key in PAGES)
    print(
        f"\n  replay builder alone, 4 players, {figures['replay_moves']} moves, "
        f"{figures['replay_frames']} frames: median {figures['replay_builder_median_ms']:.1f} ms, "
        f"p95 {figures['replay_builder_p95_ms']:.1f} ms; embedded JSON "
        f"{figures['replay_json_kb']:.0f} KB"
    )
    print(
        f"\n  target: every page under {TARGET_P95_MS:.0f} ms at p95: {'met' if ok else 'MISSED'}"
    )
    return 0 if ok else 1


def kind(key: str) -> str:
    """Times in ms are compared (smaller is better); sizes and counts are counts."""
    return "time" if key.endswith("_ms") else "count"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bots", type=int, default=300)
    parser.add_argument("--owners", type=int, default=60)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--logged", type=int, default=2000, help="Newest matches with a log")
    parser.add_argument("--tournaments", type=int, default=20)
    parser.add_argument("--requests", type=int, default=30, help="Requests per page")
    parser.add_argument("--seed", type=int, default=2024)
    return benchdjango.main_on_scratch_django(
        __file__, parser, default_url=DEFAULT_URL, run=run, report=report, describe=kind
    )


if __name__ == "__main__":
    sys.exit(main())
