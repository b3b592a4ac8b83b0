"""Live matches: a person sits at the table with bots.

A live match is an ordinary arena match (same runner, same sandbox and limits for the bots,
same log and replay) in which one seat is a person. The worker that plays it (on its own
queue, so a person thinking for minutes never holds up ladder matches) asks the person through
the database: :class:`DatabaseHumanSeat` writes the question to the seat's :class:`LiveSeat`
and waits for the answer the person's page writes with :func:`live_answer`. After every move
:class:`LiveWriter` writes the position as the person's seat sees it (from that seat's
observation, exactly what a bot in that seat would get) and a readable log of the moves as
that seat observed them, which the page long-polls. Neither side polls the database for the
other: each write rings the waiting side (:mod:`arena.live.wakeup`).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import random
import secrets
import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

import engine
from arena.common import SeatInput, check_game, match_create, seat_rank
from arena.live import wakeup
from arena.live.moves import legal_words, played_words
from arena.live.strength import strengths_set
from arena.models import (
    LiveInvitation,
    LiveSeat,
    Match,
    MatchSeat,
    MoveReview,
    PlayRating,
)
from arena.replay import seat_view
from config.celery import app as celery_app
from ratings.elo import Seat, rate_game

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

logger = logging.getLogger(__name__)


LOG_LINES = 40
REVIEW_TASK = "arena.tasks.review_run"
RESIGN = {"resign": True}  # what a resigning person answers the runner
# How long a table waits for the friends it invited before it is called off.
FRIENDS_WAIT = dt.timedelta(minutes=10)


class TableRewound(Exception):
    """A takeback (:mod:`arena.live.takeback`) sent the match back to the queue while this
    worker played it: another worker plays it again from its records, this one stops."""


def answer_key(live_id: int) -> str:
    """What the worker waiting for a seat's answer listens to."""
    return f"answer-{live_id}"


def board_key(live_id: int) -> str:
    """What the seat's page, waiting for the table to change, listens to."""
    return f"board-{live_id}"


def live_ring_table(match_id: int) -> None:
    """Wake every page of the match (it ended, failed or went back to the queue)."""
    for live_id in LiveSeat.objects.filter(match_id=match_id).values_list("pk", flat=True):
        wakeup.ring_on_commit(board_key(live_id))


@transaction.atomic
def live_create(
    *,
    user: User | AnonymousUser,
    game: str,
    seats: Sequence[SeatInput | None],
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    friends: Collection[int] = (),
    rated: bool = True,
    strengths: Sequence[str] | None = None,
) -> Match:
    """Start a live match: ``seats`` in table order, ``None`` where a person sits: the host
    once, and each seat of ``friends`` (left for a friend: an invitation link, or a guest on
    the host's device; the match waits for them, :mod:`arena.live.company`). ``strengths`` in
    the same order, "" where none (:mod:`arena.live.strength`). An unrated match (``rated``
    False) allows takebacks and never changes a rating."""
    if not user.is_authenticated:
        raise ValidationError({"seats": ["Log in to take a seat."]})
    check_game(game)
    people = [index for index, seat in enumerate(seats) if seat is None]
    if not set(friends) <= set(people) or len(people) != len(set(friends)) + 1:
        raise ValidationError({"seats": ["Take exactly one seat yourself."]})
    sizes = engine.supported_players(game)
    if not min(sizes) <= len(seats) <= max(sizes):
        raise ValidationError({"seats": [f"This game seats {min(sizes)} to {max(sizes)} players."]})
    errors: dict[str, list[str]] = {}
    for index, seat in enumerate(seats):
        if seat is not None and seat.version is not None and seat.version.status != "active":
            errors[f"seats.{index}"] = [f"{seat.version} is {seat.version.status}, not active."]
    if errors:
        raise ValidationError(errors)
    you = next(index for index in people if index not in friends)
    match = match_create(
        kind=Match.Kind.LIVE,
        game=game,
        requested_by=user,
        options=options,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
        seats=[
            seat if seat is not None else SeatInput(player=user if index == you else None)
            for index, seat in enumerate(seats)
        ],
    )
    # Committed together with the match, before its worker can read either.
    match.limits = dict(match.limits, human_move_ms=settings.ARENA_HUMAN_MOVE_S * 1000)
    if friends:
        match.seats_open_until = timezone.now() + FRIENDS_WAIT
    match.rated = rated
    match.save(update_fields=["limits", "seats_open_until", "rated"])
    strengths_set(match, strengths or [])
    LiveSeat.objects.create(match=match, seat=you, user=user)
    LiveInvitation.objects.bulk_create(
        LiveInvitation(match=match, seat=seat, token=secrets.token_urlsafe(32))
        for seat in sorted(friends)
    )
    return match


