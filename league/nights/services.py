"""Every write of a game night: open it, who is present, guests, drawing rounds, and the league
game entered for a table. The seating itself is `league.nights.draw` (pure code); this module
feeds it what the night knows and stores what it drew; who may play a table's game is
`league.results.seating`.

Each service is atomic and locks the night's league row first, like every room's services.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from league.catalogue import get_game
from league.clubs import services
from league.common import lock_league, record_audit
from league.models import (
    AuditEntry,
    Game,
    GameNight,
    League,
    NightAttendee,
    NightRound,
    NightSeat,
    NightTable,
    Player,
    PlayerRating,
)
from league.nights import selectors
from league.nights.draw import DrawError, Entrant, draw_round
from league.results import checks, confirmation, seating
from league.results import services as result_services

MAX_ROUNDS = 12


def _player_names(players: Iterable[Player]) -> list[str]:
    return sorted(p.name for p in players)


@transaction.atomic
def night_open(
    *,
    league: League,
    by: AbstractBaseUser,
    played_on: dt.date,
    edition: str,
    rounds: int,
    min_table: int | None = None,
    max_table: int | None = None,
    first_round: str = GameNight.FirstRound.RATING,
    place: str = "",
    present: Sequence[Player] = (),
    seed: int | None = None,
) -> GameNight:
    """Open a night for ``league`` with the people ``present`` (members of the league).

    Table sizes default to what the edition allows; narrower bounds are the organiser's choice
    (three copies of the game and twelve people: tables of 4)."""
    league = lock_league(league)
    game = get_game(league.game)
    errors: dict[str, list[str]] = {}
    chosen = next((e for e in game.editions if e.key == edition), None)
    if chosen is None:
        errors["edition"] = [
            f"{game.name} has no edition {edition!r}; choose from: "
            f"{', '.join(e.key for e in game.editions if e.max_players >= 2)}."
        ]
    elif chosen.max_players < 2:
        errors["edition"] = [f"{chosen.label} is not played at a table of several people."]
    if not 1 <= rounds <= MAX_ROUNDS:
        errors["rounds"] = [f"A night has 1 to {MAX_ROUNDS} rounds."]
    if first_round not in GameNight.FirstRound.values:
        errors["first_round"] = ["The first round is drawn by rating or at random."]
    if played_on > timezone.localdate() + dt.timedelta(days=366):
        errors["played_on"] = ["Open a night at most a year ahead."]
    low = high = 0
    if chosen is not None and chosen.max_players >= 2:
        low = min_table if min_table is not None else max(2, chosen.min_players)
        high = max_table if max_table is not None else chosen.max_players
        allowed = f"{chosen.label} seats {max(2, chosen.min_players)} to {chosen.max_players}"
        if not max(2, chosen.min_players) <= low <= chosen.max_players:
            errors["min_table"] = [f"{allowed}."]
        if not max(2, chosen.min_players) <= high <= chosen.max_players:
            errors["max_table"] = [f"{allowed}."]
        elif high < low:
            errors["max_table"] = ["The largest table cannot be smaller than the smallest."]
    members = set(league.memberships.values_list("player_id", flat=True))
    strangers = [p for p in present if p.pk not in members]
    if strangers:
        errors["present"] = [f"Not members of {league}: {', '.join(_player_names(strangers))}."]
    if errors:
        raise ValidationError(errors)
    night = GameNight.objects.create(
        league=league,
        played_on=played_on,
        place=place.strip(),
        edition=edition,
        rounds=rounds,
        min_table=low,
        max_table=high,
        first_round=first_round,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        created_by_id=by.pk,
    )
    NightAttendee.objects.bulk_create(
        NightAttendee(night=night, player=p, present=True)
        for p in {p.pk: p for p in present}.values()
    )
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=night,
        changes={
            "played_on": played_on,
            "edition": edition,
            "rounds": rounds,
            "tables": f"{low}-{high}",
            "first_round": first_round,
            "present": _player_names(present),
        },
    )
    return night


@transaction.atomic
def attendance_set(
    *, night: GameNight, player: Player, present: bool, by: AbstractBaseUser
) -> NightAttendee:
    """Someone arrives (or comes back) or leaves; it counts from the next round drawn."""
    lock_league(night.league)
    if not night.league.memberships.filter(player=player).exists():
        raise ValidationError({"player": [f"{player} is not a member of {night.league}."]})
    attendee, created = NightAttendee.objects.get_or_create(
        night=night, player=player, defaults={"present": present}
    )
    if not created and attendee.present == present:
        state = "present" if present else "not present"
        raise ValidationError({"player": [f"{player} is already marked {state}."]})
    attendee.present = present
    attendee.save(update_fields=["present"])
    record_audit(
        league=night.league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=night,
        changes={"player": player.name, "present": present},
    )
    return attendee


@transaction.atomic
def night_guest_add(*, night: GameNight, name: str, by: AbstractBaseUser) -> NightAttendee:
    """A newcomer without a login, into the league and present tonight."""
    membership = services.guest_add(league=night.league, name=name, by=by)
    return attendance_set(night=night, player=membership.player, present=True, by=by)


def _entrants(night: GameNight, view: selectors.NightView) -> list[Entrant]:
    present = list(night.attendees.filter(present=True).select_related("player"))
    ratings = dict(
        PlayerRating.objects.filter(
            league=night.league, player_id__in=[a.player_id for a in present]
        ).values_list("player_id", "rating")
    )
    scores = {s.player_id: s for s in view.standings}
    entrants = []
    for attendee in present:
        score = scores.get(attendee.player_id)
        entrants.append(
            Entrant(
                id=attendee.player_id,
                name=attendee.player.name,
                rating=ratings.get(attendee.player_id, night.league.initial_rating),
                points=score.points if score else 0.0,
                starts=score.starts if score else 0,
                sat_out=score.sat_out if score else 0,
            )
        )
    return entrants


def _pair(pair: frozenset[int]) -> tuple[int, int]:
    first, second = sorted(pair)
    return first, second


@transaction.atomic
def round_draw(*, night: GameNight, by: AbstractBaseUser) -> NightRound:
    """Draw the next round for the people present now (`league.nights.draw`) and store it."""
    lock_league(night.league)
    night = GameNight.objects.select_for_update().get(pk=night.pk)
    view = selectors.night_view(night=night)
    number = view.next_round
    if number > night.rounds:
        raise ValidationError({"round": [f"This night has {night.rounds} round(s), all drawn."]})
    unfinished = [
        f"table {t.table.number}" for r in view.rounds for t in r.tables if not t.finished
    ]
    if unfinished:
        raise ValidationError(
            {
                "round": [
                    f"Round {number - 1} is still being played ({', '.join(unfinished)}): enter "
                    "its results first, or undo the round to draw it again."
                ]
            }
        )
    entrants = _entrants(night, view)
    try:
        draw = draw_round(
            entrants=entrants,
            min_size=night.min_table,
            max_size=night.max_table,
            round_number=number,
            met=[_pair(pair) for pair in view.met],
            by_rating=night.first_round == GameNight.FirstRound.RATING,
            seed=night.seed,
        )
    except DrawError as exc:
        raise ValidationError({"round": [str(exc)]}) from exc
    night_round = NightRound.objects.create(
        night=night, number=number, explanation=draw.explanation
    )
    players = Player.objects.in_bulk([e.id for e in entrants])
    night_round.sitting_out.set([players[player_id] for player_id in draw.sitting_out])
    for index, drawn in enumerate(draw.tables, start=1):
        table = NightTable.objects.create(round=night_round, number=index)
        NightSeat.objects.bulk_create(
            NightSeat(table=table, player=players[player_id], seat=seat)
            for seat, player_id in enumerate(drawn.players, start=1)
        )
    record_audit(
        league=night.league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=night_round,
        changes={"night": night.pk, "round": number, "explanation": draw.explanation},
    )
    return night_round


@transaction.atomic
def round_undo(*, night: GameNight, by: AbstractBaseUser) -> None:
    """Take back the latest round while none of its games is entered (someone arrived late)."""
    lock_league(night.league)
    latest = night.night_rounds.order_by("-number").first()
    if latest is None:
        raise ValidationError({"round": ["No round has been drawn yet."]})
    if latest.tables.filter(game__isnull=False).exists():
        raise ValidationError(
            {"round": [f"Round {latest.number} already has results: it cannot be drawn again."]}
        )
    record_audit(
        league=night.league,
        user=by,
        action=AuditEntry.Action.DELETE,
        obj=latest,
        changes={"night": night.pk, "round": latest.number},
    )
    latest.delete()


@transaction.atomic
def table_game_record(
    *,
    table: NightTable,
    logged_by: AbstractBaseUser,
    participants: Sequence[checks.ParticipantInput],
    **values: Any,
) -> Game:
    """Record the league game played at a night's table (rated like any other) and link it.

    Its players are the table's, each once: the ones drawn to it, all of them."""
    night = table.round.night
    lock_league(night.league)
    table = NightTable.objects.select_for_update().get(pk=table.pk)
    if table.game_id is not None:
        raise ValidationError(
            {"table": [f"Table {table.number}'s result is already entered (game {table.game_id})."]}
        )
    seating.check_seated(table, [p.player_id for p in participants])
    values.setdefault("place", night.place)
    game = result_services.game_record(
        league=night.league,
        logged_by=logged_by,
        participants=participants,
        night_round=table.round.number,
        **values,
    )
    table.game = game
    table.save(update_fields=["game"])
    return game


def entry_values(night: GameNight) -> Mapping[str, Any]:
    """What a night's table game starts with: the result form's first values, the API's
    defaults."""
    return {"edition": night.edition, "played_on": night.played_on, "place": night.place}


def night_confirm(*, night: GameNight, by: User) -> confirmation.ManyConfirmed:
    """An organiser confirms every game of the night that waits for confirmation, at once;
    disputed ones are left for their disputes to be settled. Raises ValidationError when
    nothing of the night waits."""
    if not checks.organises(night.league, by):
        raise PermissionDenied("Only this league's organisers confirm a night's games.")
    games = list(
        Game.objects.filter(
            night_table__round__night=night,
            status__in=(Game.Status.PENDING, Game.Status.DISPUTED),
        )
        .select_related("league")
        .order_by("played_on", "night_table__round__number", "night_table__number")
    )
    if not any(game.status == Game.Status.PENDING for game in games):
        raise ValidationError({"night": ["No game of this night waits for confirmation."]})
    return confirmation.games_confirm_many(games=games, by=by, skip_disputed=True)
