"""E-mail choices and delivery: the account page's boxes, the signed link in every e-mail
(no log-in), retries when the mail server fails and the note the account page then shows, and
the arena's e-mail when validation rejects a bot version. Eager Celery, in-memory mail."""

from __future__ import annotations

import re
import smtplib
from urllib.parse import urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as MemoryBackend

from accounts import emails, notifications, tasks
from accounts.models import EmailKind, EmailPreferences
from config.celery import app as celery_app

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

CRASHY = "def choose(o, l):\n    raise RuntimeError('boom')\n"


@pytest.fixture(autouse=True)
def memory_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CATLEAGUE_SITE_URL = "https://cats.example.org"


@pytest.fixture
def people(db):
    User = get_user_model()
    return {
        "ada": User.objects.create_user("ada", "ada@example.org", "pw-123456789"),
        "bob": User.objects.create_user("bob", "bob@example.org", "pw-123456789"),
        "nomail": User.objects.create_user("nomail", "", "pw-123456789"),
    }


def send(capture, kind, *user_ids, exclude=None):
    with capture(execute=True):
        notifications.notify(
            kind=kind,
            user_ids=user_ids,
            context={"bot": "b", "version": 1, "reason": "r"},
            exclude=exclude,
        )


def preferences_link(message) -> str:
    """The signed link at the foot of an e-mail, as a path for the test client."""
    found = re.search(r"^(https://cats\.example\.org/accounts/emails/\S+/)$", message.body, re.M)
    assert found, message.body
    return urlsplit(found.group(1)).path


# --- who is e-mailed -------------------------------------------------------------------------


def test_only_people_with_an_address_and_the_kind_on_are_emailed(
    people, django_capture_on_commit_callbacks
):
    EmailPreferences.objects.create(user=people["bob"], bot_rejected=False)
    send(
        django_capture_on_commit_callbacks,
        EmailKind.BOT_REJECTED,
        people["ada"].pk,
        people["bob"].pk,
        people["nomail"].pk,
    )
    assert [m.to for m in mail.outbox] == [["ada@example.org"]]


def test_the_organisers_queue_is_off_until_chosen(people, django_capture_on_commit_callbacks):
    assert not EmailPreferences.default(EmailKind.LEAGUE_PENDING)
    assert all(EmailPreferences.default(k) for k in EmailKind if k != EmailKind.LEAGUE_PENDING)
    EmailPreferences.objects.create(user=people["bob"], league_pending=True)
    assert notifications.recipients(
        kind=EmailKind.LEAGUE_PENDING, user_ids=[people["ada"].pk, people["bob"].pk]
    ) == [people["bob"].pk]


def test_whoever_acted_is_not_told_about_it(people, django_capture_on_commit_callbacks):
    send(
        django_capture_on_commit_callbacks,
        EmailKind.BOT_REJECTED,
        people["ada"].pk,
        people["bob"].pk,
        exclude=people["ada"].pk,
    )
    assert [m.to for m in mail.outbox] == [["bob@example.org"]]


def test_a_kind_turned_off_after_the_email_was_queued_is_not_sent(people):
    EmailPreferences.objects.create(user=people["ada"], bot_rejected=False)
    assert (
        tasks.send_email.delay(
            kind=EmailKind.BOT_REJECTED, context={}, user_id=people["ada"].pk
        ).get()
        is False
    )
    assert mail.outbox == []


# --- choosing on the account page ------------------------------------------------------------


def test_the_account_page_shows_the_choices_and_saves_them(client, people):
    client.force_login(people["ada"])
    page = client.get("/accounts/me/").content.decode()
    assert 'id="emails"' in page
    assert re.search(r'name="game_pending"[^>]*checked', page)
    assert not re.search(r'name="league_pending"[^>]*checked', page)
    # Unticked boxes are not sent: everything off but the organisers' queue.
    response = client.post("/accounts/me/emails/", {"league_pending": "on"})
    assert response.status_code == 302 and response["Location"].endswith("/accounts/me/#emails")
    chosen = EmailPreferences.objects.get(user=people["ada"])
    assert chosen.league_pending and not chosen.game_pending and not chosen.bot_rejected


def test_the_account_page_says_when_there_is_no_address(client, people):
    client.force_login(people["nomail"])
    assert "You have no e-mail address" in client.get("/accounts/me/").content.decode()


def test_choosing_needs_a_login(client, people):
    response = client.post("/accounts/me/emails/", {})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not EmailPreferences.objects.exists()


# --- the signed link in every e-mail ---------------------------------------------------------


def test_the_link_in_the_email_stops_that_kind_without_logging_in(
    client, people, django_capture_on_commit_callbacks
):
    send(django_capture_on_commit_callbacks, EmailKind.BOT_REJECTED, people["ada"].pk)
    (message,) = mail.outbox
    path = preferences_link(message)
    assert message.extra_headers["List-Unsubscribe"] == f"<https://cats.example.org{path}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # Opening it changes nothing (mail scanners open every link) ...
    page = client.get(path)
    assert page.status_code == 200 and "Stop these e-mails" in page.content.decode()
    assert EmailPreferences.objects.of(people["ada"].pk).bot_rejected
    # ... its button does, and the next one is not sent.
    assert client.post(path, {"stop": "1"}).status_code == 302
    assert not EmailPreferences.objects.get(user=people["ada"]).bot_rejected
    assert "You no longer get these e-mails" in client.get(path).content.decode()
    mail.outbox.clear()
    send(django_capture_on_commit_callbacks, EmailKind.BOT_REJECTED, people["ada"].pk)
    assert mail.outbox == []