def person_seat(match: Match, user: User, seat: int | None = None) -> LiveSeat | None:
    """``user``'s seat at the table: ``seat`` if it is one they hold (their own, or a guest's
    on their device), else their own; None if they hold none."""
    seats = LiveSeat.objects.filter(match=match, user=user)
    if seat is not None:
        return seats.filter(seat=seat).first()
    return seats.filter(match__seats__seat=F("seat"), match__seats__guest="").first()


@transaction.atomic
def live_answer(
    *, match: Match, user: User, step: int, index: int, seat_number: int | None = None
) -> LiveSeat:
    """The person's move for ``step``: one of the legal actions they were shown, by index
    (``seat_number``: a guest's seat on the host's device; the host's own by default)."""
    held = person_seat(match, user, seat_number)
    seat = LiveSeat.objects.select_for_update().filter(pk=held.pk).first() if held else None
    if seat is None:
        raise ValidationError({"match": ["You have no seat in this match."]})
    if match.status in (Match.Status.FINISHED, Match.Status.FAILED):
        raise ValidationError({"step": ["The match is over."]})
    if seat.asked_step is None or seat.asked_step != step:
        raise ValidationError({"step": ["It is not your move (the page may be out of date)."]})
    if not isinstance(index, int) or not 0 <= index < len(seat.legal):
        raise ValidationError({"index": [f"Choose one of the {len(seat.legal)} legal moves."]})
    seat.answer = {"step": step, "index": index}
    seat.save(update_fields=["answer", "updated_at"])
    wakeup.ring_on_commit(answer_key(seat.pk))
    return seat


@transaction.atomic
def live_resign(*, match: Match, user: User, seat_number: int | None = None) -> LiveSeat:
    """The person gives up: their seat forfeits at its next move (at once if asked now) and
    ranks below every seat that plays on, so the game is rated as a loss. Bots play it out."""
    held = person_seat(match, user, seat_number)
    seat = LiveSeat.objects.select_for_update().filter(pk=held.pk).first() if held else None
    if seat is None:
        raise ValidationError({"match": ["You have no seat in this match."]})
    if match.status in (Match.Status.FINISHED, Match.Status.FAILED):
        raise ValidationError({"match": ["The match is over."]})
    if seat.moves.get("resign"):
        raise ValidationError({"match": ["You have resigned already."]})
    # Kept with the answers, so a match played again after a lost worker resigns at the same
    # move: the moves before it are replayed from their own records first.
    seat.moves = {**seat.moves, "resign": True}
    seat.save(update_fields=["moves", "updated_at"])
    wakeup.ring_on_commit(answer_key(seat.pk))
    return seat


