"""Finished live games for tests that look at what comes after the game (the review): the
person's seat is played by a house bot in-process, and the log is recorded as the worker would
record a live match's."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.test import Client

from arena.common import SeatInput
from arena.live.services import live_create
from arena.matches.services import match_record
from arena.models import Match
from arena.runner import BotSpec, run_match


def finished_live_match(
    user: Any, *, game: str = "cat-lady", opponents: tuple[str, ...] = ("greedy",), seed: int = 3
) -> Match:
    """A live match of ``user`` (seat 0, moves by the house ``random`` bot) against house
    bots, played and recorded; the caller's on-commit hooks decide whether reviews run.

    Created and recorded in one transaction: the match's own task, sent when it commits,
    finds it finished instead of asking the person for a move."""
    with transaction.atomic():
        match = live_create(
            user=user,
            game=game,
            seats=[None, *[SeatInput(builtin=o) for o in opponents]],
            seed=seed,
        )
        log = run_match(
            game=game,
            seed=seed,
            bots=[BotSpec.builtin("random"), *[BotSpec.builtin(o) for o in opponents]],
            mode="unsafe",
        )
        match_record(match_id=match.pk, log=log)
    match.refresh_from_db()
    return match


def client_of(user: Any) -> Client:
    """A test client logged in as ``user``."""
    client = Client()
    client.force_login(user)
    return client