def test_mail_programs_unsubscribe_in_one_click(client, people):
    path = urlsplit(
        emails.preferences_url(user_id=people["bob"].pk, kind=EmailKind.GAME_DISPUTED)
    ).path
    response = client.post(
        path, "List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 302
    chosen = EmailPreferences.objects.get(user=people["bob"])
    assert not chosen.game_disputed and chosen.game_pending  # only that kind


def test_the_link_page_saves_every_choice(client, people):
    path = urlsplit(emails.preferences_url(user_id=people["bob"].pk, kind="game_pending")).path
    client.post(path, {"game_pending": "on", "league_pending": "on"})
    chosen = EmailPreferences.objects.get(user=people["bob"])
    assert chosen.game_pending and chosen.league_pending and not chosen.game_deleted
    assert not EmailPreferences.objects.filter(user=people["ada"]).exists()


def test_a_forged_or_altered_link_changes_nothing(client, people):
    token = emails.preferences_token(user_id=people["ada"].pk, kind="game_pending")
    forged = token[:-1] + ("B" if token.endswith("A") else "A")
    for bad in (forged, "not-a-token", token + "x"):
        assert client.post(f"/accounts/emails/{bad}/", {"stop": "1"}).status_code == 404
    assert not EmailPreferences.objects.exists()


# --- a mail server that fails ----------------------------------------------------------------


class DownBackend(MemoryBackend):
    """A mail server that refuses the first `failures` messages (class-level counters)."""

    failures = 10**6
    attempts = 0

    def send_messages(self, messages):
        DownBackend.attempts += 1
        if DownBackend.attempts <= DownBackend.failures:
            raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")
        return super().send_messages(messages)


@pytest.fixture
def down_server(settings):
    """With eager tasks that propagate errors, Celery raises a task's first Retry to the caller;
    not propagating, it plays the retries in turn as a worker would (without the waits)."""
    settings.EMAIL_BACKEND = f"{__name__}.DownBackend"
    DownBackend.attempts = 0
    DownBackend.failures = 10**6
    propagates = celery_app.conf.task_eager_propagates
    celery_app.conf.task_eager_propagates = False
    yield DownBackend
    celery_app.conf.task_eager_propagates = propagates


def test_a_failing_server_is_retried_and_the_account_page_then_says_so(client, people, down_server):
    result = tasks.send_email.delay(
        kind=EmailKind.BOT_REJECTED, context={}, user_id=people["ada"].pk
    )
    assert result.failed() and isinstance(result.result, smtplib.SMTPServerDisconnected)
    assert down_server.attempts == tasks.EMAIL_RETRIES + 1  # bounded
    note = EmailPreferences.objects.get(user=people["ada"])
    assert note.failed_address == "ada@example.org" and "unexpectedly closed" in note.failed_reason
    client.force_login(people["ada"])
    page = client.get("/accounts/me/").content.decode()
    assert f"We could not e-mail you at ada@example.org on {note.failed_at:%-d %b %Y}" in page
    # The next e-mail that gets through clears the note.
    down_server.failures = 0
    assert tasks.send_email.delay(
        kind=EmailKind.BOT_REJECTED, context={}, user_id=people["ada"].pk
    ).get()
    assert EmailPreferences.objects.get(user=people["ada"]).failed_at is None
    assert "We could not e-mail you" not in client.get("/accounts/me/").content.decode()


def test_a_server_that_recovers_delivers_with_no_note(people, down_server):
    down_server.failures = 2
    assert tasks.send_email.delay(
        kind=EmailKind.BOT_REJECTED, context={}, user_id=people["ada"].pk
    ).get()
    assert down_server.attempts == 3 and len(mail.outbox) == 1
    assert not EmailPreferences.objects.filter(failed_at__isnull=False).exists()


def test_a_broker_that_is_down_never_breaks_the_write(
    people, django_capture_on_commit_callbacks, monkeypatch
):
    def broker_down(**_kwargs):
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(tasks.send_email, "delay", broker_down)
    send(django_capture_on_commit_callbacks, EmailKind.BOT_REJECTED, people["ada"].pk)
    assert mail.outbox == []  # lost and logged; the caller's response is not an error


# --- the arena -------------------------------------------------------------------------------


def test_the_owner_is_emailed_when_validation_rejects_a_version(
    people, django_capture_on_commit_callbacks
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(people["ada"])
    with django_capture_on_commit_callbacks(execute=True):
        response = api.post("/api/arena/bots/", {"name": "crashy", "source": CRASHY}, format="json")
    assert response.status_code == 201
    (message,) = mail.outbox
    assert message.to == ["ada@example.org"]
    assert message.subject == "[Catleague] Version 1 of your bot crashy was rejected"
    assert "boom" in message.body
    assert "https://cats.example.org/arena/bots/crashy/" in message.body
    preferences_link(message)
