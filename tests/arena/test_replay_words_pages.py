"""The match page names every move in the table's words, for every kind of match (ladder,
challenge, tournament, live) and both games: the move list without JavaScript and the replay
data the viewer's status line reads (issue 27)."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest

from arena.common import SeatInput
from arena.matches.services import challenge_create
from arena.models import Match
from arena.tournaments.services import tournament_start
from tests.arena.card_words import card_names, label_problems
from tests.arena.live_games import finished_live_match
from tests.arena.test_pages import arena, clients  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

MOVE_ITEM = re.compile(r'<li id="move-(\d+)" data-move="\d+">(.*?)</li>', re.S)
MOVE_LABEL = re.compile(r'<span class="move-text">(.*?)</span>', re.S)
RULE = re.compile(r'<details class="pb-rule"><summary>Rule</summary><p>(.*?)</p></details>', re.S)


def page_moves(client, match: Match) -> tuple[dict, list[tuple[str, str]]]:
    """The replay data and the move list's (label, rule) of ``match``'s page."""
    html = client.get(f"/arena/matches/{match.pk}/").content.decode()
    data = json.loads(
        re.search(
            r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S
        ).group(1)
    )
    listed = []
    for _, item in MOVE_ITEM.findall(html):
        rule = RULE.search(item)
        listed.append(
            (
                html_lib.unescape(MOVE_LABEL.search(item).group(1)),
                html_lib.unescape(rule.group(1)) if rule else "",
            )
        )
    return data, listed


def assert_moves_in_words(client, match: Match) -> None:
    data, listed = page_moves(client, match)
    names = card_names(data)
    assert [p for move in data["moves"] for p in label_problems(move, names)] == []
    assert listed == [(move["label"], move["rule"]) for move in data["moves"]]
    assert all(rule for _, rule in listed)


def test_challenge_pages_of_both_games_name_every_card(
    clients,  # noqa: F811
    arena,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    assert_moves_in_words(clients[None], arena["challenge"])
    with django_capture_on_commit_callbacks(execute=True):
        match = challenge_create(
            seats=[SeatInput(builtin=name) for name in ("greedy", "random", "random")],
            by=None,
            seed=5,
            game="cantankerous-cats",
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert_moves_in_words(clients[None], match)


def test_ladder_and_tournament_pages_name_every_card(
    clients,  # noqa: F811
    arena,  # noqa: F811
    authors,
    django_capture_on_commit_callbacks,
):
    ladder_match = Match.objects.filter(ladder=arena["ladder"], status="finished").first()
    assert ladder_match is not None
    assert_moves_in_words(clients[None], ladder_match)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_start(
            name="Words Cup",
            organiser=authors["bob"],
            entrants=[arena["talky"].active_version, arena["steady"].active_version],
            table_size=2,
            format="swiss",
            rounds=1,
            final_size=0,
            seed=4,
        )
    match = Match.objects.filter(tournament=tournament, status="finished").first()
    assert match is not None
    assert_moves_in_words(clients[None], match)


@pytest.mark.parametrize("game", ["cat-lady", "cantankerous-cats"])
def test_a_finished_live_game_names_every_card(clients, authors, game):  # noqa: F811
    match = finished_live_match(authors["ada"], game=game, opponents=("greedy", "random"))
    assert match.status == Match.Status.FINISHED and match.kind == "live"
    assert_moves_in_words(clients["ada"], match)
