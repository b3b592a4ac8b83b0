"""Periodic league jobs. Tasks only call a service."""

from __future__ import annotations

from celery import shared_task

from league.results import confirmation


@shared_task
def confirm_overdue_games() -> int:
    """Confirm the games nobody confirmed or disputed within their league's window."""
    return confirmation.games_confirm_overdue()
