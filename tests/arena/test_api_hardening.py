"""The arena API under hostile input, and what it shows to whom: a bot's error texts, stderr and
rejection details only to its owner (as the pages do); ids parsed as ids; required fields."""

from __future__ import annotations

import pytest

from arena.models import Bot, BotVersion, Match, Tournament
from arena.submissions.selectors import rejection_summary
from tests.api_errors import api_error

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

CRASHY = (
    "def helper_with_a_secret_name():\n"
    "    raise ValueError('the secret plan')\n\n"
    "def choose(o, l):\n"
    "    helper_with_a_secret_name()\n"
)
HUGE = "9223372036854775808"


@pytest.fixture
def crashy(client_for, django_capture_on_commit_callbacks) -> Bot:
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for("ada").post(
            "/api/arena/bots/", {"name": "crashy", "source": CRASHY}, format="json"
        )
    assert response.status_code == 201
    bot = Bot.objects.get(name="crashy")
    assert bot.versions.get().status == BotVersion.Status.REJECTED
    return bot


def test_a_rejection_is_one_line_without_the_bots_text_for_anyone_but_the_owner(client_for, crashy):
    full = crashy.versions.get().rejection
    assert "the secret plan" in full  # what the owner needs to fix the bot
    for who in (None, "bob"):
        shown = client_for(who).get(f"/api/arena/bots/{crashy.pk}/versions/").json()[0]
        assert "\n" not in shown["rejection"] and "source" not in shown
        assert "secret" not in shown["rejection"] and "Traceback" not in shown["rejection"]
        assert shown["rejection"].endswith(
            "fault(s) in the validation match; the first, at step 1: invalid."
        )
    mine = client_for("ada").get(f"/api/arena/bots/{crashy.pk}/versions/").json()[0]
    assert mine["rejection"] == full and "helper_with_a_secret_name" in mine["source"]


def test_fault_texts_in_a_match_log_are_only_for_the_owner(client_for, crashy):
    match = Match.objects.get(kind=Match.Kind.VALIDATION)
    mine = client_for("ada").get(f"/api/arena/matches/{match.pk}/log/").json()
    assert "the secret plan" in str(mine["faults"][0])
    assert any("the secret plan" in step["reason"] for step in mine["steps"] if step["seat"] == 0)
    for who in (None, "bob"):
        body = client_for(who).get(f"/api/arena/matches/{match.pk}/log/")
        assert body.status_code == 200
        text = body.content.decode()
        assert "secret" not in text and "Traceback" not in text
        theirs = body.json()
        assert theirs["stderr"] == [None, None]
        assert [f["status"] for f in theirs["faults"][0]] == [
            f["status"] for f in mine["faults"][0]
        ]
        assert all(f["reason"] is None for f in theirs["faults"][0])
        assert len(theirs["steps"]) == len(mine["steps"])


def test_rejection_summary_keeps_counts_and_kinds_only():
    assert rejection_summary("") == ""
    assert (
        rejection_summary(
            "3 fault(s) in the validation match; the first, at step 4: timeout (no answer in 1 s)."
            "\nThe bot's stderr ended with:\nTraceback (most recent call last): ..."
        )
        == "3 fault(s) in the validation match; the first, at step 4: timeout."
    )
    assert (
        rejection_summary(
            "The validation match could not be played: SandboxUnavailable: /run/x is missing"
        )
        == "The validation match could not be played."
    )


@pytest.mark.parametrize(
    "path",
    [
        "/api/arena/matches/AAA/log/",
        "/api/arena/matches/AAA/",
        "/api/arena/bots/x1/",
        "/api/arena/bots/1.5/versions/",
        "/api/arena/ladders/-3/standings/",
        f"/api/arena/tournaments/{HUGE}0/standings/",
        f"/api/arena/matches/{HUGE}/log/",
    ],
)
def test_ids_that_are_not_ids_or_too_large_are_a_json_404(client_for, path):
    api_error(client_for(None).get(path), 404, "not_found")


def test_a_limit_past_bigint_is_capped(client_for, crashy):
    for path in (
        "/api/arena/bots/",
        "/api/arena/matches/",
        "/api/arena/ladders/",
        "/api/arena/tournaments/",
    ):
        assert client_for(None).get(f"{path}?limit={HUGE}").status_code == 200


@pytest.mark.parametrize("missing", ["name", "format", "table_size", "entrants"])
def test_a_tournament_without_a_required_field_is_a_400(client_for, missing):
    body = {"name": "Cup", "format": "round_robin", "table_size": 2, "entrants": []}
    del body[missing]
    response = client_for("bob").post("/api/arena/tournaments/", body, format="json")
    assert missing in api_error(response, 400, "validation_error")["fields"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("seat", ["\u00b2", HUGE, "1" * 5000, "-1", ""])
def test_challenge_seats_that_are_no_version_are_field_errors(client_for, seat):
    response = client_for("bob").post(
        "/api/arena/matches/challenge/", {"seats": [seat, "random"]}, format="json"
    )
    assert "seats.0" in api_error(response, 400, "validation_error")["fields"]
    assert not Match.objects.exists()


def test_a_bot_needs_a_source_or_a_file(client_for):
    response = client_for("bob").post("/api/arena/bots/", {"name": "empty"}, format="json")
    assert "source" in api_error(response, 400, "validation_error")["fields"]
    assert not Bot.objects.exists()


@pytest.mark.parametrize("query", ["status=lost", "kind=1", "ladder=x", "ordering=log"])
def test_wrong_match_filters_are_a_400(client_for, query):
    api_error(client_for(None).get(f"/api/arena/matches/?{query}"), 400, "validation_error")
