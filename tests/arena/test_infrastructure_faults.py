"""An infrastructure fault (no sandbox, a broker that is down, a lost message) never counts
against a bot, and never leaves a match queued for ever."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from arena.matches.services import MAX_ATTEMPTS, match_claim, reap_stuck
from arena.models import Bot, BotVersion, Match
from arena.sandbox import forget_probes, sweep_stages
from arena.sandbox.process import STAGE_PREFIX
from arena.submissions.services import bot_create

ROOT = Path(__file__).resolve().parents[2]
NOW = dt.timedelta(0)


@pytest.fixture
def no_sandbox(monkeypatch: pytest.MonkeyPatch):
    """A worker machine without bubblewrap (nor setpriv/prlimit): nothing on PATH has them."""
    forget_probes()
    monkeypatch.setenv("PATH", "/nonexistent")
    yield
    monkeypatch.undo()
    forget_probes()


def _upload(authors, source) -> BotVersion:
    bot = bot_create(owner=authors["ada"], name="patient", source=source("first_legal"))
    return bot.versions.get()


@pytest.mark.django_db(transaction=True)
def test_without_a_sandbox_a_version_waits_and_is_validated_once_the_sandbox_works(
    eager_celery, authors, source, no_sandbox, monkeypatch
):
    version = _upload(authors, source)

    version.refresh_from_db()
    assert version.status == BotVersion.Status.VALIDATING
    assert version.rejection == ""
    assert "bubblewrap is not installed on the worker" in version.waiting_reason
    assert "validated automatically" in version.waiting_reason
    match = Match.objects.get(kind=Match.Kind.VALIDATION)
    assert (match.status, match.attempts) == (Match.Status.QUEUED, 0)
    assert "bubblewrap is not installed" in match.infra_failure

    # The reaper keeps trying while the machine lacks the sandbox: still waiting, not rejected.
    reap_stuck(older_than=dt.timedelta(minutes=10), infra_retry=NOW)
    version.refresh_from_db()
    assert version.status == BotVersion.Status.VALIDATING

    # The machine is set up; the next retry validates the version with no one's help.
    monkeypatch.undo()
    forget_probes()
    reap_stuck(older_than=dt.timedelta(minutes=10), infra_retry=NOW)
    version.refresh_from_db()
    match.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE
    assert version.waiting_reason == ""
    assert (match.status, match.infra_failure) == (Match.Status.FINISHED, "")
    assert match.dispatch == 3  # created, then resent twice by the reaper


@pytest.mark.django_db(transaction=True)
def test_an_upload_while_the_broker_is_down_is_answered_and_queued_later(
    authors, source, eager_celery
):
    """The upload is written, the client gets 201 (never a 500 for a write that happened),
    and the reaper hands the match to the broker once it is back."""
    db = connection.settings_dict
    program = f"""
import django, json
django.setup()
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
client = APIClient()
client.force_authenticate(get_user_model().objects.get(username="ada"))
answer = client.post("/api/arena/bots/", {{"name": "outage", "source": {source("first_legal")!r}}},
                     format="json")
