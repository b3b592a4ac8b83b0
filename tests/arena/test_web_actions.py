"""Arena actions from the web pages: My bots (owner only), the challenge form and the
tournament form, with bad input shown beside its field and nothing written."""

from __future__ import annotations

import re

import pytest

from arena.models import Match, Tournament
from tests.arena import test_pages

# The arena of the page tests: ada's talkative bot, bob's steady one, matches between them,
# played once for this module (``arena_once``); ``authors`` are its ada and bob.
arena_once = test_pages.arena_once
authors = test_pages.authors
shared_arena = test_pages.shared_arena
clients = test_pages.clients
field_errors = test_pages.field_errors

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def html(response) -> str:
    return response.content.decode()


@pytest.mark.parametrize("url", ["/arena/my-bots/", "/arena/challenge/", "/arena/tournaments/new/"])
def test_arena_action_pages_need_a_login(clients, url):
    response = clients[None].get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert clients[None].post(url, {}).status_code == 302


def test_my_bots_shows_versions_matches_faults_and_stderr_to_the_owner_only(clients, shared_arena):
    ada = html(clients["ada"].get("/arena/my-bots/"))
    assert 'id="bot-' in ada and 'href="/arena/bots/talky/">talky</a> <span' in ada
    assert '<h2 id="bot-' + str(shared_arena["steady"].pk) not in ada
    assert "SECRET-FAULT-REASON" in ada and "STDERR-MARK" in ada
    assert f"#{shared_arena['challenge'].pk}" in ada
    bob = html(clients["bob"].get("/arena/my-bots/"))
    assert "steady" in bob and "SECRET-FAULT-REASON" not in bob and "STDERR-MARK" not in bob


def test_my_bots_shows_why_a_version_was_rejected(
    clients, authors, django_capture_on_commit_callbacks
):
    from arena.submissions.services import bot_create

    with django_capture_on_commit_callbacks(execute=True):
        bot_create(
            owner=authors["ada"],
            name="crashy",
            source="def choose(o, l):\n    raise ValueError('boom-in-validation')\n",
        )
    page = html(clients["ada"].get("/arena/my-bots/"))
    assert "Rejected" in page and "boom-in-validation" in page


def test_a_challenge_against_house_bots_starts_a_match_and_opens_its_replay(
    clients, shared_arena, django_capture_on_commit_callbacks
):
    form = html(clients["ada"].get("/arena/challenge/"))
    version = shared_arena["talky"].active_version
    assert f'value="version:{version.pk}"' in form and "(yours, cat-lady)" in form
    assert f'value="version:{shared_arena["steady"].active_version.pk}"' in form  # someone else's
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["ada"].post(
            "/arena/challenge/",
            {
                "game": "cat-lady",
                "seat1": f"version:{version.pk}",
                "seat2": "house:cat-lady:greedy",
                "seat3": "house:cat-lady:random",
                "seed": 7,
            },
        )
    match = Match.objects.filter(kind="challenge").latest("id")
    assert response["Location"] == f"/arena/matches/{match.pk}/"
    match.refresh_from_db()
    assert match.status == "finished" and match.seed == 7 and match.seats.count() == 3
    assert match.requested_by.username == "ada"
    page = html(clients["ada"].get(response["Location"]))
    assert "replay" in page.lower()


def test_challenge_options_reach_the_match(
    clients, shared_arena, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        clients["bob"].post(
            "/arena/challenge/",
            {
                "game": "cat-lady",
                "edition": "box-of-treats-placeholder",
                **{f"seat{n}": "house:cat-lady:random" for n in range(1, 6)},
            },
        )
    match = Match.objects.filter(kind="challenge").latest("id")
    assert match.options == {"edition": "box-of-treats-placeholder"} and match.seats.count() == 5


@pytest.mark.parametrize(
    ("data", "field", "text"),
    [
        ({"seat1": "house:cat-lady:random"}, "seat2", "at least two seats"),
        (
            {"seat1": "house:cat-lady:random", "seat2": "house:cantankerous-cats:random"},
            "seat2",
            "random is a Cantankerous Cats house bot; this match plays Cat Lady.",
        ),
        ({"seat1": "house:cat-lady:random", "seat2": "version:999999"}, "seat2", "valid choice"),
        (
            {"seat1": "house:cat-lady:random", "seat2": "house:cat-lady:greedy", "seed": "-3"},
            "seed",
            "greater than or equal to 0",
        ),
        ({**{f"seat{n}": "house:cat-lady:random" for n in range(1, 6)}}, "seat1", "not 5"),
    ],
)
def test_bad_challenges_are_shown_beside_the_field_and_start_nothing(
    clients, shared_arena, data, field, text
):
    before = Match.objects.count()
    response = clients["ada"].post("/arena/challenge/", {"game": "cat-lady", **data})
    assert response.status_code == 400
    assert text in field_errors(response, field), html(response)[-2000:]
    assert Match.objects.count() == before


def test_a_tournament_from_the_form_runs_and_its_page_shows_progress(
    clients, shared_arena, django_capture_on_commit_callbacks
):
    entrants = [shared_arena["talky"].active_version.pk, shared_arena["steady"].active_version.pk]
    with django_capture_on_commit_callbacks(execute=True):
        response = clients["bob"].post(
            "/arena/tournaments/new/",
            {
                "name": "Web Cup",
                "format": "swiss",
                "table_size": 2,
                "rounds": 2,
                "final_size": 0,
                "seed": 4,
                "entrants": entrants,
            },
        )
    tournament = Tournament.objects.get(name="Web Cup")
    assert response["Location"] == f"/arena/tournaments/{tournament.pk}/"
    assert tournament.organiser.username == "bob"
    page = html(clients[None].get(response["Location"]))
    assert re.search(r"Round 1: <progress max=\"2\" value=\"2\"", page)
    if tournament.status == Tournament.Status.FINISHED:
        assert 'http-equiv="refresh"' not in page


@pytest.mark.parametrize(
    ("data", "field", "text"),
    [
        ({"name": ""}, "name", "required"),
        ({"table_size": 7}, "table_size", "less than or equal to 6"),
        ({"table_size": 3}, "entrants", "At least 3 entrants"),
        ({"final_size": 5}, "final_size", "final"),
        ({"entrants": []}, "entrants", "required"),
    ],
)
def test_bad_tournaments_are_shown_beside_the_field_and_start_nothing(
    clients, shared_arena, data, field, text
):
    body = {
        "name": "Bad Cup",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "final_size": 0,
        "entrants": [
            shared_arena["talky"].active_version.pk,
            shared_arena["steady"].active_version.pk,
        ],
        **data,
    }
    response = clients["ada"].post("/arena/tournaments/new/", body)
    assert response.status_code == 400
    assert text in field_errors(response, field), html(response)[-2000:]
    assert not Tournament.objects.exists()
