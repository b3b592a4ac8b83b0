"""Friends at a live table: seats left for friends, filled before the first move.

A host may leave seats of a live match for friends (:func:`arena.live.services.live_create`
with ``friends``). Each such seat has a :class:`LiveInvitation`: a link with an unguessable
token that seats the first other account to open it, once; or the host seats a guest there,
who plays on the host's device (the table hands the device over between their turns, and the
guest is not rated). The worker that claims the match waits (:func:`company_wait`) until every
seat is taken, the host starts without the missing friends (house bots take their seats), or
``Match.seats_open_until`` passes: then the match is called off, rated for no one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from arena.live import wakeup
from arena.live.services import live_ring_table
from arena.models import LiveInvitation, LiveSeat, Match, MatchSeat
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User

GUEST_NAME_MAX = 30
COMPANY_TAKEBACK_REFUSAL = "Takebacks are for games with one person at the table."
CALLED_OFF = (
    "Nobody took {seats} within {minutes} minutes, so the game was called off before its "
    "first move. It counts for no one."
)


def one_person_at_table(match: Match) -> bool:
    """Whether the people at ``match`` are one person: theirs are all the seats people hold,
    their own and the guests they seated on their device. Only then may a move be taken back:
    a takeback rewinds every person's seat, and a friend on another device would see their own
    moves undone by someone else."""
    return LiveSeat.objects.filter(match=match).values("user_id").distinct().count() <= 1


def company_key(match_id: int) -> str:
    """What the worker waiting for a table's friends listens to."""
    return f"company-{match_id}"


def _seated(match: Match) -> None:
    """Wake the worker waiting for the friends, and every page of the table."""
    wakeup.ring_on_commit(company_key(match.pk))
    live_ring_table(match.pk)


def _close_if_full(match: Match) -> None:
    if not match.invitations.filter(used_at__isnull=True).exists():
        match.seats_open_until = None
        match.save(update_fields=["seats_open_until"])


def _gathering(match: Match) -> None:
    """Refuse changes to the company once the game is over or under way."""
    if match.status in (Match.Status.FINISHED, Match.Status.FAILED):
        raise ValidationError({"match": ["This game is over."]})
    if match.seats_open_until is None:
        raise ValidationError({"match": ["This game has started: its seats are all taken."]})


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Match:
    """Seat ``user`` in the seat the invitation ``token`` leaves open; refused in words for a
    link already used, a game started or over, the host's own link, or a second seat."""
    invitation = (
        LiveInvitation.objects.select_for_update().select_related("match").filter(token=token)
    ).first()
    if invitation is None:
        raise ValidationError({"token": ["This invitation link is not valid."]})
    match = Match.objects.select_for_update().get(pk=invitation.match_id)
    if match.requested_by_id == user.pk:
        raise ValidationError(
            {"token": ["This is your own invitation link: send it to a friend to play."]}
        )
    if invitation.used_at is not None:
        if invitation.used_by_id == user.pk:
            return match  # opened again by the friend it seated: their table
        raise ValidationError({"token": ["This invitation link has been used already."]})
    _gathering(match)
    if LiveSeat.objects.filter(match=match, user=user).exists():
        raise ValidationError({"token": ["You have a seat at this table already."]})
    MatchSeat.objects.filter(match=match, seat=invitation.seat).update(player=user)
    LiveSeat.objects.create(match=match, seat=invitation.seat, user=user)
    invitation.used_by, invitation.used_at = user, timezone.now()
    invitation.save(update_fields=["used_by", "used_at"])
    _close_if_full(match)
    _seated(match)
    return match


