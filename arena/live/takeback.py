"""Taking back a move in an unrated live game.

The person's last move (and the bots' moves since) is undone by playing the match again from
its seed up to the position before that move, exactly as after a lost worker: the runner
starts over, house bots play the moves recorded for them (``Match.house_moves``) without
searching again (each draws a move's randomness from its position alone, so it would play
the same), sandboxed bots get the same generator from the seed and are asked again, while
the person's seat answers from its recorded moves (``LiveSeat.moves``) up to the move taken
back, and asks again there. Same deal, same position; from there the bots answer whatever
the person plays next. The table the person sees already showed that position, so a takeback
reveals nothing new about the deal, except what the person saw after the move (allowed:
the game is unrated).

The worker that was playing sees its question withdrawn or its hand-over superseded
(:class:`arena.live.services.TableRewound`) and stops; the match goes back to the queue with
a new hand-over, and its attempt is given back (a takeback is not a lost worker).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from arena.common import enqueue
from arena.live import wakeup
from arena.live.company.services import COMPANY_TAKEBACK_REFUSAL, one_person_at_table
from arena.live.services import answer_key, board_key
from arena.models import LiveSeat, Match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REWINDING = "Taking back your move: the game is played again up to the position before it…"
RATED_REFUSAL = "Takebacks are only for unrated games: a rated game stands as played."


def made_moves(seat: LiveSeat) -> list[int]:
    """The steps at which the person chose a move (not timeouts), oldest first, with the
    answer the worker has not taken yet (the person sent it, then asked to take it back)."""
    made = {
        int(key)
        for key, move in seat.moves.items()
        if key.isdigit() and isinstance(move, dict) and "index" in move
    }
    pending = seat.answer if isinstance(seat.answer, dict) else {}
    if seat.asked_step is not None and pending.get("step") == seat.asked_step:
        made.add(seat.asked_step)
    return sorted(made)


def controls_state(match: Match, seat: LiveSeat) -> dict[str, Any]:
    """What the table's controls need in its state: whether the game is rated, whether a move
    may be taken back now, how many were, and what the table says while one is replayed."""
    open_ = match.status in Match.OPEN_STATUSES
    return {
        "rated": match.rated,
        "takebacks": seat.takebacks,
        "can_take_back": (
            not match.rated
            and open_
            and not seat.moves.get("resign")
            and bool(made_moves(seat))
            and one_person_at_table(match)
        ),
        "rewinding": REWINDING if seat.rewound_to is not None and open_ else "",
    }


@transaction.atomic
def live_takeback(*, match: Match, user: User) -> LiveSeat:
    """Take back the last move made on ``user``'s device in ``match`` (their seat's, or a
    guest's they seated). Raises ``PermissionDenied`` in a rated game or with another person
    at the table (:func:`arena.live.company.services.one_person_at_table`) and ``ValidationError`` when
    there is nothing to take back; writes nothing then."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    seats = list(LiveSeat.objects.select_for_update().filter(match=match).order_by("seat"))
    mine = [s for s in seats if s.user_id == user.pk]  # a host's guests' seats are theirs
    if not mine:
        raise ValidationError({"match": ["You have no seat in this match."]})
    if match.rated:
        raise PermissionDenied(RATED_REFUSAL)
    if not one_person_at_table(match):
        raise PermissionDenied(COMPANY_TAKEBACK_REFUSAL)
    if match.status in (Match.Status.FINISHED, Match.Status.FAILED):
        raise ValidationError({"match": ["The match is over."]})
    playing = [s for s in mine if not s.moves.get("resign")]
    if not playing:
        raise ValidationError({"match": ["You have resigned: there is no move to take back."]})
    made = [(step, s) for s in playing for step in made_moves(s)]
    if not made:
        raise ValidationError({"match": ["You have made no move to take back yet."]})
    target, seat = max(made, key=lambda pair: pair[0])
    for other in seats:
        _rewind(other, target)
    seat.takebacks += 1
    seat.save(update_fields=["takebacks"])
    # The house bots' moves before it are played again unsearched; from it on they answer anew.
    match.house_moves = {
        key: action for key, action in match.house_moves.items() if int(key) < target
    }
    match.save(update_fields=["house_moves"])
    if match.status == Match.Status.RUNNING:
        # Queued again under a new hand-over, so the worker playing it stops; a queued match
        # (its worker lost) is played from these records by whichever worker claims it.
        match.status = Match.Status.QUEUED
        match.dispatch += 1
        match.queued_at = timezone.now()
        match.attempts = max(match.attempts - 1, 0)
        match.save(update_fields=["status", "dispatch", "queued_at", "attempts"])
        enqueue(match)
    return seat


def _rewind(seat: LiveSeat, target: int) -> None:
    """Forget everything ``seat`` recorded from step ``target`` on, and withdraw its question."""
    seat.moves = {
        key: move for key, move in seat.moves.items() if not key.isdigit() or int(key) < target
    }
    seat.faults = sum(
        1 for key, move in seat.moves.items() if key.isdigit() and move.get("timeout")
    )
    seat.asked_step = None
    seat.legal = []
    seat.deadline = None
    seat.answer = None
    seat.step = min(seat.step, target - 1)
    seat.log = [line for line in seat.log if line["step"] < target]
    seat.board = {**seat.board, "moves": []}  # nothing to tap until the game is back there
    seat.rewound_to = target
    seat.save()
    wakeup.ring_on_commit(answer_key(seat.pk))  # the worker waiting for it stops waiting
    wakeup.ring_on_commit(board_key(seat.pk))
