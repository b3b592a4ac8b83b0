"""A bot version's loss triage: its faults (stderr and reasons for its owner only), its biggest
losses with the decisive move, and its head-to-head record against another version."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.models import Bot, Match
from arena.triage import decisive
from arena.triage.decisive import decisive_move, decisive_move_of, running_scores
from arena.triage.selectors import (
    STDERR_TAIL,
    biggest_losses,
    decisive_move_in,
    faults,
    head_to_head,
    unplayed_count,
)
from tests.arena.triage_matches import house_log, played, version

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    """Ada's bot "tabby" with two versions; Bob's bot "rex"."""
    User = get_user_model()
    ada = User.objects.create_user("ada", password="pw-123456789")
    bob = User.objects.create_user("bob", password="pw-123456789")

    tabby = Bot.objects.create(owner=ada, name="tabby")
    rex = Bot.objects.create(owner=bob, name="rex")
    clients = {None: Client()}
    for name, user in (("ada", ada), ("bob", bob)):
        clients[name] = Client()
        clients[name].force_login(user)
    return {
        "v1": version(tabby, 1),
        "v2": version(tabby, 2),
        "rex": version(rex, 1),
        "clients": clients,
    }


# --- the decisive move (pure) ----------------------------------------------------------------


def test_decisive_move_is_where_the_gap_to_the_winner_grew_most_earliest_on_a_tie():
    scores = [[0, 0], [0, 3], [1, 3], [1, 10], [9, 10], [9, 17]]
    assert decisive_move(scores, seat=0, winner=1) == 3  # +7 at move 3 and at move 5: the first
    assert decisive_move([[0, 0], [4, 0], [4, 1]], seat=0, winner=1) == 2
    assert decisive_move([[0, 0], [3, 0]], seat=0, winner=1) is None  # the lead never grew


def test_running_scores_replay_the_log_to_its_final_scoring():
    log = house_log(3, 3)
    scores = running_scores(log)
    assert scores is not None and len(scores) == len(log["steps"]) + 1
    assert scores[-1] == log["result"]["scores"]


def test_a_forfeit_is_decided_by_the_fault_that_made_it_forfeit():
    log = copy.deepcopy(house_log(1, 2))
    log["result"]["ranks"] = [2, 1]
    log["forfeited"] = [0]
    log["faults"] = [[{"step": None, "status": "crash"}, {"step": 6, "status": "timeout"}], []]
    assert decisive_move_of(log, seat=0) == 7


def test_no_decisive_move_for_a_win_or_a_log_this_engine_cannot_replay():
    log = copy.deepcopy(house_log(1, 2))
    winner = log["result"]["ranks"].index(1)
    assert decisive_move_of(log, seat=winner) is None
    log["engine_log"]["version"] = "99"
    assert running_scores(log) is None
    assert decisive_move_of(log, seat=1 - winner) is None


def test_scoring_past_its_budget_gives_no_answer():
    assert running_scores(house_log(1, 2), budget_s=0) is None


# --- faults ----------------------------------------------------------------------------------


def test_faults_newest_match_first_in_move_order_with_the_fallback_move(cast):
    v1 = cast["v1"]
    older = played([v1, None], seed=1, faults_at={0: [(None, "crash", "start-up: died")]})
    newer = played(
        [None, v1],
        seed=2,
        faults_at={1: [(3, "timeout", "no answer"), (9, "illegal", "row 9 is not legal")]},
    )
    played([v1, None], seed=3)  # no faults: not listed
    found = faults(v1, owner=False)
    assert [(f.match_id, f.move, f.status) for f in found] == [
        (newer.pk, 4, "timeout"),
        (newer.pk, 10, "illegal"),
        (older.pk, None, "crash"),
    ]
    assert found[0].words.startswith("took too long")
    assert found[0].played and found[0].played == found[0].played.strip()
    assert found[0].ms == newer.log["steps"][3]["ms"]
    assert found[2].played == ""  # a start-up fault has no move


def test_stderr_and_reasons_only_for_the_owner_once_per_match(cast):
    v1 = cast["v1"]
    played(
        [v1, None],
        faults_at={0: [(2, "invalid", "the bot raised KeyError"), (5, "crash", "exit 1")]},
        stderr={0: "Traceback: KeyError 'grid'", 1: "OTHER SEAT"},
    )
    public = faults(v1, owner=False)
    assert all(f.reason is None and f.stderr is None for f in public)
    owned = faults(v1, owner=True)
    assert [f.reason for f in owned] == ["the bot raised KeyError", "exit 1"]
    assert [f.stderr for f in owned] == ["Traceback: KeyError 'grid'", None]


def test_the_owner_gets_the_end_of_a_long_stderr_and_its_whole_length(cast):
    v1 = cast["v1"]
    long = "noise\n" * 3000 + "Traceback: the end that matters"
    played([v1, None], faults_at={0: [(2, "crash", "exit 1")]}, stderr={0: long})
    (fault,) = faults(v1, owner=True)
    assert fault.stderr == long[-STDERR_TAIL:] and fault.stderr.endswith("that matters")
    assert fault.stderr_length == len(long)
    html = cast["clients"]["ada"].get("/arena/bots/tabby/v1/triage/").content.decode()
    assert f"its last {STDERR_TAIL} of {len(long)} characters" in html


def test_faults_are_capped(cast):
    v1 = cast["v1"]
    played([v1, None], faults_at={0: [(step, "timeout", "") for step in range(0, 8, 2)]})
    assert len(faults(v1, owner=False, limit=3)) == 3


def test_matches_not_over_or_with_a_deal_still_dealt_elsewhere_are_left_out(cast):
    v1 = cast["v1"]
    fault = {0: [(1, "timeout", "")]}
    played([v1, None], faults_at=fault, duplicate_set="deal-7", ranks=[2, 1])
    played([None, v1], status=Match.Status.RUNNING, duplicate_set="deal-7")
    played([v1, None], status=Match.Status.FAILED)
    assert faults(v1, owner=True) == [] and biggest_losses(v1) == []
    assert unplayed_count(v1) == 1
    Match.objects.filter(status=Match.Status.RUNNING).update(status=Match.Status.FINISHED)
    assert len(faults(v1, owner=True)) == 1 and len(biggest_losses(v1)) == 1


# --- biggest losses ------------------------------------------------------------------------


def test_biggest_losses_by_points_behind_the_winner(cast):
    v1, rex = cast["v1"], cast["rex"]
    small = played([v1, rex], seed=1, ranks=[2, 1], scores=[20, 22])
    big = played([rex, v1, None], seed=2, ranks=[1, 3, 2], scores=[30, 5, 12])
    played([v1, rex], seed=3, ranks=[1, 2], scores=[25, 20])  # a win
    level = played([v1, rex], seed=4, ranks=[1, 1], scores=[18, 18])  # shared first: no loss
    losses = biggest_losses(v1)
    assert [(loss.match.pk, loss.margin, loss.place) for loss in losses] == [
        (big.pk, 25, 3),
        (small.pk, 2, 2),
    ]
    assert losses[0].winner == "rex v1" and losses[0].seat == 1
    assert level.pk not in {loss.match.pk for loss in losses}


def test_the_replay_link_opens_at_the_decisive_move_of_a_constructed_match(cast, monkeypatch):
    v1 = cast["v1"]
    match = played([v1, None], ranks=[2, 1], scores=[10, 17])
    constructed = [[0, 0], [1, 0], [1, 6], [3, 6], [10, 17]]
    monkeypatch.setattr(decisive, "running_scores", lambda log: constructed)
    response = cast["clients"][None].get(f"/arena/bots/tabby/v1/triage/lost/{match.pk}/")
    assert response.status_code == 302
    assert response["Location"] == f"/arena/matches/{match.pk}/#move=2"
    assert decisive_move_in(v1, match.pk) == (True, 2)  # cached: the same answer


def test_the_decisive_link_is_a_404_for_a_match_the_version_did_not_play(cast):
    other = played([cast["rex"], None], ranks=[2, 1])
    response = cast["clients"]["ada"].get(f"/arena/bots/tabby/v1/triage/lost/{other.pk}/")
    assert response.status_code == 404


# --- head-to-head ----------------------------------------------------------------------------


def test_head_to_head_counts_by_player_count_and_seat(cast):
    v1, v2 = cast["v1"], cast["v2"]
    played([v1, v2], seed=1, ranks=[1, 2])  # 2 players, seat 0: won
    played([v2, v1], seed=2, ranks=[1, 2])  # 2 players, seat 1: lost
    played([v2, v1], seed=3, ranks=[2, 1])  # 2 players, seat 1: won
    played([v1, None, v2], seed=4, ranks=[2, 1, 2])  # 3 players, seat 0: level
    played([None, v2, v1], seed=5, ranks=[1, 2, 3])  # 3 players, seat 2: lost
    played([v1, None], seed=6, ranks=[1, 2])  # v2 absent: not counted
    record = head_to_head(v1, v2)
    assert (record.total.games, record.total.wins, record.total.losses, record.total.draws) == (
        5,
        2,
        2,
        1,
    )
    by_players = {n: (r.games, r.wins, r.losses, r.draws) for n, r in record.by_players.items()}
    assert by_players == {2: (3, 2, 1, 0), 3: (2, 0, 1, 1)}
    by_seat = {s: (r.games, r.wins, r.losses, r.draws) for s, r in record.by_seat.items()}
    assert by_seat == {0: (2, 1, 0, 1), 1: (2, 1, 1, 0), 2: (1, 0, 1, 0)}
    mirror = head_to_head(v2, v1)
    assert (mirror.total.wins, mirror.total.losses) == (2, 2)


# --- the page --------------------------------------------------------------------------------


def test_the_page_shows_faults_losses_and_head_to_head_with_seats_from_one(cast):
    v1, v2 = cast["v1"], cast["v2"]
    lost = played(
        [v2, v1],
        ranks=[1, 2],
        scores=[30, 11],
        faults_at={1: [(4, "illegal", "SECRET-REASON")]},
        stderr={1: "STDERR-MARK"},
    )
    response = cast["clients"][None].get("/arena/bots/tabby/v1/triage/?against=2")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.index('id="faults-h"') < html.index('id="losses-h"') < html.index('id="h2h-h"')
    assert f"/arena/matches/{lost.pk}/#move=5" in html and "chose a move that is not legal" in html
    assert f"/arena/bots/tabby/v1/triage/lost/{lost.pk}/" in html and ">19 <" in html
    assert "Seat 2" in html and "Seat 0" not in html
    assert "0</strong> won, <strong>1</strong> lost" in html


def test_only_the_owner_sees_stderr_and_reasons_on_the_page(cast):
    played(
        [cast["v1"], None],
        faults_at={0: [(0, "crash", "SECRET-REASON")]},
        stderr={0: "STDERR-MARK"},
    )
    for viewer in (None, "bob"):
        html = cast["clients"][viewer].get("/arena/bots/tabby/v1/triage/").content.decode()
        assert "crashed" in html
        assert "STDERR-MARK" not in html and "SECRET-REASON" not in html
    html = cast["clients"]["ada"].get("/arena/bots/tabby/v1/triage/").content.decode()
    assert "STDERR-MARK" in html and "SECRET-REASON" in html


def test_an_unknown_bot_or_version_is_a_404_and_a_bad_choice_an_error_beside_its_field(cast):
    client = cast["clients"][None]
    assert client.get("/arena/bots/tabby/v9/triage/").status_code == 404
    assert client.get("/arena/bots/nobody/v1/triage/").status_code == 404
    for bad in ("9", "x", "1"):  # no such version, not a number, the version itself
        response = client.get(f"/arena/bots/tabby/v1/triage/?against={bad}")
        assert response.status_code == 400
        assert 'id="id_against_error"' in response.content.decode()


def test_the_bot_page_links_each_version_to_its_triage(cast):
    html = cast["clients"][None].get("/arena/bots/tabby/").content.decode()
    assert "/arena/bots/tabby/v1/triage/" in html and "/arena/bots/tabby/v2/triage/" in html


def test_the_page_reads_a_fixed_number_of_queries_however_many_matches(
    cast, django_assert_max_num_queries
):
    v1, v2 = cast["v1"], cast["v2"]
    client = cast["clients"]["ada"]

    def add(seeds: range) -> None:
        for seed in seeds:
            played(
                [v1, v2, None] if seed % 2 else [v2, None, v1],
                seed=seed,
                ranks=[2, 1, 3],
                faults_at={0 if seed % 2 else 2: [(1, "timeout", "")]},
            )

    add(range(1, 3))
    with CaptureQueriesContext(connection) as few:
        client.get("/arena/bots/tabby/v1/triage/?against=2")
    add(range(3, 13))
    # The session, its user and the site's header take 4; the page's own reads 8.
    with django_assert_max_num_queries(min(len(few), 12)):
        response = client.get("/arena/bots/tabby/v1/triage/?against=2")
    assert response.status_code == 200
    assert response.content.decode().count('data-fault-status="timeout"') == 12