@transaction.atomic
def guest_seat(*, match: Match, host: User, seat: int, name: str) -> LiveSeat:
    """Seat a guest (a name, no account) in an open seat; they play on the host's device."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.requested_by_id != host.pk:
        raise ValidationError({"match": ["Only the host seats guests at this table."]})
    _gathering(match)
    name = " ".join(name.split())
    if not name:
        raise ValidationError({"name": ["Give the guest's name."]})
    if len(name) > GUEST_NAME_MAX:
        raise ValidationError({"name": [f"Keep the name under {GUEST_NAME_MAX + 1} characters."]})
    invitation = (
        LiveInvitation.objects.select_for_update()
        .filter(match=match, seat=seat, used_at__isnull=True)
        .first()
    )
    if invitation is None:
        raise ValidationError({"seat": ["That seat is not waiting for anyone."]})
    taken = {s.guest.casefold() for s in match.seats.exclude(guest="")}
    if name.casefold() in taken or name.casefold() == host.username.casefold():
        raise ValidationError({"name": ["Someone at this table has that name: choose another."]})
    MatchSeat.objects.filter(match=match, seat=seat).update(guest=name)
    live = LiveSeat.objects.create(match=match, seat=seat, user=host)
    invitation.used_at = timezone.now()
    invitation.save(update_fields=["used_at"])
    _close_if_full(match)
    _seated(match)
    return live


@transaction.atomic
def company_start(*, match: Match, host: User) -> list[int]:
    """The host starts without the friends who have not come: a house bot takes each of
    their seats (their links then say the game has started). Returns those seats."""
    match = Match.objects.select_for_update().get(pk=match.pk)
    if match.requested_by_id != host.pk:
        raise ValidationError({"match": ["Only the host starts this table."]})
    _gathering(match)
    open_seats = list(match.invitations.filter(used_at__isnull=True).values_list("seat", flat=True))
    stand_in = stand_in_bot(match.game)
    MatchSeat.objects.filter(match=match, seat__in=open_seats).update(builtin=stand_in)
    match.seats_open_until = None
    match.save(update_fields=["seats_open_until"])
    _seated(match)
    return open_seats


def stand_in_bot(game: str) -> str:
    """The house bot that takes a seat no friend came to: a plain greedy player."""
    names = strategy_names(game)
    return "greedy" if "greedy" in names else names[0]


def company_wait(match_id: int, *, alive: Callable[[], None] | None = None) -> str:
    """The worker's wait before the first move: returns "" once every seat is taken (or the
    host started), or why the game is called off when ``seats_open_until`` passes first."""
    with wakeup.listening(company_key(match_id)) as wait:
        while True:
            match = Match.objects.get(pk=match_id)
            until = match.seats_open_until
            if until is None:
                return ""
            left = (until - timezone.now()).total_seconds()
            if left <= 0:
                return _called_off(match)
            if alive is not None:
                alive()
            wait(min(left, wakeup.SAFETY_S))


def _called_off(match: Match) -> str:
    assert match.seats_open_until is not None  # called off only once it passed
    missing = sorted(match.invitations.filter(used_at__isnull=True).values_list("seat", flat=True))
    seats = " and ".join(f"seat {seat + 1}" for seat in missing) or "a seat"
    minutes = max(1, round((match.seats_open_until - match.created_at).total_seconds() / 60))
    return CALLED_OFF.format(seats=seats, minutes=minutes)


def company_of(match: Match, user: User, shown: int) -> dict[str, Any]:
    """What the table page of ``user`` (showing seat ``shown``) says about the company: the
    seats still open (with their links, for the host only, while the table gathers), the
    guests on this device, and whose turn it is among this device's other seats (only that
    it is: never what they hold)."""
    seats = list(match.seats.select_related("player").order_by("seat"))
    gathering = match.seats_open_until is not None and match.status in Match.OPEN_STATUSES
    host = match.requested_by_id == user.pk
    invitations = (
        list(match.invitations.filter(used_at__isnull=True).order_by("seat")) if gathering else []
    )
    here = {
        live.seat: live.asked_step
        for live in LiveSeat.objects.filter(match=match, user=user).order_by("seat")
    }
    names = {s.seat: (s.guest or s.label) for s in seats}
    asked = [seat for seat, step in here.items() if step is not None]
    handover = None
    if shown not in asked and asked and match.status == Match.Status.RUNNING:
        handover = {"seat": asked[0], "name": names[asked[0]]}
    return {
        "gathering": gathering,
        "host": host,
        "seconds_left": (
            max(0, round((match.seats_open_until - timezone.now()).total_seconds()))
            if gathering and match.seats_open_until
            else None
        ),
        "open": [{"seat": i.seat, "token": i.token if host else None} for i in invitations],
        "device": [{"seat": seat, "name": names[seat]} for seat in here],
        "guests": [s.seat for s in seats if s.guest],
        "handover": handover,
    }


def company_version(company: dict[str, Any]) -> str:
    """The part of a table page's version that changes with the company."""
    handover = company["handover"]
    return (
        f"{int(company['gathering'])}.{len(company['open'])}."
        f"{handover['seat'] if handover else '-'}"
    )
