"""Sign-up, log-in (and its throttling), password reset, the sign-up setting."""

from __future__ import annotations

import datetime as dt

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework.test import APIClient

from league.clubs import invitations, services
from league.models import Invitation, Player

User = get_user_model()
GOOD_PASSWORD = "whiskers-on-kittens-42"


def signup(client, **overrides):
    data = {
        "username": "fern",
        "email": "fern@example.org",
        "display_name": "Fern",
        "password1": GOOD_PASSWORD,
        "password2": GOOD_PASSWORD,
        **overrides,
    }
    return client.post("/accounts/signup/", data)


@pytest.mark.django_db
def test_signing_up_makes_an_account_with_its_player_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="fern")
    assert Player.objects.get(user=user).name == "Fern"
    assert client.session["_auth_user_id"] == str(user.pk)


@pytest.mark.django_db
def test_sign_up_sends_an_email_confirmation(client, mailoutbox):
    signup(client)
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["fern@example.org"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("overrides", "field", "text"),
    [
        ({"password1": "12345678", "password2": "12345678"}, "password1", "entirely numeric"),
        ({"password1": "short", "password2": "short"}, "password1", "too short"),
        ({"password2": "something-else-99"}, "password2", "same password"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"username": ""}, "username", "required"),
    ],
)
def test_bad_sign_up_input_is_shown_beside_its_field_and_creates_nothing(
    client, overrides, field, text
):
    services.player_create(name="Taken Name")
    response = signup(client, **overrides)
    assert response.status_code == 200
    form = response.context["form"]
    assert any(text in message for message in form.errors[field]), form.errors
    assert f'id="id_{field}_error"' in response.content.decode()
    assert not User.objects.filter(username="fern").exists()


@pytest.mark.django_db
def test_closed_sign_up_refuses_new_accounts(client, settings):
    settings.CATLEAGUE_SIGNUP = "closed"
    page = client.get("/accounts/signup/").content.decode()
    assert "Sign-up is closed" in page
    signup(client)
    assert not User.objects.filter(username="fern").exists()
    assert "Sign up" not in client.get("/").content.decode()


@pytest.mark.django_db
def test_invitation_only_sign_up_needs_an_open_invitation(client, settings):
    settings.CATLEAGUE_SIGNUP = "invite"
    signup(client)
    assert not User.objects.filter(username="fern").exists()
    olive = User.objects.create_user("olive", "olive@example.org", GOOD_PASSWORD)
    league = services.league_create(name="Club", slug="club", by=olive)
    invitation = invitations.invitation_create(league=league, by=olive)
    client.get(f"/invitations/{invitation.token}/")
    response = signup(client)
    assert response.status_code == 302
    assert User.objects.filter(username="fern").exists()


@pytest.mark.django_db
def test_an_expired_invitation_does_not_open_sign_up(client, settings):
    settings.CATLEAGUE_SIGNUP = "invite"
    olive = User.objects.create_user("olive", "olive@example.org", GOOD_PASSWORD)
    league = services.league_create(name="Club", slug="club", by=olive)
    invitation = invitations.invitation_create(league=league, by=olive)
    client.get(f"/invitations/{invitation.token}/")
    Invitation.objects.filter(pk=invitation.pk).update(
        expires_at=timezone.now() - dt.timedelta(minutes=1)
    )
    signup(client)
    assert not User.objects.filter(username="fern").exists()


@pytest.mark.django_db
def test_log_in_by_username_or_email_and_log_out(client):
    user = User.objects.create_user("fern", "fern@example.org", GOOD_PASSWORD)
    assert (
        client.post(
            "/accounts/login/", {"login": "fern@example.org", "password": GOOD_PASSWORD}
        ).status_code
        == 302
    )
    assert client.session["_auth_user_id"] == str(user.pk)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_the_demo_login_still_works(client):
    from league.demo import seed_demo_league

    seed_demo_league(games=2)
    response = client.post("/accounts/login/", {"login": "demo", "password": "demo-password"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(User.objects.get(username="demo").pk)


@pytest.mark.django_db
def test_failed_log_ins_are_recorded_and_lock_the_account_out(client, settings):
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("fern", "fern@example.org", GOOD_PASSWORD)
    for _ in range(2):
        response = client.post("/accounts/login/", {"login": "fern", "password": "wrong"})
        assert response.status_code == 200
    assert AccessFailureLog.objects.filter(username="fern").count() == 2
    locked = client.post("/accounts/login/", {"login": "fern", "password": "wrong"})
    assert locked.status_code == 429 and "Too many failed log-ins" in locked.content.decode()
    right = client.post("/accounts/login/", {"login": "fern", "password": GOOD_PASSWORD})
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    assert AccessAttempt.objects.get(username="fern").failures_since_start >= 3


@pytest.mark.django_db
def test_the_api_token_endpoint_works_with_the_log_in_throttle(settings):
    settings.AXES_FAILURE_LIMIT = 3
    User.objects.create_user("fern", "fern@example.org", GOOD_PASSWORD)
    api = APIClient()
    good = api.post("/api/auth/token/", {"username": "fern", "password": GOOD_PASSWORD})
    assert good.status_code == 200 and good.json()["token"]
    key = good.json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/players/", {"name": "Via old token"}, format="json").status_code == 201
    api.credentials()
    for _ in range(3):
        assert (
            api.post("/api/auth/token/", {"username": "fern", "password": "no"}).status_code == 400
        )
    refused = api.post("/api/auth/token/", {"username": "fern", "password": GOOD_PASSWORD})
    assert refused.status_code == 400 and "token" not in refused.json()
    assert AccessFailureLog.objects.filter(username="fern").count() >= 3


@pytest.mark.django_db
def test_password_reset_sends_a_link_that_sets_a_new_password(client, mailoutbox):
    User.objects.create_user("fern", "fern@example.org", GOOD_PASSWORD)
    response = client.post("/accounts/password/reset/", {"email": "fern@example.org"})
    assert response.status_code == 302 and len(mailoutbox) == 1
    link = next(
        line for line in mailoutbox[0].body.splitlines() if "/accounts/password/reset/key/" in line
    )
    path = link[link.index("/accounts/") :].strip()
    form_page = client.get(path, follow=True)
    action = form_page.redirect_chain[-1][0] if form_page.redirect_chain else path
    done = client.post(
        action, {"password1": "a-brand-new-secret-7", "password2": "a-brand-new-secret-7"}
    )
    assert done.status_code == 302
    assert User.objects.get(username="fern").check_password("a-brand-new-secret-7")


@pytest.mark.django_db
def test_password_change_checks_the_current_password(client):
    user = User.objects.create_user("fern", "fern@example.org", GOOD_PASSWORD)
    client.force_login(user)
    wrong = client.post(
        "/accounts/password/change/",
        {"oldpassword": "nope", "password1": "another-secret-88", "password2": "another-secret-88"},
    )
    assert wrong.status_code == 200 and "oldpassword" in wrong.context["form"].errors
    assert User.objects.get(pk=user.pk).check_password(GOOD_PASSWORD)
    right = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": GOOD_PASSWORD,
            "password1": "another-secret-88",
            "password2": "another-secret-88",
        },
    )
    assert right.status_code == 302
    assert User.objects.get(pk=user.pk).check_password("another-secret-88")
