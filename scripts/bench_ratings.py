#!/usr/bin/env python
"""Elo against OpenSkill: rebuild time, and how well each predicts the next game's order.

Runs on the demo league (league/demo.py, 40 games) and on the benchmark league of
scripts/bench_league.py (500 players, 100,000 Cat Lady games loaded with COPY), in a scratch
database of its own (created here and dropped at the end, also after an error or Ctrl-C,
unless --keep-db):

    .venv/bin/python scripts/bench_ratings.py                 # the full size, several minutes
    .venv/bin/python scripts/bench_ratings.py --games 5000    # a smoke run

For each league and rating system it prints

- the full rebuild through `league.results.services.ratings_rebuild` (database included), and the rating
  maths alone over the same games in memory;
- the prediction figures: before each rated game, order its players by the rating shown on
  the standings just before it (Elo rating, or OpenSkill's μ − 3σ; for OpenSkill also by μ);
  compare with the ranks they finished in. Pairwise accuracy is the share of pairs with
  different ranks whose order the ratings got right (a rating tie counts half); Kendall's tau
  is (right − wrong) / pairs over those pairs. Both are averaged over games, and also over
  the games in which every player had at least 10 earlier rated games ("settled").

The benchmark and demo leagues' results are random (each score is drawn alone), so no system
can predict them: their figures should sit near 0.5 and 0, and they time the code at size. A
third league, "skilled" (60 players, 5,000 games by default), gives every player a hidden
skill that moves their VP (28 + 5 × skill + luck of σ 6), so a rating system has something to
find; it is the one whose prediction figures compare the systems. Its "hidden skill" line
orders players by the skills themselves: the ceiling that luck leaves any rating.

BENCH_DATABASE_URL names the server and the scratch database (default
postgres://postgres@127.0.0.1:5432/catleague_ratings_bench); its name must contain "bench".

    .venv/bin/python scripts/bench_ratings.py --baseline 0710452 --baseline-rounds 3
    .venv/bin/python scripts/bench_ratings.py --games 5000 --skilled-games 1000 --baseline 0710452 --baseline-rounds 1

``--baseline REV`` checks REV out into a temporary git worktree and alternates runs of the
baseline and the current code (each a subprocess working in its own tree, importing that
tree's `league`, `ratings`, `config`...; scripts/benchlib.py), then prints the medians of
every figure and the machine: the rebuild and maths times get ratios, the prediction figures
are counts (they are not speed). ``--baseline-rounds N`` is the number of runs of each (this
script's own ``--rounds`` stays the rebuilds per system within a run). The baseline uses a
database of its own: the BENCH_DATABASE_URL name with `_base_` and the baseline commit
appended. Every run builds its leagues afresh; the comparison drops both databases when it
ends, however it ends, unless --keep-db. The baseline can be no older than 0710452, this
script's first commit: OpenSkill (`league.rating_systems`) arrived in 151df3f, and before
0710452 `bgstats_uuid` had no database default, so the bulk load of `bench_league` fails;
6375dd5, main when the engine work began, has neither.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import bench_league  # noqa: E402  (scripts/ is not a package)
import benchdjango  # noqa: E402
import benchlib  # noqa: E402

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/catleague_ratings_bench"
SETTLED_GAMES = 10


@dataclass
class Prediction:
    games: int = 0
    accuracy: float = 0.0
    tau: float = 0.0
    settled_games: int = 0
    settled_accuracy: float = 0.0
    settled_tau: float = 0.0

    def add(self, accuracy: float, tau: float, settled: bool) -> None:
        self.games += 1
        self.accuracy += accuracy
        self.tau += tau
        if settled:
            self.settled_games += 1
            self.settled_accuracy += accuracy
            self.settled_tau += tau

    def means(self) -> tuple[float, float, float, float]:
        def mean(total: float, n: int) -> float:
            return total / n if n else float("nan")

        return (
            mean(self.accuracy, self.games),
            mean(self.tau, self.games),
            mean(self.settled_accuracy, self.settled_games),
            mean(self.settled_tau, self.settled_games),
        )


def pair_scores(predicted: list[float], ranks: list[int]) -> tuple[float, float] | None:
    """(pairwise accuracy, Kendall's tau) of one game, over pairs with different ranks.

    >>> pair_scores([1600.0, 1500.0, 1400.0], [1, 3, 2])
    (0.6666666666666666, 0.3333333333333333)
    """
    right = wrong = level = 0
    for i in range(len(ranks)):
        for j in range(i + 1, len(ranks)):
            if ranks[i] == ranks[j]:
                continue
            better_finish = i if ranks[i] < ranks[j] else j
            other = j if better_finish == i else i
            if predicted[better_finish] > predicted[other]:
                right += 1
            elif predicted[better_finish] < predicted[other]:
                wrong += 1
            else:
                level += 1
    pairs = right + wrong + level
    if not pairs:
        return None
    return (right + level / 2) / pairs, (right - wrong) / pairs


def tables(league):
    """Every rated game's participants in play order: [(player, rank, rating before, μ before)]."""
    from league.models import Participant, play_order

    rows = (
        Participant.objects.filter(game__league=league, game__rated=True)
        .order_by(*play_order(through="game__"), "seat")
        .values_list("game_id", "player_id", "rank", "rating_before", "mu_before")
        .iterator(chunk_size=20_000)
    )
    current, table = None, []
    for game_id, player_id, rank, rating, mu in rows:
        if game_id != current and table:
            yield table
            table = []
        current = game_id
        table.append((player_id, rank, rating, mu))
    if table:
        yield table


def predictions(league, system_key: str) -> dict[str, Prediction]:
    from league.rating_systems import OPENSKILL

    figures = {"rating shown": Prediction()}
    if system_key == OPENSKILL:
        figures["μ alone"] = Prediction()
    seen: dict[int, int] = defaultdict(int)
    for table in tables(league):
        if len(table) < 2 or any(rating is None for _, _, rating, _ in table):
            continue
        ranks = [rank for _, rank, _, _ in table]
        settled = all(seen[player] >= SETTLED_GAMES for player, _, _, _ in table)
        shown = pair_scores([rating for _, _, rating, _ in table], ranks)
        if shown is not None:
            figures["rating shown"].add(*shown, settled)
            if "μ alone" in figures:
                by_mu = pair_scores([mu for _, _, _, mu in table], ranks)
                assert by_mu is not None
                figures["μ alone"].add(*by_mu, settled)
        for player, _, _, _ in table:
            seen[player] += 1
    return figures


def maths_only(league, system_key: str) -> float:
    """Seconds for the rating maths alone over the league's games, in memory."""
    from league.rating_systems import system_for

    system = system_for(system_key, k_factor=league.k_factor, initial_rating=league.initial_rating)
    games = [[(player, rank) for player, rank, _, _ in table] for table in tables(league)]
    skills: dict[int, object] = {}
    start = time.perf_counter()
    for table in games:
        if len(table) < 2:
            continue
        changes = system.rate(
            [(player, skills.get(player) or system.initial(), rank) for player, rank in table]
        )
        for change in changes:
            skills[change.player_id] = change.after
    return time.perf_counter() - start


def build_skilled_league(*, players_count: int, games_count: int, seed: int):
    """A league whose results follow each player's hidden skill (plus luck), so that a rating
    system has something to predict. Recorded through `league.results.services.games_import`."""
    import datetime as dt
    import random

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from league.clubs import services
    from league.models import Membership, Player
    from league.results import checks
    from league.results import services as result_services

    rng = random.Random(seed)
    organiser = get_user_model().objects.create_user("skill-organiser", password=None)
    league = services.league_create(
        name="Skilled Club", slug="skilled-club", game="cat-lady", by=organiser
    )
    players = Player.objects.bulk_create(
        Player(name=f"Skilled player {index:03d}") for index in range(players_count)
    )
    Membership.objects.bulk_create(Membership(league=league, player=p) for p in players)
    skill = {p.pk: rng.gauss(0.0, 1.0) for p in players}
    first_day = timezone.localdate() - dt.timedelta(days=730)
    games = []
    for index in range(games_count):
        table = rng.sample(players, rng.choice((2, 3, 3, 4)))
        fed = rng.sample(range(12), len(table))  # distinct: a VP tie is always broken
        games.append(
            result_services.GameInput(
                played_on=first_day + dt.timedelta(days=index * 730 // games_count),
                edition="base",
                participants=[
                    checks.ParticipantInput(
                        player_id=p.pk,
                        seat=seat,
                        result={
                            "total_vp": round(28 + 5 * skill[p.pk] + rng.gauss(0.0, 6.0)),
                            "fed_cats": f,
                        },
                    )
                    for seat, (p, f) in enumerate(zip(table, fed, strict=True), start=1)
                ],
            )
        )
    result_services.games_import(league=league, games=games, logged_by=organiser)
    return league, skill


def ceiling(label: str, league, skill: dict[int, float]) -> tuple:
    """The same figures for the order of the hidden skills: the best any rating could do."""
    figures = Prediction()
    seen: dict[int, int] = defaultdict(int)
    for table in tables(league):
        ranks = [rank for _, rank, _, _ in table]
        scores = pair_scores([skill[player] for player, _, _, _ in table], ranks)
        if scores is not None:
            figures.add(*scores, all(seen[p] >= SETTLED_GAMES for p, _, _, _ in table))
        for player, _, _, _ in table:
            seen[player] += 1
    accuracy, tau, settled_accuracy, settled_tau = figures.means()
    return (
        label,
        "-",
        "hidden skill",
        figures.games,
        float("nan"),
        float("nan"),
        accuracy,
        tau,
        figures.settled_games,
        settled_accuracy,
        settled_tau,
    )


def rebuild(league, system_key: str) -> tuple[float, int]:
    from league.models import League
    from league.results import services as result_services

    League.objects.filter(pk=league.pk).update(rating_system=system_key)
    league.refresh_from_db()
    start = time.perf_counter()
    report = result_services.ratings_rebuild(league=league)
    return time.perf_counter() - start, report.games_rated


def measure_league(label: str, league, *, rounds: int) -> list[tuple]:
    """Rebuild under each system `rounds` times, alternating (the first rebuild after a bulk
    load is slower for whichever system goes first); the fastest is reported."""
    from league.rating_systems import ELO, OPENSKILL

    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(rounds - 1):
        for system_key in (ELO, OPENSKILL):
            times[system_key].append(rebuild(league, system_key)[0])
    lines = []
    for system_key in (ELO, OPENSKILL):
        seconds, games_rated = rebuild(league, system_key)
        times[system_key].append(seconds)
        rebuild_s = min(times[system_key])
        maths_s = maths_only(league, system_key)
        for basis, figures in predictions(league, system_key).items():
            accuracy, tau, settled_accuracy, settled_tau = figures.means()
            lines.append(
                (
                    label,
                    system_key,
                    basis,
                    games_rated,
                    rebuild_s,
                    maths_s,
                    accuracy,
                    tau,
                    figures.settled_games,
                    settled_accuracy,
                    settled_tau,
                )
            )
        every = ", ".join(f"{t:.2f}" for t in times[system_key])
        print(f"  {label}, {system_key}: rebuilt in {every} s", flush=True)
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--years", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--rounds", type=int, default=2, help="Rebuilds per system (best kept)")
    parser.add_argument(
        "--skilled-games", type=int, default=5000, help="Games of the league with hidden skills"
    )
    benchlib.add_keep_db_argument(parser)
    benchlib.add_baseline_arguments(parser, rounds_option="--baseline-rounds", default_rounds=3)
    args = parser.parse_args()
    return (
        benchlib.run(
            __file__,
            args,
            measure,
            report,
            kind,
            in_tree=True,
            rounds_option="--baseline-rounds",
            database=database_url,
        )
        or 0
    )


def database_url(tree: str | None) -> str:
    """The scratch database of ``tree`` (None: this repository)."""
    return benchlib.tree_database_url(os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL), tree)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run, in the database of the tree on ``sys.path``."""
    url = database_url(args.tree)
    with benchdjango.scratch_django(url, keep=args.keep_db):
        return run(args)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from django.core.management import call_command

    from league.demo import seed_demo_league

    print("Catleague rating systems: Elo against OpenSkill")
    print(f"machine: {benchlib.machine()}")
    call_command("migrate", verbosity=0)
    print(f"  building the benchmark league: {args.players} players, {args.games:,} games ...")
    # First: it is loaded with explicit ids, from 1.
    league, *_ = bench_league.build_league(
        players_count=args.players, games_count=args.games, years=args.years, seed=args.seed
    )
    lines = measure_league("demo league", seed_demo_league(), rounds=args.rounds)
    print(f"  building the skilled league: {args.skilled_games:,} games ...", flush=True)
    skilled, skill = build_skilled_league(
        players_count=60, games_count=args.skilled_games, seed=args.seed
    )
    skilled_label = f"skilled ({args.skilled_games:,} games)"
    lines += measure_league(skilled_label, skilled, rounds=args.rounds)
    lines.append(ceiling(skilled_label, skilled, skill))
    bench_label = f"bench league ({args.games:,} games)"
    lines += measure_league(bench_label, league, rounds=args.rounds)
    leagues = {"demo league": "demo", skilled_label: "skilled", bench_label: "bench"}
    bases = {"rating shown": "shown", "μ alone": "mu", "hidden skill": "skill"}
    figures: dict[str, Any] = {"lines": lines}
    for label, system, basis, games, rebuild_s, maths_s, acc, tau, n, s_acc, s_tau in lines:
        key = f"{leagues[label]}_{system}" if system != "-" else leagues[label]
        if system != "-":
            figures[f"{key}_games"] = games
            figures[f"{key}_rebuild_s"] = rebuild_s
            figures[f"{key}_maths_s"] = maths_s
        key += f"_{bases[basis]}"
        figures[f"{key}_pair_acc"] = acc
        figures[f"{key}_tau"] = tau
        figures[f"{key}_settled_games"] = n
        figures[f"{key}_settled_pair_acc"] = s_acc
        figures[f"{key}_settled_tau"] = s_tau
    return figures


def kind(key: str) -> str:
    """Rebuild and maths times are compared (smaller is better); the predictions are counts."""
    return "time" if key.endswith("_s") else "count"


def report(args: argparse.Namespace, figures: dict[str, Any]) -> int:
    """The table of one run's lines."""
    print()
    header = (
        f"{'league':<28} {'system':<10} {'ordered by':<13} {'games':>7} {'rebuild s':>10} "
        f"{'maths s':>8} {'pair acc':>9} {'tau':>7} {'settled':>8} {'pair acc':>9} {'tau':>7}"
    )
    print(header)
    print("-" * len(header))
    lines = figures["lines"]
    for label, system, basis, games, rebuild_s, maths_s, acc, tau, n, s_acc, s_tau in lines:
        print(
            f"{label:<28} {system:<10} {basis:<13} {games:>7,} {rebuild_s:>10.2f} "
            f"{maths_s:>8.2f} {acc:>9.3f} {tau:>7.3f} {n:>8,} {s_acc:>9.3f} {s_tau:>7.3f}"
        )
    print("-" * len(header))
    print(f"machine after the runs: {benchlib.machine()}")
    print(
        "pair acc / tau: the rating order before each game against its finishing order (0.5 "
        f"and 0 are chance); settled: games whose players all had {SETTLED_GAMES}+ earlier "
        "rated games. Wall-clock times on a shared machine."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
