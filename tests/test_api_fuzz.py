"""Schemathesis against the app's own OpenAPI schema: every operation, as two different users and
anonymously, one call at a time and in sequences that reuse the ids answers give, on seeded data (a public and a private league, bots, a finished match, a
tournament); the operations on a game night and a dispute also on a seeded night and dispute.
No answer may be a server error or differ from the schema (status code, content type, body,
headers). Bounded: few examples per operation, derandomised, no deadline.

Run just this with `pytest -m fuzz`; SCHEMATHESIS_EXAMPLES raises the number of examples.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import os

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from arena.common import SeatInput, match_create
from arena.matches.services import match_record
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match
from arena.runner import run_match
from arena.submissions.services import bot_create
from arena.tournaments.services import tournament_start
from league.clubs import services as league_services
from league.models import League
from league.nights import services as nights
from league.results import checks, confirmation
from league.results import services as result_services

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "6"))
BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
BOT_SOURCE = "def choose(observation, legal_actions):\n    return 0\n"


@functools.cache
def _house_match_log() -> dict:
    # House bots are trusted engine code: played here, once per run, with no sandbox.
    return run_match(game="cat-lady", seed=11, bots=["greedy", "random"])


def _active_bot(owner, name: str) -> BotVersion:
    """A bot whose first version passed validation (set directly: the fuzz run plays no match)."""
    bot = bot_create(owner=owner, name=name, source=BOT_SOURCE)
    version = bot.versions.get()
    BotVersion.objects.filter(pk=version.pk).update(status=BotVersion.Status.ACTIVE)
    Bot.objects.filter(pk=bot.pk).update(active_version=version)
    for ladder in Ladder.objects.filter(game=bot.game, active=True):
        LadderEntry.objects.get_or_create(ladder=ladder, version=version)
    version.refresh_from_db()
    return version


@pytest.fixture
def keep_test_connection():
    # The requests go through the WSGI app itself, whose end-of-request signal closes the
    # database connection (and with it the test's transaction); Django's test client detaches
    # the same handler for the same reason.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def tokens(db, keep_test_connection, settings) -> dict[str, str]:
    """Two users with tokens and data of both: Ada organises a private league, Bob a public one
    that Ada plays in; each has an active bot; there is a finished match and a tournament."""
    # A login check hashes a password even for an unknown user: the fast hasher keeps the
    # token endpoint's examples from costing a quarter of a second each.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()  # throttle counts of an earlier test
    User = get_user_model()
    ada = User.objects.create_user("ada", password="pw-123456789")
    bob = User.objects.create_user("bob", password="pw-123456789")
    public = league_services.league_create(name="Open Club", slug="open", by=bob)
    private = league_services.league_create(
        name="Secret Club", slug="secret", by=ada, is_public=False
    )
    ada_player = league_services.player_for_user(ada)
    bob_player = league_services.player_for_user(bob)
    guest = league_services.player_create(name="Guest", by=ada)
    league_services.member_add(league=public, player=ada_player, by=ada)  # her own consent
    league_services.member_add(league=private, player=guest, by=ada)
    league_services.season_create(
        league=public,
        name="2026",
        starts_on=dt.date(2026, 1, 1),
        ends_on=dt.date(2026, 12, 31),
        by=bob,
    )
    for day, (first, second) in enumerate([(ada_player, bob_player), (bob_player, ada_player)]):
        result_services.game_record(
            league=public,
            logged_by=bob,
            played_on=dt.date(2026, 3, 1 + day),
            participants=[
                checks.ParticipantInput(first.pk, {"total_vp": 30}, 1),
                checks.ParticipantInput(second.pk, {"total_vp": 20}, 2),
            ],
        )
    result_services.game_record(
        league=private,
        logged_by=ada,
        played_on=dt.date(2026, 3, 1),
        participants=[
            checks.ParticipantInput(ada_player.pk, {"total_vp": 3}, 1),
            checks.ParticipantInput(guest.pk, {"total_vp": 2}, 2),
        ],
    )
    entrants = [_active_bot(ada, "ada-bot"), _active_bot(bob, "bob-bot")]
    match = match_create(
        kind=Match.Kind.CHALLENGE,
        game="cat-lady",
        seed=11,
        requested_by=bob,
        seats=[SeatInput(builtin=name) for name in ("greedy", "random")],
    )
    match_record(match_id=match.pk, log=_house_match_log())
    tournament_start(
        name="Cup", organiser=bob, entrants=entrants, table_size=2, format="round_robin"
    )
    return {user.username: Token.objects.create(user=user).key for user in (ada, bob)}


# Loaded at collection (the schema needs no database); one test per operation.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


REQUESTS: list[str] = []


@pytest.fixture(scope="module", autouse=True)
def request_count():
    yield
    print(f"\nschemathesis: {len(set(REQUESTS))} operations, {len(REQUESTS)} requests")


@pytest.fixture
def callers(tokens):
    """Ada, Bob and an anonymous visitor in turn: each case is sent once, by the next of them."""
    return itertools.cycle(
        [
            {"Authorization": f"Token {tokens['ada']}"},
            {"Authorization": f"Token {tokens['bob']}"},
            {},
        ]
    )


@schema.parametrize()
@BOUNDED
def test_every_operation_answers_as_documented(case, callers):
    case.call_and_validate(headers=next(callers), checks=CHECKS)
    REQUESTS.append(case.operation.label)


@pytest.fixture
def state_machine(tokens):
    """Sequences of calls that feed one answer's ids into the next request (links inferred
    from the schema), each step as Ada or Bob in turn."""
    checks = CHECKS
    users = [tokens["ada"], tokens["bob"]]

    class APIWorkflows(schema.as_state_machine()):
        def setup(self):
            # Each sequence starts from the seeded data (a savepoint rolled back afterwards) and
            # from no throttle counts, so a sequence replays the same way when Hypothesis
            # shrinks it.
            self.steps = 0
            self.savepoint = transaction.atomic()
            self.savepoint.__enter__()
            cache.clear()

        def teardown(self):
            transaction.set_rollback(True)
            self.savepoint.__exit__(None, None, None)

        def get_call_kwargs(self, case):
            self.steps += 1
            return {"headers": {"Authorization": f"Token {users[self.steps % 2]}"}}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            REQUESTS.append(case.operation.label)
            case.validate_response(response, checks=checks)

    return APIWorkflows


def test_workflows_answer_as_documented(state_machine):
    state_machine.run(settings=settings(BOUNDED, max_examples=EXAMPLES * 5, stateful_step_count=8))


@pytest.fixture
def night_and_dispute(tokens) -> dict[str, int]:
    """Bob's night at the open club with round 1 drawn (Ada and Bob at one table), and Ada's
    dispute of a game Bob logged once the club's results wait for another participant."""
    User = get_user_model()
    ada, bob = User.objects.get(username="ada"), User.objects.get(username="bob")
    public = League.objects.get(slug="open")
    players = [league_services.player_for_user(user) for user in (ada, bob)]
    night = nights.night_open(
        league=public,
        by=bob,
        played_on=dt.date(2026, 3, 3),
        edition="base",
        rounds=3,
        present=players,
    )
    table = nights.round_draw(night=night, by=bob).tables.get()
    League.objects.filter(pk=public.pk).update(confirmation=League.Confirmation.ANOTHER)
    game = result_services.game_record(
        league=League.objects.get(pk=public.pk),
        logged_by=bob,
        played_on=dt.date(2026, 3, 3),
        participants=[
            checks.ParticipantInput(players[0].pk, {"total_vp": 30}, 1),
            checks.ParticipantInput(players[1].pk, {"total_vp": 20}, 2),
        ],
    )
    dispute = confirmation.game_dispute(game=game, by=ada, reason="I had 31")
    return {"night": night.pk, "table": table.pk, "dispute": dispute.pk}