print(json.dumps({{"status": answer.status_code}}))
"""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        # A port where no broker listens: every publish fails.
        "CELERY_BROKER_URL": "redis://127.0.0.1:9/0",
        "CELERY_RESULT_BACKEND": "",
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    run = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env=env,
        text=True,
        capture_output=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.strip().splitlines()[-1]) == {"status": 201}
    assert "could not be queued; the reaper will retry" in run.stderr

    version = Bot.objects.get(name="outage").versions.get()
    match = Match.objects.get(seats__version=version)
    assert (version.status, match.status) == (BotVersion.Status.VALIDATING, Match.Status.QUEUED)

    # Not yet overdue: the reaper leaves it (its message may still be on its way).
    assert reap_stuck(older_than=dt.timedelta(minutes=10)) == []
    assert reap_stuck(older_than=dt.timedelta(minutes=10), queued_older_than=NOW) == [match.pk]
    version.refresh_from_db()
    assert version.status == BotVersion.Status.ACTIVE


@pytest.mark.django_db
def test_a_superseded_message_does_nothing(authors, source):
    version = _upload(authors, source)
    match = Match.objects.get(seats__version=version)
    assert match.dispatch == 1
    reap_stuck(older_than=dt.timedelta(minutes=10), queued_older_than=NOW)
    match.refresh_from_db()
    assert match.dispatch == 2
    assert match_claim(match.pk, dispatch=1) is None  # the lost message came back
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.QUEUED, 0)
    claimed = match_claim(match.pk, dispatch=2)
    assert claimed is not None and claimed.status == Match.Status.RUNNING


@pytest.mark.django_db
def test_a_running_match_whose_worker_was_lost_is_resent_and_failed_after_three_attempts(
    authors, source
):
    version = _upload(authors, source)
    match = Match.objects.get(seats__version=version)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert match_claim(match.pk, dispatch=match.dispatch) is not None
        reap_stuck(older_than=NOW)
        match.refresh_from_db()
        expected = Match.Status.QUEUED if attempt < MAX_ATTEMPTS else Match.Status.FAILED
        assert (match.status, match.attempts) == (expected, attempt)
    version.refresh_from_db()
    # The arena failed the match, not the bot: the version is not rejected.
    assert version.status == BotVersion.Status.VALIDATING
    assert "not rejected" in version.waiting_reason


@pytest.mark.django_db(transaction=True)
def test_requeue_command_validates_again_the_versions_rejected_for_no_sandbox(
    authors, source, eager_celery
):
    wronged = _upload(authors, source)
    other = bot_create(owner=authors["bob"], name="crashed", source=source("first_legal"))
    at_fault = other.versions.get()
    BotVersion.objects.filter(pk=wronged.pk).update(
        status=BotVersion.Status.REJECTED,
        rejection="The validation match could not be played: SandboxUnavailable: no safe bot "
        "sandbox works here",
    )
    BotVersion.objects.filter(pk=at_fault.pk).update(
        status=BotVersion.Status.REJECTED, rejection="2 fault(s) in the validation match"
    )

    call_command("arena_requeue", "--dry-run")
    wronged.refresh_from_db()
    assert wronged.status == BotVersion.Status.REJECTED

    call_command("arena_requeue")
    wronged.refresh_from_db()
    at_fault.refresh_from_db()
    assert (wronged.status, wronged.rejection) == (BotVersion.Status.ACTIVE, "")
    assert at_fault.status == BotVersion.Status.REJECTED  # its own faults: left alone


def test_check_sandbox_command_names_what_is_missing(monkeypatch):
    forget_probes()
    env = {**os.environ, "PATH": "/nonexistent", "DJANGO_SETTINGS_MODULE": "config.settings"}
    run = subprocess.run(
        [sys.executable, "manage.py", "arena_check_sandbox"],
        cwd=ROOT,
        env=env,
        text=True,
        capture_output=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert "bubblewrap is not installed on the worker" in run.stderr
    ok = subprocess.run(
        [sys.executable, "manage.py", "arena_check_sandbox"],
        cwd=ROOT,
        text=True,
        capture_output=True,
        timeout=120,
    )
    if ok.returncode != 0 and os.environ.get("CATLEAGUE_REQUIRE_SANDBOX") != "1":
        pytest.skip(f"no sandbox on this machine: {ok.stderr.strip()}")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("bot sandbox: bwrap")


def test_sweep_removes_the_bot_files_of_workers_that_are_gone(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gone = tmp_path / f"{STAGE_PREFIX}999999999-abc"  # beyond pid_max: no such process
    mine = tmp_path / f"{STAGE_PREFIX}{os.getpid()}-def"
    unrelated = tmp_path / "someone-else"
    for stage in (gone, mine, unrelated):
        stage.mkdir()
        (stage / "bot.py").write_text("def choose(o, l): return 0\n")
    assert sweep_stages() == 1
    assert not gone.exists() and mine.exists() and unrelated.exists()
    # Even a live process's stage goes once it is older than any match can be.
    old = time.time() - 7 * 3600
    os.utime(mine, (old, old))
    assert sweep_stages() == 1
    assert not mine.exists() and unrelated.exists()
