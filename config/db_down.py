"""While the database is down, pages and the API answer 503 with a Retry-After header, never 500.

Django hands every uncaught exception, from a view or from a middleware before it (the
session, the user), to ``handler500`` with the exception still in ``sys.exc_info()``. A
connection refused or lost (``OperationalError``, ``InterfaceError``) is no bug of ours: the
answer is 503 Service Unavailable with Retry-After, in the API's error shape under /api/ and
the site's 503 page elsewhere. The page is rendered without the database: no context
processors (no session, no messages), no user. Every other exception keeps its 500.
"""

from __future__ import annotations

import sys

from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader

from config.api import errors as api_errors

# Seconds a client is asked to wait: a restarting database is usually back within them.
RETRY_AFTER_S = 30
DATABASE_DOWN = (OperationalError, InterfaceError)
_FALLBACK = (
    "<!doctype html><title>Back in a moment · Catleague</title><h1>Back in a moment</h1>"
    "<p>Catleague cannot reach its database just now. Try again in a moment.</p>"
)


def database_down(exc: BaseException | None) -> bool:
    """Whether ``exc``, or an exception it was raised from or while handling, says the
    database cannot be reached."""
    for _ in range(8):  # a chain is short; a cycle must not hang the error page
        if exc is None:
            return False
        if isinstance(exc, DATABASE_DOWN):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 while the database is down, else the usual 500 answers."""
    if not database_down(sys.exc_info()[1]):
        return api_errors.server_error(request)
    response: HttpResponse
    if request.path.startswith(api_errors.API_PREFIX):
        response = api_errors.error_response(
            503,
            "service_unavailable",
            f"The database is unavailable for a moment; try again in {RETRY_AFTER_S} seconds.",
        )
    else:
        response = HttpResponse(_page(request), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response


def _page(request: HttpRequest) -> str:
    context = {
        "request": request,
        "user": AnonymousUser(),  # request.user would ask the database
        "retry_after": RETRY_AFTER_S,
        "reload": request.method in ("GET", "HEAD"),
    }
    try:
        return loader.get_template("503.html").render(context)
    except Exception:  # the error page itself must not fail
        return _FALLBACK
