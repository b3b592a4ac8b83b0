"""The worker publishes the match it plays for its watchers: one row per match
(:class:`arena.models.MatchWatch`), rung through :mod:`arena.live.wakeup` so the watch pages
waiting on it look at once.

A match between bots publishes at most every :data:`PUBLISH_EVERY_S` (the first time that
long after it starts) and always its last move: a ladder match between house bots plays
hundreds of moves a second, nobody follows faster than a few a second, and a write costs some
milliseconds (a match over within the interval writes once, at its end). Each move is kept in
memory in between (its position and the one before) and the log lines of the moves between two
writes are worded when the row is written, so none is lost. A live match publishes every move
from the deal on: a person sets its pace, and its table writes a row per person per move anyway.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import connection, transaction

import engine
from arena.live import wakeup
from arena.models import Match, MatchWatch
from arena.watch.board import spectator_view, watch_line

# What a spectator reads while another seating of the same deal is in play.
SHARED_DEAL = (
    "This deal is being played at another table too: you can watch once the other tables are "
    "done, so that nothing seen here gives their hidden cards away. The replay shows everything "
    "when every table is over."
)

__all__ = ["LOG_LINES", "PUBLISH_EVERY_S", "SHARED_DEAL", "WatchWriter", "watch_key", "watch_ring"]

# At most one write of a match's watch row this often while it plays (seconds).
PUBLISH_EVERY_S = 0.25
LOG_LINES = 40


def watch_key(match_id: int) -> str:
    """What a watch page, waiting for the match to move on, listens to."""
    return f"watch-{match_id}"


def watch_ring(match_id: int) -> None:
    """Wake the match's watch pages once the transaction commits (it ended, failed, waits)."""
    wakeup.ring_on_commit(watch_key(match_id))


class WatchWriter:
    """The runner's step observer that publishes the spectator's view of ``match``.

    A match played again from its seed (a lost worker, a takeback) starts its row again from
    the deal: watchers see the moves replayed quickly up to where it was."""

    def __init__(self, match: Match) -> None:
        self.match_id = match.pk
        self.every_s = 0.0 if match.kind == Match.Kind.LIVE else PUBLISH_EVERY_S
        self.game = engine.load_game(
            match.game, options={**(match.options or {}), "players": match.seats.count()}
        )
        self.names = {s.seat: s.label for s in match.seats.select_related("version__bot", "player")}
        self.before: Any = None  # the position the next move is played in
        self.pending: list[tuple[int, dict[str, Any], Any]] = []  # moves not yet worded
        self.log: list[dict[str, Any]] = []
        self.last_write = time.monotonic()
        self.writes = 0

    def __call__(self, step: int, entry: dict[str, Any], state: Any) -> None:
        before, self.before = self.before, state
        if entry and before is not None:
            self.pending.append((step, entry, before))
            del self.pending[:-LOG_LINES]  # older lines would be cut from the log anyway
        now = time.monotonic()
        if not state.is_terminal() and now - self.last_write < self.every_s:
            return
        self.last_write = now
        self._publish(step, state)

    def _publish(self, step: int, state: Any) -> None:
        for number, entry, before in self.pending:
            action = self.game.action_from_json(entry["action"])
            seat = entry["seat"]
            self.log.append(
                watch_line(
                    self.game,
                    before,
                    action,
                    step=number,
                    seat=seat,
                    who=self.names.get(seat, ""),
                    status=entry["status"],
                )
            )
        self.pending.clear()
        self.log = self.log[-LOG_LINES:]
        row = MatchWatch(
            match_id=self.match_id,
            step=step,
            board=spectator_view(self.game, state),
            log=self.log,
        )
        with transaction.atomic():
            if connection.vendor == "postgresql":
                # The commit's wait for the disk was most of a write's cost (some ms on a busy
                # machine, each time): a row the next move rewrites may be lost in a crash.
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL synchronous_commit TO OFF")
            # One upsert: the row is made by the first write of the match.
            MatchWatch.objects.bulk_create(
                [row],
                update_conflicts=True,
                unique_fields=["match"],
                update_fields=["step", "board", "log", "updated_at"],
            )
            watch_ring(self.match_id)
        self.writes += 1