# Their ids come from no answer the runs above can get (an opened night needs a valid body), so
# by id alone these operations would only ever be fuzzed into a 404.
@pytest.mark.parametrize(
    ("path", "ids"),
    [
        ("/api/nights/{id}/", {"id": "night"}),
        ("/api/nights/{id}/attendance/", {"id": "night"}),
        ("/api/nights/{id}/guests/", {"id": "night"}),
        ("/api/nights/{id}/undo/", {"id": "night"}),
        ("/api/nights/{id}/draw/", {"id": "night"}),
        ("/api/nights/{id}/tables/{table_id}/result/", {"id": "night", "table_id": "table"}),
        ("/api/disputes/{id}/resolve/", {"id": "dispute"}),
    ],
)
def test_a_seeded_night_and_dispute_answer_as_documented(path, ids, night_and_dispute, callers):
    method = "GET" if path == "/api/nights/{id}/" else "POST"
    operation = schema[path][method]
    fixed = {name: str(night_and_dispute[seeded]) for name, seeded in ids.items()}

    # Three callers in turn: the organiser, who gets past the permission check, sends a third.
    @given(case=operation.as_strategy(path_parameters=fixed))
    @settings(BOUNDED, max_examples=EXAMPLES * 3)
    def answers_as_documented(case):
        case.call_and_validate(headers=next(callers), checks=CHECKS)
        REQUESTS.append(case.operation.label)

    answers_as_documented()