def live_rematch(*, match: Match, user: User) -> Match:
    """The same game with the same opponents, every seat moved one place on (so the person
    sits elsewhere and another seat starts); options carry over, the deal is new."""
    if not LiveSeat.objects.filter(match=match, user=user).exists():
        raise ValidationError({"match": ["You have no seat in this match."]})
    if match.status not in (Match.Status.FINISHED, Match.Status.FAILED):
        raise ValidationError({"match": ["Finish or resign this game first."]})
    old = list(match.seats.select_related("version__bot", "player").order_by("seat"))
    rotated = old[-1:] + old[:-1]
    strengths = [seat.strength for seat in rotated]
    seats: list[SeatInput | None] = [
        None if seat.is_person else SeatInput(version=seat.version, builtin=seat.builtin)
        for seat in rotated
    ]
    # The other people's seats wait for them again: new links, or the guests seated anew.
    friends = [
        index for index, seat in enumerate(rotated) if seat.is_person and seat.player_id != user.pk
    ]
    options = {k: v for k, v in (match.options or {}).items() if k != "players"}
    return live_create(
        user=user,
        game=match.game,
        seats=seats,
        options=options or None,
        friends=friends,
        rated=match.rated,
        strengths=strengths,
    )


def _labels(
    observation: dict[str, Any], legal: list[dict[str, Any]], labels: list[str]
) -> list[str]:
    """The engine's short text for each move, with card names where the game shows cards by
    number (a person reads "bet 7 — Demo Affection 1", a bot reads the number)."""
    shown = observation.get("cards")
    cards: dict[str, Any] = shown if isinstance(shown, dict) else {}
    named = []
    for action, label in zip(legal, labels, strict=True):
        card = cards.get(str(action.get("card"))) if "card" in action else None
        named.append(
            f"{label} — {card['name']}" if isinstance(card, dict) and "name" in card else label
        )
    return named


class DatabaseHumanSeat:
    """A :class:`arena.runner.HumanSeat` whose answers come through the database.

    Every answer, and every move left to time out, is kept in ``LiveSeat.moves``: a match
    played again after a lost worker replays them instead of asking again, so the game
    resumes where it was. ``alive`` is called while the person thinks; it raises to stop
    waiting when the match is no longer this worker's (``arena.tasks.MatchHeartbeat``).
    """

    def __init__(
        self, match_id: int, seat: int, *, alive: Callable[[], None] | None = None
    ) -> None:
        self.match_id = match_id
        self.seat = seat
        self.alive = alive

    def ask(
        self,
        *,
        step: int,
        observation: dict[str, Any],
        legal: list[dict[str, Any]],
        labels: list[str],
        timeout_s: float,
    ) -> dict[str, Any] | None:
        live = LiveSeat.objects.get(match_id=self.match_id, seat=self.seat)
        replayed: dict[str, Any] | None = live.moves.get(str(step))
        # Answered (or timed out) before the worker was lost: the match is being replayed.
        if replayed is not None and replayed.get("timeout"):
            return None
        if replayed is not None and 0 <= replayed.get("index", -1) < len(legal):
            return replayed
        if replayed is not None and replayed.get("resign") is True:
            return replayed
        if live.moves.get("resign"):
            self._settle(live.pk, step, RESIGN)
            return RESIGN
        pending = live.answer
        if (
            live.asked_step == step
            and isinstance(pending, dict)
            and pending.get("step") == step
            and 0 <= pending.get("index", -1) < len(legal)
        ):
            # Answered while the worker that asked was being lost: the answer stands.
            self._settle(live.pk, step, {"index": pending["index"]})
            return {"index": pending["index"]}
        # The writer put this position's moves in people's words (card names, rules, what
        # each takes) on the board, in the order the runner asks in.
        worded = live.board.get("moves")
        if isinstance(worded, list) and len(worded) == len(legal):
            shown = [{"action": a, **words} for a, words in zip(legal, worded, strict=True)]
        else:
            shown = [
                {"action": a, "label": label, "rule": "", "picks": []}
                for a, label in zip(legal, _labels(observation, legal, labels), strict=True)
            ]
        deadline = timezone.now() + dt.timedelta(seconds=timeout_s)
        with wakeup.listening(answer_key(live.pk)) as wait:
            with transaction.atomic():
                LiveSeat.objects.filter(pk=live.pk).update(
                    asked_step=step,
                    legal=shown,
                    deadline=deadline,
                    answer=None,
                    updated_at=timezone.now(),
                )
                # Every page of the table: a device that holds a guest's seat too passes
                # itself over when the guest is asked.
                live_ring_table(self.match_id)
            # Woken by the answer; the database is read again only when rung, and every
            # wakeup.SAFETY_S in case a ring was lost.
            while (left := (deadline - timezone.now()).total_seconds()) > 0:
                row = (
                    LiveSeat.objects.filter(pk=live.pk)
                    .values_list("answer", "moves", "asked_step")
                    .first()
                )
                answer, moves, still_asked = row if row is not None else (None, {}, step)
                if still_asked != step:
                    raise TableRewound(f"match {self.match_id}: the question was taken back")
                if moves.get("resign"):
                    self._settle(live.pk, step, RESIGN)
                    return RESIGN
                if answer is not None and answer.get("step") == step:
                    self._settle(live.pk, step, {"index": answer["index"]})
                    return {"index": answer["index"]}
                if self.alive is not None:
                    self.alive()
                wait(min(left, wakeup.SAFETY_S))
        self._settle(live.pk, step, None)
        return None

    def _settle(self, live_id: int, step: int, answer: dict[str, Any] | None) -> None:
        with transaction.atomic():
            live = LiveSeat.objects.select_for_update().get(pk=live_id)
            live.asked_step = None
            live.legal = []
            live.deadline = None
            live.answer = None
            live.moves = {**live.moves, str(step): answer or {"timeout": True}}
            if answer is None:
                live.faults += 1
            live.save()
            wakeup.ring_on_commit(board_key(live_id))


