"""Results posted to one league at the same moment: none lost, none rated twice."""

import datetime as dt
import threading

import pytest
from django.db import connection

from league.models import Game, PlayerRating
from league.results import services as result_services
from tests.league.conftest import cat_lady_table


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_never_lose_or_double_a_rating_update(league, players, users):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL: run it through bin/test")
    cast = [players[k] for k in ("olive", "mia", "ned", "pat")]
    barrier = threading.Barrier(8)
    errors = []

    def post(index: int) -> None:
        from django.db import connections

        try:
            table = [(cast[(index + i) % 4], 40 - 7 * i, 5 - i) for i in range(3)]
            barrier.wait(timeout=30)
            # Half of them are backdated, so rebuilds race with incremental updates.
            result_services.game_record(
                league=league,
                logged_by=users["olive"],
                played_on=dt.date(2026, 3, 10) - dt.timedelta(days=index if index % 2 else 0),
                participants=cat_lady_table(*table),
            )
        except Exception as exc:  # reported below: a thread's failure must fail the test
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert Game.objects.filter(league=league).count() == 8
    concurrent = {r.player_id: r.rating for r in PlayerRating.objects.filter(league=league)}
    assert sum(concurrent.values()) == pytest.approx(1500 * len(concurrent))
    report = result_services.ratings_rebuild(league=league)
    rebuilt = {r.player_id: r.rating for r in PlayerRating.objects.filter(league=league)}
    assert report.zero_sum
    assert rebuilt == pytest.approx(concurrent, abs=1e-9)
    assert sum(r.games_played for r in PlayerRating.objects.filter(league=league)) == 8 * 3
