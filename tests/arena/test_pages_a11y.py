"""Accessibility checks on every arena page (the same checks as the league's pages): one h1,
landmarks, labelled controls, captioned tables with scoped headers, named charts, and
invalid fields pointing to their messages."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import TestCase, override_settings

from arena.models import Match
from arena.submissions.services import version_upload
from tests.arena.test_pages import (
    TALKATIVE,
    arena_build,
    cast_create,
    celery_eager,
    clients_for,
    kept_for_the_module,
)
from tests.arena.tournaments import tournament_played
from tests.league.test_pages_a11y import parse

# The tests read stored pages, but pytest-django makes the test database only for marked tests.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def arena_pages(django_db_setup, django_db_blocker):
    """Every arena page, as (name, response): rendered once for the module from one arena,
    tournament and gauntlet (real sandboxed bots, a minute of CPU); the tests only parse them."""
    capture = TestCase.captureOnCommitCallbacks
    with kept_for_the_module(django_db_blocker):
        with celery_eager():
            cast = cast_create()
            arena = arena_build(cast["ada"], cast["bob"], capture)
            tournament = tournament_played(
                capture,
                name="Cup",
                organiser=cast["bob"],
                format="round_robin",
                table_size=2,
                seed=2,
                entrants=[arena["talky"].active_version, arena["steady"].active_version],
                final_size=2,
            )
            # A second version, so that the triage page has its head-to-head form (and a
            # one-deal gauntlet against the first).
            with override_settings(ARENA_GAUNTLET_DEALS=1):
                with capture(execute=True):
                    version_upload(bot=arena["talky"], source=TALKATIVE + "\n", by=cast["ada"])
                assert Match.objects.filter(tournament=tournament).exists()
                pages = list(pages_fetched(clients_for(cast), arena, tournament))
        yield pages


def pages_fetched(clients, arena, tournament):
    match = arena["challenge"]
    ladder = arena["ladder"]
    public = [
        "/",
        "/arena/",
        f"/arena/ladders/{ladder.pk}/",
        "/arena/bots/steady/",
        "/arena/matches/",
        f"/arena/matches/{match.pk}/",
        f"/arena/tournaments/{tournament.pk}/",
    ]
    owner = [
        "/arena/bots/talky/",
        "/arena/bots/talky/v1/source/",
        "/arena/bots/new/",
        f"/arena/matches/{match.pk}/",
        "/arena/bots/talky/v1/triage/",
        "/arena/bots/talky/v2/triage/?against=1",
    ]
    for url in public:
        yield url, clients[None].get(url)
    for url in owner:
        yield f"{url} (owner)", clients["ada"].get(url)
    yield (
        "refused upload",
        clients["ada"].post(
            "/arena/bots/talky/", {"file": SimpleUploadedFile("x.py", b"def choose(:\n")}
        ),
    )
    yield (
        "refused new bot",
        clients["ada"].post(
            "/arena/bots/new/",
            {"name": "bad name!", "file": SimpleUploadedFile("x.py", b"\xff")},
        ),
    )
    yield "refused comparison", clients["ada"].get("/arena/bots/talky/v2/triage/?against=9")


def test_every_arena_page_has_landmarks_one_h1_and_the_skip_link_first(arena_pages):
    for url, response in arena_pages:
        assert response.status_code == (400 if url.startswith("refused") else 200), url
        page = parse(response)
        assert page.all("html")[0].get("lang") == "en", url
        assert page.all("header") and page.all("main") and page.all("footer"), url
        assert len(page.all("h1")) == 1, url
        assert page.all("a")[0].get("href") == "#content", url


def test_every_arena_form_control_has_a_label(arena_pages):
    for url, response in arena_pages:
        assert not parse(response).unlabelled_controls(), url


def test_every_arena_table_has_a_caption_and_scoped_headers(arena_pages):
    for url, response in arena_pages:
        for table in parse(response).tables:
            assert table["caption"] or table["aria"], f"{url}: a table without a caption"
            assert table["th"] and all(scope in ("col", "row") for scope in table["th"]), url


def test_arena_charts_are_named_and_refused_fields_point_to_their_messages(arena_pages):
    refused = []
    for url, response in arena_pages:
        page = parse(response)
        ids = {attrs.get("id") for _, attrs in page.tags}
        for svg in page.all("svg"):
            if svg.get("aria-hidden") != "true":
                assert svg.get("role") == "img" and svg.get("aria-labelledby"), url
                assert all(ref in ids for ref in svg["aria-labelledby"].split()), url
        if url.startswith("refused"):
            assert response.status_code == 400
            controls = [*page.all("input"), *page.all("select"), *page.all("textarea")]
            invalid = [a for a in controls if a.get("aria-invalid") == "true"]
            assert invalid, url
            for attrs in invalid:
                described = attrs.get("aria-describedby", "").split()
                assert any(ref.endswith("_error") and ref in ids for ref in described), url
            refused.append(url)
    assert len(refused) == 3