class LiveWriter:
    """The runner's step observer for a live match: after each move, every person's seat gets
    its new observation and the move in its log. Bots' moves are paced so a person can follow.

    A match played again after a lost worker goes quickly (unpaced, unwritten) through the
    moves the table already shows, so the person's board never steps back."""

    def __init__(self, match: Match) -> None:
        self.match_id = match.pk
        self.dispatch = match.dispatch  # the hand-over this worker plays
        self.game = engine.load_game(
            match.game, options={**(match.options or {}), "players": match.seats.count()}
        )
        self.names = {s.seat: s.label for s in match.seats.select_related("version__bot", "player")}
        self.people = dict(LiveSeat.objects.filter(match=match).values_list("seat", "pk"))
        self.pace_s = settings.ARENA_LIVE_PACE_MS / 1000
        shown = LiveSeat.objects.filter(match=match).values_list("step", flat=True)
        self.shown = min(shown, default=-1)  # the last move every table already shows
        self.before: Any = None  # the position the next move is played in, for its log line

    def __call__(self, step: int, entry: dict[str, Any], state: Any) -> None:
        before, self.before = self.before, state
        if step < self.shown:
            return  # replaying moves the table has shown already
        action = self.game.action_from_json(entry["action"]) if entry else None
        for seat, live_id in self.people.items():
            # Each seat's log says the move as that seat observed it: another seat's hidden
            # choice never reaches the page while the match runs (the replay shows it after).
            line = None
            if entry:
                line = {
                    "step": step,
                    "seat": entry["seat"],
                    "who": self.names[entry["seat"]],
                    **played_words(self.game, before, action, actor=entry["seat"], seat=seat),
                    "status": entry["status"],
                }
            board = seat_view(self.game, state, seat) or {"view": state.observation(seat)}
            board["moves"] = legal_words(self.game, state, seat)
            with transaction.atomic():
                live = LiveSeat.objects.select_for_update().get(pk=live_id)
                # Read once the seat is locked: a takeback that committed first is seen.
                now = Match.objects.filter(pk=self.match_id).values_list("dispatch", flat=True)
                if now.first() != self.dispatch:
                    raise TableRewound(f"match {self.match_id} was handed over again")
                live.step = step
                live.board = board
                live.rewound_to = None  # played again up to the move taken back, or past it
                if line is not None and not any(old["step"] == step for old in live.log):
                    live.log = [*live.log, line][-LOG_LINES:]
                live.save(update_fields=["step", "board", "log", "rewound_to", "updated_at"])
                wakeup.ring_on_commit(board_key(live_id))
        if entry and entry["seat"] not in self.people and self.pace_s and step > self.shown:
            time.sleep(self.pace_s)


