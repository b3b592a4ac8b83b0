"""BG Stats files and a league: preview an import, import it in one transaction, export.

`league.interop.reading`, `.planning` and `.writing` read and write the format and plan which
plays can become games; this module adds what the database knows (the league's members, the
plays it has already: imported before, or its own games in its own export, uuids compared
without letter case; the names taken) and writes through `league.results.services`, so an
import is checked exactly as a logged game is.
"""

from __future__ import annotations

import datetime as dt
import difflib
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils import timezone

from league.clubs import services
from league.interop import planning, reading, writing
from league.models import League, Player
from league.results import checks
from league.results import selectors as result_selectors
from league.results import services as result_services

# Suggest a league player for a BG Stats name this similar or more (difflib's ratio).
SUGGESTION_CUTOFF = 0.6
NAME_LENGTH = Player._meta.get_field("name").max_length or 100


@dataclass(frozen=True)
class PlayerMatch:
    """A BG Stats player of the plays to import, and the league players their name suggests
    (best first; the first is proposed)."""

    ref: int
    name: str
    plays: int
    suggestions: list[Player]
    guest_name: str  # the name a new guest for them would have
    clash: str = ""  # why that is not their BG Stats name


@dataclass(frozen=True)
class Preview:
    plan: planning.Plan
    new: list[planning.PlannedPlay]
    already: list[planning.PlannedPlay]  # imported into this league before
    players: list[PlayerMatch]


def _members(league: League) -> list[Player]:
    return list(Player.objects.filter(memberships__league=league).order_by("name"))


def suggestions(name: str, members: list[Player]) -> list[Player]:
    """League players whose names are like `name`: the same name (any case) first, then
    close spellings."""
    wanted = name.casefold()
    exact = [p for p in members if p.name.casefold() == wanted]
    by_name = {p.name.casefold(): p for p in members}
    close = difflib.get_close_matches(wanted, list(by_name), n=3, cutoff=SUGGESTION_CUTOFF)
    return exact + [by_name[n] for n in close if by_name[n] not in exact]


def _already_here(league: League, uuids: list[str]) -> set[str]:
    """Which of these play uuids (in capitals) the league has: games imported with that uuid,
    or its own games, whose uuid its export gives as the play's."""
    own = set()
    for text in uuids:
        try:
            own.add(uuid.UUID(text))
        except ValueError:
            continue  # not a uuid Catleague writes; compared with imported uuids only
    found = (
        league.games.annotate(upper_uuid=Upper("bgstats_uuid"))
        .filter(Q(upper_uuid__in={u.upper() for u in uuids}) | Q(uuid__in=own))
        .values_list("upper_uuid", "uuid")
    )
    return {u for u, _ in found if u} | {str(u).upper() for _, u in found if u}


def _name_taken(league: League, name: str) -> bool:
    # The rule `league.clubs.services.guest_add` applies: names are unique within a league, so
    # the answer never depends on players of other (perhaps private) leagues.
    return league.memberships.filter(player__name__iexact=name).exists()


def guest_names(league: League, names: Mapping[int, str]) -> dict[int, tuple[str, str]]:
    """For each BG Stats player (id -> name), the name a new guest of `league` would get and,
    when it is not their own, why: a name a member of the league already has, or one that an
    earlier BG Stats player of the file has too, becomes 'Alex (BG Stats 2)' (the first number
    free)."""
    chosen: dict[int, tuple[str, str]] = {}
    used: set[str] = set()
    for ref, name in names.items():
        guest, clash = name, ""
        if _name_taken(league, name):
            clash = f"{league} already has a player called “{name}”."
        elif name.casefold() in used:
            clash = f"Another BG Stats player in this file is also called “{name}”."
        number = 2
        while clash and (guest.casefold() in used or guest == name or _name_taken(league, guest)):
            guest = f"{name} (BG Stats {number})"
            number += 1
        used.add(guest.casefold())
        used.add(name.casefold())
        chosen[ref] = (guest, clash)
    return chosen


def preview(*, league: League, export: reading.Export, today: dt.date | None = None) -> Preview:
    plan = planning.plan_import(export, game_key=league.game, today=today or timezone.localdate())
    imported = _already_here(league, [p.play.uuid for p in plan.plays])
    new = [p for p in plan.plays if p.play.uuid.upper() not in imported]
    counts: dict[int, int] = {}
    for planned in new:
        for seat in planned.seats:
            counts[seat.player_ref] = counts.get(seat.player_ref, 0) + 1
    members = _members(league)
    guests = guest_names(league, {ref: export.players[ref].name for ref in counts})
    players = [
        PlayerMatch(
            ref=ref,
            name=export.players[ref].name,
            plays=counts[ref],
            suggestions=suggestions(export.players[ref].name, members),
            guest_name=guests[ref][0],
            clash=guests[ref][1],
        )
        for ref in counts
    ]
    return Preview(
        plan=plan,
        new=new,
        already=[p for p in plan.plays if p.play.uuid.upper() in imported],
        players=players,
    )


