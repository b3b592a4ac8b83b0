"""Ada's bot "tabby" with v1 on the ladders and v2 on trial in its gauntlet, and a way to
record a gauntlet match's result without playing it (tests/arena and tests/e2e)."""

from __future__ import annotations

import copy
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.test import override_settings

from arena.gauntlet.services import gauntlet_create
from arena.matches.services import match_record
from arena.models import Bot, Gauntlet, Ladder, LadderEntry, Match
from tests.arena.triage_matches import house_log, version


def on_trial(deals: int = 2, seed: int = 918273645) -> Gauntlet:
    """tabby v1 active with its ladder entries; v2 on trial against it (queued, not played)."""
    ada = get_user_model().objects.create_user("ada", password="pw-123456789")
    tabby = Bot.objects.create(owner=ada, name="tabby")
    v1, v2 = version(tabby, 1), version(tabby, 2)
    tabby.active_version = v1
    tabby.save()
    for ladder in Ladder.objects.filter(game=tabby.game, active=True):
        LadderEntry.objects.create(ladder=ladder, version=v1, rating=1612.0, games=30)
    with override_settings(ARENA_GAUNTLET_DEALS=deals):
        return gauntlet_create(version=v2, replaces=v1, seed=seed)


def finish(match: Match, score: float) -> None:
    """Record ``match`` with the gauntlet's version winning (1), tying (0.5) or losing (0)."""
    seats = list(match.seats.order_by("seat"))
    mine = next(s.seat for s in seats if s.version_id == match.gauntlet_game.gauntlet.version_id)
    log = copy.deepcopy(house_log(3, 2))
    ranks = [1, 1] if score == 0.5 else [2, 2]
    if score != 0.5:
        ranks[mine] = 1 if score == 1 else 2
        ranks[1 - mine] = 2 if score == 1 else 1
    log["result"].update(ranks=ranks)
    log["faults"] = [[], []]
    match_record(match_id=match.pk, log=log)


def finish_every_deal(gauntlet: Gauntlet, score: Callable[[Match], float]) -> int:
    """Record every match of the gauntlet, the deals queued meanwhile too, each with
    ``score(match)``; how many were recorded."""
    recorded = 0
    while True:
        waiting = list(
            Match.objects.filter(gauntlet_game__gauntlet=gauntlet, status=Match.Status.QUEUED)
            .select_related("gauntlet_game")
            .order_by("pk")
        )
        if not waiting:
            return recorded
        for match in waiting:
            finish(match, score(match))
            recorded += 1


def matches_against(gauntlet: Gauntlet, opponent: str) -> list[Match]:
    return list(
        Match.objects.filter(
            gauntlet_game__gauntlet=gauntlet, gauntlet_game__opponent=opponent
        ).order_by("pk")
    )
