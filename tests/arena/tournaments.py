"""Tournaments as the arena tests start them: the matches they queue run before the test looks.

Shared by the tournament, page and Cantankerous tests; it lives here rather than in
tests/arena/conftest.py because it is a plain function the tests call, not a fixture.
"""

from __future__ import annotations

from arena.models import Tournament
from arena.tournaments.services import tournament_start


def tournament_played(capture_on_commit, **options) -> Tournament:
    """Start a tournament (``options`` as ``tournament_start`` takes them), run the matches it
    queues on commit (the tests' Celery is eager) and read it back as they left it.

    ``capture_on_commit`` is pytest-django's ``django_capture_on_commit_callbacks``.
    """
    with capture_on_commit(execute=True):
        tournament = tournament_start(**options)
    tournament.refresh_from_db()
    return tournament
