"""E-mails about league games and invitations, against a real database with eager Celery and
the in-memory mail backend: who is told that a game waits for them, is disputed, corrected or
deleted (and who is not), that a rolled-back write e-mails nobody, and invitations by e-mail
from the members page."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from accounts.models import EmailPreferences
from league.clubs import invitations, services
from league.models import AuditEntry, Invitation, League
from league.results import confirmation
from league.results import services as result_services
from tests.league.conftest import cat_lady_table, record, set_rule
from tests.league.test_pages_entry import field_errors, page

DAY = dt.date(2026, 11, 10)
SITE = "https://cats.example.org"

# Every test here sends mail through a task: run it at once (the root conftest's fixture).
pytestmark = pytest.mark.usefixtures("eager_celery")


@pytest.fixture(autouse=True)
def memory_mail(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.CATLEAGUE_SITE_URL = SITE


@pytest.fixture
def sent(django_capture_on_commit_callbacks):
    """Run a write as a request would (callbacks after commit); the e-mails it sent, by address."""

    def run(write, *args, **kwargs):
        mail.outbox.clear()
        with django_capture_on_commit_callbacks(execute=True):
            write(*args, **kwargs)
        return {m.to[0]: m for m in mail.outbox}

    return run


@pytest.fixture
def guest(league, users):
    return services.guest_add(league=league, name="Gerry", by=users["olive"]).player


def addresses(*names):
    return {f"{name}@example.org" for name in names}


def link_in(message) -> str:
    """The game's (or league's) link in an e-mail, as a path for the test client."""
    found = re.search(rf"^{re.escape(SITE)}(/leagues/\S+)$", message.body, re.M)
    assert found, message.body
    return found.group(1)


# --- a game waits for confirmation ---------------------------------------------------------


def test_the_players_asked_to_confirm_are_emailed_not_the_logger_or_guests(
    sent, users, league, players, guest, log_game
):
    set_rule(league, users, League.Confirmation.ALL)
    emails = sent(
        log_game, "mia", DAY, ("mia", 30, 5), ("ned", 20, 3), ("pat", 10, 1), (guest, 5, 0)
    )
    assert set(emails) == addresses("ned", "pat")
    message = emails["ned@example.org"]
    assert message.subject == "[Catleague] Please confirm your game of 10 Nov 2026 in Tuesday Club"
    assert "Mia logged a game of Cat Lady" in message.body
    assert "1. Mia: 30" in message.body and "4. Gerry: 5" in message.body
    game = league.games.get()
    assert link_in(message) == f"/leagues/tuesday/games/{game.pk}/"


def test_a_game_final_at_once_emails_nobody(sent, users, league, players, log_game):
    assert sent(log_game, "mia", DAY, ("mia", 30, 5), ("ned", 9, 1)) == {}


def test_organisers_are_emailed_about_their_queue_only_if_they_chose_it(
    sent, users, league, players
):
    set_rule(league, users, League.Confirmation.ORGANISER)
    table = ((players["mia"], 30, 5), (players["ned"], 20, 3))
    assert sent(record, league, users["mia"], DAY, *table) == {}  # off by default: noisy
    EmailPreferences.objects.create(user=users["olive"], league_pending=True)
    emails = sent(record, league, users["mia"], DAY - dt.timedelta(days=1), *table)
    assert set(emails) == addresses("olive")
    assert "an organiser confirms results" in emails["olive@example.org"].body


def test_a_members_table_of_guests_is_emailed_to_the_organisers_who_chose_it(
    sent, users, league, players, guest, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    EmailPreferences.objects.create(user=users["olive"], league_pending=True)
    emails = sent(log_game, "mia", DAY, ("mia", 30, 5), (guest, 20, 3))
    assert set(emails) == addresses("olive")
    assert "Nobody else at the table can confirm it" in emails["olive@example.org"].body


def test_a_player_who_turned_the_kind_off_or_has_no_address_is_skipped(
    sent, users, league, players, log_game
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    EmailPreferences.objects.create(user=users["ned"], game_pending=False)
    users["pat"].email = ""
    users["pat"].save()
    emails = sent(
        log_game, "olive", DAY, ("olive", 30, 5), ("ned", 20, 3), ("pat", 10, 1), ("mia", 5, 0)
    )
    assert set(emails) == addresses("mia")


def test_the_link_in_the_email_turns_the_kind_off(client, sent, users, league, players):
    set_rule(league, users, League.Confirmation.ANOTHER)
    table = ((players["mia"], 30, 5), (players["ned"], 20, 3))
    emails = sent(record, league, users["mia"], DAY, *table)
    found = re.search(r"^(\S+/accounts/emails/\S+/)$", emails["ned@example.org"].body, re.M)
    assert found
    response = client.post(urlsplit(found.group(1)).path, {"stop": "1"})  # not logged in
    assert response.status_code == 302
    assert not EmailPreferences.objects.get(user=users["ned"]).game_pending
    assert sent(record, league, users["mia"], DAY - dt.timedelta(days=1), *table) == {}


def test_a_rolled_back_write_emails_nobody(
    django_capture_on_commit_callbacks, users, league, players
):
    set_rule(league, users, League.Confirmation.ANOTHER)
    table = ((players["mia"], 30, 5), (players["ned"], 20, 3))
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        record(league, users["mia"], DAY, *table)
        raise RuntimeError("the request failed after the game was written")
    assert callbacks == []  # discarded with the savepoint
    assert mail.outbox == [] and not league.games.exists()


# --- disputed, corrected, deleted ------------------------------------------------------------


@pytest.fixture
def pending_game(users, league, players, log_game):
    set_rule(league, users, League.Confirmation.ANOTHER)
    return log_game("mia", DAY, ("mia", 30, 5), ("ned", 20, 3))


def test_a_dispute_is_emailed_to_the_other_players_and_the_organisers(
    sent, users, league, players, pending_game
):
    emails = sent(
        confirmation.game_dispute, game=pending_game, by=users["ned"], reason="I had 25 & 4 cats"
    )
    assert set(emails) == addresses("mia", "olive")  # not Ned, not Pat (not in the game)
    message = emails["mia@example.org"]
    assert message.subject == "[Catleague] Ned disputes the game of 10 Nov 2026 in Tuesday Club"
    assert "Their reason: I had 25 & 4 cats" in message.body  # plain text: not &amp;


def test_a_correction_is_emailed_to_old_and_new_players_but_not_the_editor(
    sent, users, league, players, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    emails = sent(
        result_services.game_edit,
        game=game,
        by=users["olive"],
        participants=cat_lady_table((players["mia"], 18, 2), (players["pat"], 25, 4)),
    )
    assert set(emails) == addresses("mia", "ned", "pat")
    body = emails["ned@example.org"].body
    assert "Olive corrected a game" in body
    now, before = body.split("Before (played on 10 Nov 2026):")
    assert "1. Pat: 25" in now and "2. Mia: 18" in now
    assert "1. Mia: 30" in before and "2. Ned: 20" in before


def test_a_note_or_place_change_is_no_correction_of_the_result(
    sent, users, league, players, log_game
):
    game = log_game("olive", DAY, ("mia", 30, 5), ("ned", 20, 3))
    assert (
        sent(result_services.game_edit, game=game, by=users["olive"], notes="Lovely evening") == {}
    )
    assert AuditEntry.objects.filter(action=AuditEntry.Action.UPDATE, object_type="Game").exists()


def test_a_deletion_is_emailed_to_the_players(sent, users, league, players, guest, log_game):
    game = log_game("olive", DAY, ("mia", 30, 5), (guest, 20, 3))
    emails = sent(result_services.game_delete, game=game, by=users["olive"])
    assert set(emails) == addresses("mia")
    message = emails["mia@example.org"]
    assert message.subject == "[Catleague] Your game of 10 Nov 2026 in Tuesday Club was deleted"
    assert link_in(message) == "/leagues/tuesday/"


def test_settling_a_dispute_by_deleting_the_game_tells_the_players(
    sent, users, league, players, pending_game
):
    dispute = confirmation.game_dispute(game=pending_game, by=users["ned"], reason="Not played")
    emails = sent(confirmation.dispute_resolve, dispute=dispute, by=users["olive"], delete=True)
    assert set(emails) == addresses("mia", "ned")
    assert all("was deleted" in m.subject for m in emails.values())


def test_a_refused_dispute_emails_nobody(sent, users, league, players, pending_game):
    with pytest.raises(PermissionDenied):
        sent(confirmation.game_dispute, game=pending_game, by=users["pat"], reason="Not my game")
    assert mail.outbox == []


# --- invitations by e-mail -----------------------------------------------------------------


@pytest.fixture
def as_olive(client, users):
    client.force_login(users["olive"])
    return client


def test_an_invitation_is_emailed_from_the_members_page(
    as_olive, client, sent, users, league, players, guest
):
    responses = []
    emails = sent(
        lambda: responses.append(
            as_olive.post(
                "/leagues/tuesday/invitations/", {"player": guest.pk, "email": "gerry@example.net"}
            )
        )
    )
    (response,) = responses
    assert response.status_code == 200
    assert "e-mailed to gerry@example.net" in page(response)
    invitation = Invitation.objects.get()
    assert invitation.player == guest
    message = emails["gerry@example.net"]
    assert message.subject == "[Catleague] Olive invites you to Tuesday Club"
    assert "The invitation is for Gerry" in message.body
    found = re.search(rf"^{re.escape(SITE)}(/invitations/\S+/)$", message.body, re.M)
    assert found and found.group(1) == f"/invitations/{invitation.token}/"
    client.logout()
    assert client.get(found.group(1)).status_code == 200
    entry = AuditEntry.objects.get(object_type="Invitation")
    assert entry.changes["emailed_to"] == "gerry@example.net"


@pytest.mark.parametrize("address", ["not-an-address", "gerry@", "a b@example.org"])
def test_a_bad_address_is_shown_beside_the_field_and_nothing_is_made_or_sent(
    as_olive, sent, league, address
):
    responses = []
    emails = sent(
        lambda: responses.append(as_olive.post("/leagues/tuesday/invitations/", {"email": address}))
    )
    (response,) = responses
    assert response.status_code == 400
    assert field_errors(page(response), "id_email")
    assert emails == {} and not Invitation.objects.exists()


def test_a_bad_guest_and_address_are_both_refused_beside_their_fields(
    as_olive, sent, league, players
):
    responses = []
    sent(
        lambda: responses.append(
            as_olive.post(
                "/leagues/tuesday/invitations/", {"player": players["mia"].pk, "email": "x@"}
            )
        )
    )
    html = page(responses[0])
    assert field_errors(html, "id_player") and field_errors(html, "id_email")
    assert mail.outbox == [] and not Invitation.objects.exists()


def test_the_service_refuses_a_bad_address_and_writes_nothing(sent, users, league):
    with pytest.raises(ValidationError) as refused:
        sent(invitations.invitation_create, league=league, by=users["olive"], email="nobody")
    assert "email" in refused.value.message_dict
    assert not Invitation.objects.exists() and mail.outbox == []


def test_without_an_address_the_invitation_is_a_link_to_copy(as_olive, sent, league):
    responses = []
    emails = sent(lambda: responses.append(as_olive.post("/leagues/tuesday/invitations/", {})))
    assert emails == {} and 'id="invitation-link"' in page(responses[0])
