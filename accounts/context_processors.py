from functools import cache

from django.conf import settings

from league.results import selectors as confirmation_selectors


def signup(request):
    """Whether pages may offer "Create an account" (CATLEAGUE_SIGNUP)."""
    return {"signup_mode": settings.CATLEAGUE_SIGNUP}


def waiting_for_you(request):
    """How many games wait for the visitor's confirmation, for the menu of every page.

    A callable, so that the one query runs only when a template shows the count (an API answer
    or a plain error page never asks), and at most once per page."""
    user = getattr(request, "user", None)

    @cache
    def count() -> int:
        return 0 if user is None else confirmation_selectors.waiting_count(user=user)

    return {"games_waiting_for_you": count}