PLAY_POOL_K = 24.0


def rate_play_pool(match: Match, seats: list[MatchSeat]) -> None:
    """People against bots: every seat (people, versions, house bots at their strength) on
    one scale per game and player count. Unrated games, and games with only people or only
    bots, do not count."""
    players = len(seats)  # the pool is the table's size, guests included
    # Guests have no account to rate: the others are rated by their places among themselves.
    seats = [s for s in seats if not s.guest]
    people = [s for s in seats if s.is_person and s.player_id is not None]
    if not match.rated or not people or len(people) == len(seats):
        return
    entries = []
    for seat in seats:
        who = (
            {"user_id": seat.player_id}
            if seat.is_person
            else {"version_id": seat.version_id}
            if seat.version_id
            else {"builtin": seat.builtin, "strength": seat.strength}
        )
        entry, _ = PlayRating.objects.select_for_update().get_or_create(
            game=match.game, players=players, **who
        )
        entries.append(entry)
    changes = rate_game(
        [
            Seat(i, e.rating, seat_rank(s))
            for i, (s, e) in enumerate(zip(seats, entries, strict=True))
        ],
        PLAY_POOL_K,
    )
    for seat, entry, change in zip(seats, entries, changes, strict=True):
        seat.rating_before, seat.rating_after = change.rating_before, change.rating_after
        entry.rating = change.rating_after
        entry.games += 1
        entry.wins += int(seat.rank == 1 and not seat.forfeited)
        entry.save(update_fields=["rating", "games", "wins"])


def reviews_request(match: Match) -> list[MoveReview]:
    """A review, pending, for each person's seat of ``match`` (finished, in the caller's
    transaction), each handed to a worker once it commits: only then, never during the game,
    is anything worked out about the moves. The task is sent by name (the tasks module calls
    these services); a broker that is down leaves the review pending."""
    reviews = [
        MoveReview.objects.get_or_create(match=match, seat=seat)[0]
        for seat in match.live_seats.order_by("seat").values_list("seat", flat=True)
    ]
    for review in reviews:
        if review.status == MoveReview.Status.PENDING:
            transaction.on_commit(functools.partial(_send_review, review.pk))
    return reviews


def reviews_resend(*, older_than: dt.timedelta) -> list[int]:
    """Send again the reviews still pending ``older_than`` after their game ended (a message
    lost with a broker or a worker); one sent twice is worked out once more to the same
    result. Returns their ids."""
    stale = list(
        MoveReview.objects.filter(
            status=MoveReview.Status.PENDING,
            match__status=Match.Status.FINISHED,
            created_at__lt=timezone.now() - older_than,
        ).values_list("pk", flat=True)
    )
    for review_id in stale:
        _send_review(review_id)
    return stale


def _send_review(review_id: int) -> None:
    try:
        celery_app.signature(REVIEW_TASK, args=(review_id,)).apply_async()
    except Exception:  # any broker error: the review stays pending, the game stands
        logger.exception("the review %s could not be queued", review_id)


@transaction.atomic
def review_record(*, review_id: int, review: dict[str, Any] | None, reason: str = "") -> MoveReview:
    """Store a review worked out after the game, or (``review`` None) why there is none."""
    row = MoveReview.objects.select_for_update().get(pk=review_id)
    row.status = MoveReview.Status.DONE if review is not None else MoveReview.Status.UNAVAILABLE
    row.review = review
    row.reason = reason[:2000]
    row.finished_at = timezone.now()
    row.save(update_fields=["status", "review", "reason", "finished_at"])
    return row
