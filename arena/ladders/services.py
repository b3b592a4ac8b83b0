"""Ladders: one per game and player count, matches scheduled in duplicate sets (one deal per
seat rotation) by Celery beat, and the ratings a ladder match changes."""

from __future__ import annotations

import random
import uuid
from collections.abc import Sequence

from django.db import transaction

import engine
from arena.common import SeatInput, check_game, game_label, match_create, seat_rank
from arena.models import (
    BotVersion,
    Ladder,
    LadderEntry,
    Match,
    MatchSeat,
)
from ratings.elo import Seat, rate_game


def rate_ladder_match(ladder: Ladder, seats: list[MatchSeat]) -> None:
    entries = {
        e.version_id: e
        for e in LadderEntry.objects.select_for_update().filter(
            ladder=ladder, version_id__in=[s.version_id for s in seats if s.version_id]
        )
    }
    rated = [
        (s, entries[s.version_id])
        for s in seats
        if s.version_id is not None and s.version_id in entries
    ]
    if len(rated) >= 2:
        changes = rate_game(
            [Seat(e.version_id, e.rating, seat_rank(s)) for s, e in rated], ladder.k_factor
        )
        for (seat, entry), change in zip(rated, changes, strict=True):
            seat.rating_before = change.rating_before
            seat.rating_after = change.rating_after
            entry.rating = change.rating_after
    for seat, entry in rated:
        entry.games += 1
        won = seat.rank == 1 and not seat.forfeited
        entry.wins += int(won)
        entry.forfeits += int(seat.forfeited)
        games, wins = entry.seat_record.get(str(seat.seat), [0, 0])
        entry.seat_record[str(seat.seat)] = [games + 1, wins + int(won)]
    LadderEntry.objects.bulk_update(
        entries.values(), ["rating", "games", "wins", "forfeits", "seat_record"]
    )


def ladders_ensure(game: str = "cat-lady") -> list[Ladder]:
    """One ladder per player count the game is played by (named with its demo deck, if any)."""
    check_game(game)
    label = game_label(game)
    ladders = []
    for players in engine.supported_players(game):
        ladder, _ = Ladder.objects.get_or_create(
            game=game,
            players=players,
            defaults={"name": f"{label}, {players} players"},
        )
        ladders.append(ladder)
    return ladders


def pick_table(entries: Sequence[LadderEntry], size: int, rng: random.Random) -> list[LadderEntry]:
    """Prefer the bots with the fewest games, then fill the table with the closest ratings."""
    if len(entries) < size:
        return []
    fewest = min(e.games for e in entries)
    anchors = [e for e in entries if e.games == fewest]
    anchor = rng.choice(anchors)
    others = sorted(
        (e for e in entries if e.pk != anchor.pk),
        key=lambda e: (abs(e.rating - anchor.rating), e.games, rng.random()),
    )
    return [anchor, *others[: size - 1]]


@transaction.atomic
def ladder_schedule(*, ladder: Ladder, rng: random.Random | None = None) -> list[Match]:
    """Queue one duplicate set: the same deck seed once per seat rotation of one table."""
    rng = rng or random.Random()
    entries = list(
        LadderEntry.objects.filter(
            ladder=ladder, version__status=BotVersion.Status.ACTIVE
        ).select_related("version")
    )
    table = pick_table(entries, ladder.players, rng)
    if not table:
        return []
    seed = rng.randrange(2**31)
    set_id = uuid.uuid4().hex
    matches = []
    for shift in range(ladder.players):
        rotated = table[shift:] + table[:shift]
        matches.append(
            match_create(
                kind=Match.Kind.LADDER,
                ladder=ladder,
                seed=seed,
                duplicate_set=set_id,
                seats=[SeatInput(version=e.version) for e in rotated],
                game=ladder.game,
            )
        )
    return matches


def ladder_tick(*, backlog: int = 4) -> int:
    """Keep each active ladder's queue topped up; called by Celery beat."""
    queued = 0
    for ladder in Ladder.objects.filter(active=True):
        waiting = ladder.matches.filter(
            status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
        ).count()
        if waiting < backlog:
            queued += len(ladder_schedule(ladder=ladder))
    return queued
