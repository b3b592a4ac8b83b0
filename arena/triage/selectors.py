"""Reads for a bot version's loss triage: its faults (the bot's own stderr only for its owner),
its biggest losses, and its head-to-head record against another version of the same bot.

Only matches that are over and whose deal is revealed (every seating of a duplicate set has
been played) appear: a move list, a fault's step or a replay link of a deal still being played
elsewhere would show cards another table has not seen yet. Every read here is bounded and a
fixed number of queries, however many matches the version played; the logs are read in the
database, a fault's parts of one seat at a time, never whole.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import (
    CharField,
    Count,
    Exists,
    F,
    Func,
    IntegerField,
    JSONField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    TextField,
    Value,
)
from django.db.models.fields.json import KeyTransform
from django.db.models.functions import Cast, JSONObject, Length, Right

from arena.common import with_seats
from arena.models import BotVersion, Match, MatchSeat
from arena.replay import move_text
from arena.triage.decisive import decisive_move_of

MAX_FAULTS = 50
MAX_LOSSES = 20
# The end of a bot's stderr shown with a fault: a traceback fits, and 50 faults' worth of
# the whole 16 KiB each would make a page of most of a megabyte.
STDERR_TAIL = 2000

# A fault's status (arena.sandbox.Status), as a person says it; the runner's reason text,
# which can quote the bot's own error, is its owner's only.
FAULT_WORDS = {
    "timeout": "took too long: no complete answer before the time limit",
    "crash": "crashed: the bot's process died, closed its output or could not start",
    "invalid": "answered with something that is not a move (or raised an error)",
    "illegal": "chose a move that is not legal at that point",
    "output_limit": "answered with a line longer than the limit",
}


def fault_words(status: str) -> str:
    """
    >>> fault_words("illegal")
    'chose a move that is not legal at that point'
    >>> fault_words("strange")
    'strange'
    """
    return FAULT_WORDS.get(status, status)


def settled_seats(version: BotVersion) -> QuerySet[MatchSeat]:
    """The version's seats in finished matches whose deal is revealed, newest match first."""
    open_sibling = Match.objects.filter(
        duplicate_set=OuterRef("match__duplicate_set"), status__in=Match.OPEN_STATUSES
    ).exclude(duplicate_set="")
    return (
        MatchSeat.objects.filter(version=version, match__status=Match.Status.FINISHED)
        .exclude(Exists(open_sibling))
        .order_by("-match_id")
    )


def unplayed_count(version: BotVersion) -> int:
    """Matches of the version the arena could not play (failed: a lost worker, again and
    again): the arena's fault, never counted against the bot."""
    return MatchSeat.objects.filter(version=version, match__status=Match.Status.FAILED).count()


# --- faults ----------------------------------------------------------------------------------


class _JsonbPath(Func):
    """``jsonb_extract_path(json, key, ...)``: a value inside a JSON column, read in the
    database (a seat's part of a log, by the seat's index)."""

    function = "jsonb_extract_path"
    output_field = JSONField()


class _JsonbPathText(Func):
    function = "jsonb_extract_path_text"
    output_field = TextField()


# The steps that faulted for one seat, in order (a fault at start-up has no step).
_FAULTED_STEPS = '$[*] ? (@.seat == $seat && @.status != "ok" && @.status != "forfeited")'


class _JsonbPathQuery(Func):
    function = "jsonb_path_query_array"
    output_field = JSONField()


@dataclass(frozen=True)
class Fault:
    match_id: int
    finished_at: dt.datetime | None
    seat: int
    move: int | None  # from 1; None: at start-up, before any move
    status: str
    words: str
    played: str  # the fallback move played in the bot's place
    ms: float | None
    reason: str | None  # the runner's text: the owner's only
    # The end of the bot's stderr in that match (at most STDERR_TAIL characters of the
    # limits.stderr_bytes kept), the owner's only, with the first of its faults in the match.
    stderr: str | None
    stderr_length: int  # of the whole stderr kept, which the match page shows its owner


def faults(version: BotVersion, *, owner: bool, limit: int = MAX_FAULTS) -> list[Fault]:
    """The version's faults, newest match first and in move order within a match, at most
    ``limit``. The reason and stderr are None unless ``owner``."""
    seat_index = Cast(F("seat"), output_field=CharField())
    stderr = _JsonbPathText(F("match__log"), Value("stderr"), seat_index)
    rows = (
        settled_seats(version)
        .filter(faults__gt=0)
        .annotate(
            fault_list=_JsonbPath(F("match__log"), Value("faults"), seat_index),
            faulted_steps=_JsonbPathQuery(
                KeyTransform("steps", "match__log"),
                Value(_FAULTED_STEPS),
                JSONObject(seat=F("seat")),
            ),
            stderr_tail=Right(stderr, STDERR_TAIL) if owner else Value(None, TextField()),
            stderr_length=Length(stderr) if owner else Value(None, IntegerField()),
        )
        .values_list(
            "match_id",
            "match__finished_at",
            "seat",
            "fault_list",
            "faulted_steps",
            "stderr_tail",
            "stderr_length",
        )[:limit]
    )
    found: list[Fault] = []
    for match_id, finished_at, seat, fault_list, faulted_steps, tail, length in rows:
        # The seat's faulted steps, in the order of its faults at a step.
        steps = iter(faulted_steps or [])
        for number, fault in enumerate(fault_list or []):
            step = fault.get("step")
            logged: dict[str, Any] = next(steps, {}) if step is not None else {}
            found.append(
                Fault(
                    match_id=match_id,
                    finished_at=finished_at,
                    seat=seat,
                    move=step + 1 if step is not None else None,
                    status=str(fault.get("status", "")),
                    words=fault_words(str(fault.get("status", ""))),
                    played=move_text(logged["action"]) if "action" in logged else "",
                    ms=logged.get("ms"),
                    reason=fault.get("reason") if owner else None,
                    stderr=(tail or "") if owner and number == 0 else None,
                    stderr_length=length or 0,
                )
            )
            if len(found) == limit:
                return found
    return found


