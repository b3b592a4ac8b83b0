"""While the database is down, pages and the API answer 503 with Retry-After in the site's
style and the API's error shape, never 500 — also when a middleware meets the fault first.

The database is made unreachable for real: the connection points at a closed port."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client

from config.db_down import RETRY_AFTER_S, database_down


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # free, and nobody listens once it is closed


@pytest.fixture
def db_down(django_db_blocker, settings) -> Iterator[None]:
    """No database: every query raises OperationalError (connection refused). DEBUG off."""
    settings.DEBUG = False
    saved = dict(connection.settings_dict)
    with django_db_blocker.unblock():
        connection.close()
        if connection.vendor == "sqlite":
            connection.settings_dict["NAME"] = "/nonexistent/catleague.sqlite3"
        else:
            connection.settings_dict.update(HOST="127.0.0.1", PORT=str(closed_port()))
        try:
            yield
        finally:
            connection.close()
            connection.settings_dict.clear()
            connection.settings_dict.update(saved)


def touch_the_user(get_response):
    """As an authentication middleware would: read the user before the view runs."""

    def middleware(request: HttpRequest) -> HttpResponse:
        _ = request.user.is_authenticated
        return get_response(request)

    return middleware


def _client() -> Client:
    client = Client(raise_request_exception=False)
    client.cookies["sessionid"] = "a" * 32  # a session to load: the sessions middleware asks
    return client


def _assert_unavailable(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_S)
    assert response["Cache-Control"] == "no-store"


@pytest.mark.parametrize("path", ["/", "/leagues/", "/arena/", "/accounts/"])
def test_pages_answer_503_in_the_sites_style(db_down, path):
    response = _client().get(path, follow=False)
    _assert_unavailable(response)
    page = response.content.decode()
    assert "Back in a moment" in page and "cannot reach its database" in page
    assert 'class="site-header"' in page and "css/site.css" in page  # base.html's frame
    assert f'http-equiv="refresh" content="{RETRY_AFTER_S}"' in page


def test_a_form_sent_while_the_database_is_down_is_not_reloaded_by_itself(db_down):
    response = _client().post("/accounts/login/", {"login": "pia", "password": "x"})
    _assert_unavailable(response)
    assert "http-equiv" not in response.content.decode()


@pytest.mark.parametrize(
    ("method", "path"),
    [("get", "/api/leagues/"), ("get", "/api/arena/matches/"), ("post", "/api/arena/bots/")],
)
def test_the_api_answers_503_in_its_error_shape(db_down, method, path):
    client = _client()
    response = getattr(client, method)(path, HTTP_AUTHORIZATION="Token " + "b" * 40)
    _assert_unavailable(response)
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["error"] == "service_unavailable"
    assert "database" in body["detail"] and set(body) == {"error", "detail"}


def test_a_fault_met_by_a_middleware_before_the_view_answers_503(db_down, settings):
    # /healthz itself needs no session and answers in JSON; here a middleware fails first.
    assert "Retry-After" not in _client().get("/healthz")
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, "tests.test_db_down.touch_the_user"]
    response = _client().get("/healthz")
    _assert_unavailable(response)
    assert "Back in a moment" in response.content.decode()
    unknown = _client().get("/no-such-page/")  # the 404 page would ask for the user too
    _assert_unavailable(unknown)


def test_other_server_errors_stay_500(settings):
    settings.DEBUG = False
    assert not database_down(ValueError("a bug"))
    assert not database_down(None)
    from django.db import OperationalError

    try:
        try:
            raise OperationalError("connection refused")
        except OperationalError as exc:
            raise RuntimeError("while handling it") from exc
    except RuntimeError as wrapped:
        assert database_down(wrapped)
