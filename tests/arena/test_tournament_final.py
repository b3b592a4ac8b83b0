"""Tournaments with a final table: the top N after the regular rounds play one deal at every
seat rotation, and that result decides the top places."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from arena.models import Bot, BotVersion, Match, MatchSeat, Tournament
from arena.tournaments.services import (
    tournament_final_table,
    tournament_placings,
    tournament_standings,
    tournament_start,
)
from tests.arena.tournaments import tournament_played

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

# Three bots that play differently, so the tables have a real result.
FIRST = "def choose(observation, legal_actions):\n    return 0\n"
LAST = "def choose(observation, legal_actions):\n    return len(legal_actions) - 1\n"
MIDDLE = "def choose(observation, legal_actions):\n    return len(legal_actions) // 2\n"


def active_versions(authors, *sources):
    versions = []
    for index, source in enumerate(sources):
        bot = Bot.objects.create(owner=authors["ada"], name=f"bot-{index}")
        versions.append(
            BotVersion.objects.create(
                bot=bot,
                number=1,
                source=source,
                sha256=str(index),
                size=len(source),
                status=BotVersion.Status.ACTIVE,
            )
        )
    return versions


def cup(authors, **options) -> dict:
    """Bob's Cup for FIRST, LAST and MIDDLE at tables of two: tournament_start's arguments,
    with ``options`` added."""
    entrants = active_versions(authors, FIRST, LAST, MIDDLE)
    return {
        "name": "Cup",
        "organiser": authors["bob"],
        "entrants": entrants,
        "table_size": 2,
    } | options


def round_robin_cup(authors, capture_on_commit, **options):
    """Bob's Cup played as a round robin (seed 9), with ``options``."""
    return tournament_played(
        capture_on_commit, **cup(authors, format="round_robin", seed=9, **options)
    )


def test_round_robin_with_a_final_table_of_two(authors, django_capture_on_commit_callbacks):
    tournament = round_robin_cup(authors, django_capture_on_commit_callbacks, final_size=2)
    assert tournament.status == Tournament.Status.FINISHED
    assert tournament.current_round == tournament.final_round == 2

    final_matches = list(tournament.matches.filter(tournament_round=2))
    # One deal, played once per seat rotation.
    assert len(final_matches) == 2 and len({m.seed for m in final_matches}) == 1
    assert all(m.status == Match.Status.FINISHED for m in final_matches)

    standings = tournament_standings(tournament)
    assert sum(p for _, p in standings) == pytest.approx(6)  # the final's points are not in it
    finalists = {s.version_id for m in final_matches for s in m.seats.all()}
    assert finalists == {v.pk for v, _ in standings[:2]}

    final = tournament_final_table(tournament)
    assert {v.pk for v, _ in final} == finalists
    assert sum(p for _, p in final) == pytest.approx(2)
    assert [p for _, p in final] == sorted((p for _, p in final), reverse=True)

    placings = tournament_placings(tournament)
    assert [p.place for p in placings] == [1, 2, 3]
    assert [p.version.pk for p in placings[:2]] == [v.pk for v, _ in final]
    assert placings[2].version.pk == standings[2][0].pk and placings[2].final_points is None


def test_no_final_means_the_standings_decide(authors, django_capture_on_commit_callbacks):
    tournament = round_robin_cup(authors, django_capture_on_commit_callbacks)
    assert tournament.status == Tournament.Status.FINISHED and tournament.current_round == 1
    assert tournament_final_table(tournament) is None
    standings = tournament_standings(tournament)
    assert [p.version for p in tournament_placings(tournament)] == [v for v, _ in standings]


def finished_match(tournament, round_number, ranks):
    match = Match.objects.create(
        kind=Match.Kind.TOURNAMENT,
        status=Match.Status.FINISHED,
        tournament=tournament,
        tournament_round=round_number,
        seed=1,
    )
    for seat, (version, rank) in enumerate(ranks):
        MatchSeat.objects.create(match=match, seat=seat, version=version, rank=rank, score=0)
    return match


def test_a_tie_in_the_final_goes_to_the_better_seed(authors):
    a, b, c = active_versions(authors, FIRST, LAST, MIDDLE)
    tournament = Tournament.objects.create(
        name="Cup", format="swiss", table_size=2, rounds=1, final_size=2, current_round=2, seed=1
    )
    tournament.entrants.set([a, b, c])
    # Regular round: c beats a, c beats b, b beats a -> c 2, b 1, a 0.
    finished_match(tournament, 1, [(c, 1), (a, 2)])
    finished_match(tournament, 1, [(c, 1), (b, 2)])
    finished_match(tournament, 1, [(b, 1), (a, 2)])
    # The final (c, b): one win each -> tied on points, c was the better seed.
    finished_match(tournament, 2, [(c, 1), (b, 2)])
    finished_match(tournament, 2, [(b, 1), (c, 2)])
    assert [v for v, _ in tournament_standings(tournament)] == [c, b, a]
    assert [(v, p) for v, p in tournament_final_table(tournament)] == [(c, 1.0), (b, 1.0)]
    # The final overturns the standings when someone wins it outright.
    MatchSeat.objects.filter(match__tournament_round=2, version=c).update(rank=2)
    MatchSeat.objects.filter(match__tournament_round=2, version=b).update(rank=1)
    assert [p.version for p in tournament_placings(tournament)] == [b, c, a]


@pytest.mark.parametrize(
    ("final_size", "message"),
    [
        (1, "2 to 4"),
        (5, "2 to 4"),
        (4, "at least 4 entrants"),
    ],
)
def test_impossible_final_tables_are_refused(authors, final_size, message):
    options = cup(authors, format="swiss", rounds=2, final_size=final_size)
    with pytest.raises(ValidationError) as caught:
        tournament_start(**options)
    assert any(message in m for m in caught.value.message_dict["final_size"])
    assert not Tournament.objects.exists()


def test_the_api_reports_the_final_and_the_places(
    authors, client_for, django_capture_on_commit_callbacks
):
    entrants = active_versions(authors, FIRST, LAST, MIDDLE)
    ids = [v.pk for v in entrants]
    swiss = {"name": "Cup", "format": "swiss", "table_size": 2, "rounds": 2, "entrants": ids}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("bob").post(
            "/api/arena/tournaments/", swiss | {"final_size": 2, "seed": 4}, format="json"
        )
    assert response.status_code == 201, response.json()
    assert response.json()["final_size"] == 2
    body = client_for(None).get(f"/api/arena/tournaments/{response.json()['id']}/standings/").json()
    assert body["status"] == "finished" and len(body["rounds"]) == 2
    assert len(body["final"]) == 2
    assert [row["place"] for row in body["placings"]] == [1, 2, 3]
    assert [row["bot"] for row in body["placings"][:2]] == [row["bot"] for row in body["final"]]
    bad = client_for("bob").post(
        "/api/arena/tournaments/", swiss | {"final_size": 4}, format="json"
    )
    assert bad.status_code == 400 and "final_size" in bad.json()["fields"]