@dataclass(frozen=True)
class ImportResult:
    created: int
    already: int
    refused: int
    skipped: int
    guests: list[str]


@transaction.atomic
def import_plays(
    *,
    league: League,
    export: reading.Export,
    mapping: Mapping[int, int | None],
    by: AbstractBaseUser,
    today: dt.date | None = None,
) -> ImportResult:
    """Import the plays `preview` lists as new, all or none.

    `mapping` gives each BG Stats player (by their id in the file) the league player they
    are, or None for a new guest under their BG Stats name. Raises ValidationError keyed
    ``players.<BG Stats id>`` for a player left out, mapped to someone outside the league,
    mapped twice or whose guest cannot be created."""
    found = preview(league=league, export=export, today=today)
    errors: dict[str, list[str]] = {}
    member_ids = {p.pk for p in _members(league)}
    chosen: dict[int, int] = {}
    for match in found.players:
        key = f"players.{match.ref}"
        if match.ref not in mapping:
            errors.setdefault(key, []).append(f"Choose who {match.name} is in {league}.")
            continue
        target = mapping[match.ref]
        if target is None:
            continue
        if target not in member_ids:
            errors.setdefault(key, []).append(f"That player is not a member of {league}.")
        elif target in chosen.values():
            other = next(r for r, t in chosen.items() if t == target)
            errors.setdefault(key, []).append(
                f"{export.players[other].name} is already mapped to this player: two BG Stats "
                "players cannot be the same person."
            )
        else:
            chosen[match.ref] = target
    guests = []
    if not errors:
        for match in found.players:
            if mapping[match.ref] is None:
                if len(match.guest_name) > NAME_LENGTH:
                    errors.setdefault(f"players.{match.ref}", []).append(
                        f"A guest's name has at most {NAME_LENGTH} characters: choose a member."
                    )
                    continue
                try:
                    membership = services.guest_add(league=league, name=match.guest_name, by=by)
                except ValidationError as exc:
                    errors.setdefault(f"players.{match.ref}", []).extend(
                        f"A new guest {match.guest_name!r} cannot be added: {message} Choose a "
                        "member instead."
                        for message in exc.messages
                    )
                    continue
                chosen[match.ref] = membership.player_id
                guests.append(match.guest_name)
    if errors:
        raise ValidationError(errors)
    games = [
        result_services.GameInput(
            participants=[
                checks.ParticipantInput(
                    player_id=chosen[seat.player_ref], seat=seat.seat, result=seat.result
                )
                for seat in planned.seats
            ],
            played_on=planned.played_on,
            played_time=planned.played_time,
            edition=planned.edition,
            place=planned.place[:120],
            notes=planned.play.notes,
            details=planned.details or None,
            bgstats_uuid=planned.play.uuid,
        )
        for planned in found.new
    ]
    try:
        result_services.games_import(league=league, games=games, logged_by=by)
    except ValidationError as exc:
        raise ValidationError(
            {
                "plays": [
                    f"Play {found.new[int(path.split('.')[1])].play.uuid}: {message}"
                    for path, messages in exc.message_dict.items()
                    for message in messages
                ]
            }
        ) from exc
    return ImportResult(
        created=len(games),
        already=len(found.already),
        refused=len(found.plan.refused),
        skipped=sum(found.plan.skipped_games.values()) + found.plan.ignored,
        guests=guests,
    )


def export_league(*, league: League) -> dict[str, Any]:
    """Every game of the league, oldest first, as a BG Stats file."""
    games = [
        writing.ExportGame(
            id=game.pk,
            uuid=game.bgstats_uuid or (str(game.uuid).upper() if game.uuid else ""),
            played_on=game.played_on,
            played_time=game.played_time,
            place=game.place,
            notes=game.notes,
            edition=game.edition,
            details=game.details,
            seats=[
                writing.ExportSeat(
                    player_id=p.player_id,
                    player_name=p.player.name,
                    seat=p.seat,
                    rank=p.rank,
                    score=p.score,
                    result=p.result,
                )
                for p in game.participants.all()
            ],
        )
        for game in result_selectors.games_for(league=league).reverse()
    ]
    return writing.write_export(league_slug=league.slug, game_key=league.game, games=games)