# --- biggest losses ------------------------------------------------------------------------


@dataclass(frozen=True)
class Loss:
    match: Match
    seat: int
    place: int
    score: int | None
    winner_score: int | None
    margin: int | None  # points behind the winner
    forfeited: bool
    winner: str = ""


def biggest_losses(version: BotVersion, *, limit: int = MAX_LOSSES) -> list[Loss]:
    """The finished matches the version lost (placed below first), by the most points behind
    the winner, then the lowest place, newest first on a tie; at most ``limit``."""
    winner_score = (
        MatchSeat.objects.filter(match=OuterRef("match"), rank=1)
        .order_by("-score")
        .values("score")[:1]
    )
    rows = list(
        settled_seats(version)
        .filter(rank__gt=1)
        .annotate(winner_score=Subquery(winner_score, output_field=IntegerField()))
        .annotate(margin=F("winner_score") - F("score"))
        .order_by(F("margin").desc(nulls_last=True), "-rank", "-match_id")
        .values_list("match_id", "seat", "rank", "score", "winner_score", "margin", "forfeited")[
            :limit
        ]
    )
    matches = {m.pk: m for m in with_seats(Match.objects.filter(pk__in=[r[0] for r in rows]))}
    losses = []
    for match_id, seat, rank, score, top, margin, forfeited in rows:
        match = matches[match_id]
        assert rank is not None  # the filter on rank excludes unranked seats
        winners = [s for s in match.seats.all() if s.rank == 1]
        best = max(winners, key=lambda s: s.score or 0, default=None)
        losses.append(
            Loss(
                match=match,
                seat=seat,
                place=rank,
                score=score,
                winner_score=top,
                margin=margin,
                forfeited=forfeited,
                winner=best.label if best is not None else "",
            )
        )
    return losses


# --- head-to-head ----------------------------------------------------------------------------


@dataclass
class Record:
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass
class HeadToHead:
    """``version`` against ``other``: wins when it placed above, losses below, draws level."""

    other: BotVersion
    total: Record = field(default_factory=Record)
    by_players: dict[int, Record] = field(default_factory=dict)
    by_seat: dict[int, Record] = field(default_factory=dict)  # the version's seat, from 0


def head_to_head(version: BotVersion, other: BotVersion) -> HeadToHead:
    """Wins, losses and draws of ``version`` against ``other`` in the matches both played,
    by player count and by ``version``'s seat: one grouped query."""
    other_rank = MatchSeat.objects.filter(match=OuterRef("match"), version=other).values("rank")
    players = (
        MatchSeat.objects.filter(match=OuterRef("match"))
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    rows = (
        settled_seats(version)
        .annotate(
            other_rank=Subquery(other_rank[:1], output_field=IntegerField()),
            players=Subquery(players, output_field=IntegerField()),
        )
        .filter(other_rank__isnull=False, rank__isnull=False)
        .order_by()
        .values("players", "seat")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(rank__lt=F("other_rank"))),
            losses=Count("pk", filter=Q(rank__gt=F("other_rank"))),
        )
    )
    record = HeadToHead(other=other)
    by_players: dict[int, Record] = defaultdict(Record)
    by_seat: dict[int, Record] = defaultdict(Record)
    for row in rows:
        for tally in (record.total, by_players[row["players"]], by_seat[row["seat"]]):
            tally.games += row["games"]
            tally.wins += row["wins"]
            tally.losses += row["losses"]
            tally.draws += row["games"] - row["wins"] - row["losses"]
    record.by_players = dict(sorted(by_players.items()))
    record.by_seat = dict(sorted(by_seat.items()))
    return record


# --- the decisive move -------------------------------------------------------------------------

DECISIVE_CACHE_SECONDS = 7 * 24 * 3600


def decisive_move_in(version: BotVersion, match_id: int) -> tuple[bool, int | None]:
    """(whether the version lost match ``match_id`` and it may be shown, its decisive move).

    A finished match's log never changes, so the answer is cached: the scoring replays the
    whole match (tens of milliseconds for the base game, more for an expansion)."""
    found = (
        settled_seats(version)
        .filter(match_id=match_id)
        .values_list("seat", "match__finished_at")
        .first()
    )
    if found is None:
        return False, None
    seat, finished_at = found
    # The finish time in the key: a match id reused by another database never hits.
    finished = finished_at.timestamp() if finished_at else 0
    key = f"arena:triage:decisive:{match_id}:{seat}:{finished}"
    cached: dict[str, int | None] | None = cache.get(key)
    if cached is None:
        log = Match.objects.filter(pk=match_id).values_list("log", flat=True).first() or {}
        cached = {"move": decisive_move_of(log, seat=seat)}
        cache.set(key, cached, DECISIVE_CACHE_SECONDS)
    return True, cached["move"]
