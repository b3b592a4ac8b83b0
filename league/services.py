"""Every write to the league data: the API, the admin and the management commands call these.

Each service is atomic and takes a lock on the league row first, so two results posted to the
same league at the same moment are rated one after the other, never interleaved.
Bad input raises `django.core.exceptions.ValidationError` with a message per field.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league import rating_pass
from league.catalogue import ResultError, check_results, get_game
from league.models import AuditEntry, Game, League, Membership, Participant, Player, Season
from league.ratings import INITIAL_RATING_RANGE, K_FACTOR_RANGE


@dataclass(frozen=True)
class ParticipantInput:
    player_id: int
    result: Mapping[str, Any]
    seat: int | None = None


@dataclass
class _Errors:
    fields: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, message: str) -> None:
        self.fields.setdefault(path, []).append(message)

    def raise_if_any(self) -> None:
        if self.fields:
            raise ValidationError(self.fields)


def _audit(
    *, league: League | None, user: AbstractBaseUser | None, action: str, obj: Any,
    changes: Mapping[str, Any],
) -> None:
    AuditEntry.objects.create(
        league=league,
        user=user if user is not None and user.is_authenticated else None,
        action=action,
        object_type=type(obj).__name__,
        object_id=obj.pk,
        changes=json.loads(json.dumps(changes, default=str)),
    )


def _lock(league: League) -> League:
    return League.objects.select_for_update().get(pk=league.pk)


# --- players, leagues, members, seasons ----------------------------------------------------


@transaction.atomic
def player_create(*, name: str, user: AbstractBaseUser | None = None,
                  by: AbstractBaseUser | None = None) -> Player:
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    if Player.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": [f"A player called {name!r} already exists."]})
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationError({"user": ["This login already belongs to a player."]})
    player = Player.objects.create(name=name, user=user)
    _audit(league=None, user=by, action=AuditEntry.Action.CREATE, obj=player, changes={"name": name})
    return player


def player_for_user(user: AbstractBaseUser) -> Player:
    """The player of a login, created on first use with the login's username."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
    base = user.get_username()
    name, suffix = base, 2
    while Player.objects.filter(name__iexact=name).exists():
        name, suffix = f"{base} {suffix}", suffix + 1
    return Player.objects.create(name=name, user=user)


@transaction.atomic
def league_create(
    *, name: str, slug: str, game: str = "cat-lady", by: AbstractBaseUser,
    description: str = "", is_public: bool = True, k_factor: float = 32.0,
    initial_rating: float = 1500.0, provisional_games: int = 5,
) -> League:
    errors = _Errors()
    try:
        get_game(game)
    except ResultError as exc:
        for path, messages in exc.errors.items():
            for message in messages:
                errors.add(path, message)
    for field_name, value, (low, high) in (
        ("k_factor", k_factor, K_FACTOR_RANGE),
        ("initial_rating", initial_rating, INITIAL_RATING_RANGE),
    ):
        if not low <= value <= high:  # also refuses NaN, which compares false with everything
            errors.add(field_name, f"Must be between {low:g} and {high:g}.")
    if League.objects.filter(slug=slug).exists():
        errors.add("slug", f"A league with the slug {slug!r} already exists.")
    errors.raise_if_any()
    league = League.objects.create(
        name=name, slug=slug, game=game, description=description, is_public=is_public,
        k_factor=k_factor, initial_rating=initial_rating, provisional_games=provisional_games,
    )
    Membership.objects.create(
        league=league, player=player_for_user(by), role=Membership.Role.ORGANISER
    )
    _audit(league=league, user=by, action=AuditEntry.Action.CREATE, obj=league,
           changes={"name": name, "slug": slug, "game": game})
    return league


@transaction.atomic
def member_add(*, league: League, player: Player, role: str = Membership.Role.MEMBER,
               by: AbstractBaseUser | None) -> Membership:
    if role not in Membership.Role.values:
        raise ValidationError({"role": [f"Role must be one of: {', '.join(Membership.Role.values)}."]})
    membership, created = Membership.objects.get_or_create(
        league=league, player=player, defaults={"role": role}
    )
    if not created:
        if membership.role == role:
            raise ValidationError({"player": [f"{player} is already a {role} of this league."]})
        membership.role = role
        membership.save(update_fields=["role"])
    _audit(league=league, user=by,
           action=AuditEntry.Action.CREATE if created else AuditEntry.Action.UPDATE,
           obj=membership, changes={"player": player.name, "role": role})
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, by: AbstractBaseUser | None) -> None:
    league = membership.league
    if (
        membership.role == Membership.Role.ORGANISER
        and not league.memberships.filter(role=Membership.Role.ORGANISER)
        .exclude(pk=membership.pk).exists()
    ):
        raise ValidationError({"player": ["A league keeps at least one organiser."]})
    _audit(league=league, user=by, action=AuditEntry.Action.DELETE, obj=membership,
           changes={"player": membership.player.name, "role": membership.role})
    membership.delete()


@transaction.atomic
def season_create(*, league: League, name: str, starts_on: dt.date, ends_on: dt.date,
                  by: AbstractBaseUser | None) -> Season:
    errors = _Errors()
    if ends_on < starts_on:
        errors.add("ends_on", "A season cannot end before it starts.")
    if league.seasons.filter(name=name).exists():
        errors.add("name", f"This league already has a season called {name!r}.")
    if league.seasons.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).exists():
        errors.add("starts_on", "Seasons of one league cannot overlap.")
    errors.raise_if_any()
    season = Season.objects.create(league=league, name=name, starts_on=starts_on, ends_on=ends_on)
    # Games already logged in these dates belong to the new season.
    league.games.filter(played_on__range=(starts_on, ends_on), season__isnull=True).update(
        season=season
    )
    _audit(league=league, user=by, action=AuditEntry.Action.CREATE, obj=season,
           changes={"name": name, "starts_on": starts_on, "ends_on": ends_on})
    return season


# --- games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class _CheckedGame:
    edition: str
    played_on: dt.date
    played_time: dt.time | None
    season: Season | None
    participants: list[tuple[Player, int, dict[str, Any], int]]  # player, seat, result, rank
    details: dict[str, Any]
    rated: bool
    headline: str


def _check_game(
    *, league: League, game: str | None, edition: str | None, played_on: dt.date | None,
    played_time: dt.time | None, season: Season | None,
    participants: Sequence[ParticipantInput], details: Mapping[str, Any] | None,
) -> _CheckedGame:
    errors = _Errors()
    game_key = game or league.game
    if game_key != league.game:
        errors.add("game", f"This league records {league.get_game_display()} games only.")
        errors.raise_if_any()
    game_type = get_game(game_key)
    edition_key = edition or game_type.editions[0].key
    if played_on is None:
        errors.add("played_on", "The date the game was played is required.")
    elif played_on > timezone.localdate():
        errors.add("played_on", "A game cannot be played in the future.")
    if not participants:
        errors.add("participants", "A game needs its participants.")
    ids = [p.player_id for p in participants]
    players = Player.objects.in_bulk(set(ids))
    member_ids = set(
        league.memberships.filter(player_id__in=ids).values_list("player_id", flat=True)
    )
    seen: set[int] = set()
    for index, p in enumerate(participants):
        if p.player_id not in players:
            errors.add(f"participants.{index}.player", f"There is no player with id {p.player_id}.")
        elif p.player_id in seen:
            errors.add(f"participants.{index}.player",
                       f"{players[p.player_id]} appears more than once in this game.")
        elif p.player_id not in member_ids:
            errors.add(f"participants.{index}.player",
                       f"{players[p.player_id]} is not a member of {league}.")
        seen.add(p.player_id)
    seats = [p.seat if p.seat is not None else index + 1 for index, p in enumerate(participants)]
    for index, seat in enumerate(seats):
        if not 1 <= seat <= len(participants):
            errors.add(f"participants.{index}.seat",
                       f"Seats are numbered 1 to {len(participants)}.")
        elif seats.index(seat) != index:
            errors.add(f"participants.{index}.seat", f"Seat {seat} is taken twice.")
    if season is not None and played_on is not None:
        if season.league_id != league.pk:
            errors.add("season", "This season belongs to another league.")
        elif not season.starts_on <= played_on <= season.ends_on:
            errors.add("season", f"{season.name} runs from {season.starts_on} to {season.ends_on}.")
    checked = None
    try:
        checked = check_results(game_key, edition_key, [p.result for p in participants], details)
    except ResultError as exc:
        for path, messages in exc.errors.items():
            for message in messages:
                errors.add(path, message)
    errors.raise_if_any()
    assert checked is not None and played_on is not None
    if season is None:
        season = league.seasons.filter(starts_on__lte=played_on, ends_on__gte=played_on).first()
    headline = game_type.fields[0].name if game_key != "cantankerous-cats" else "mischief_points"
    if game_key == "cat-ladies-of-maple-st":
        headline = "cats_collected"
    rows = [
        (players[p.player_id], seats[index], checked.results[index], checked.ranks[index])
        for index, p in enumerate(participants)
    ]
    return _CheckedGame(
        edition=edition_key, played_on=played_on, played_time=played_time, season=season,
        participants=rows, details=checked.details,
        rated=checked.rated and len(participants) >= 2, headline=headline,
    )


def _content_key(league: League, checked: _CheckedGame) -> str:
    canonical = json.dumps(
        {
            "edition": checked.edition,
            "played_on": checked.played_on.isoformat(),
            "played_time": checked.played_time.isoformat() if checked.played_time else None,
            "details": checked.details,
            "participants": sorted(
                [player.pk, seat, result] for player, seat, result, _ in checked.participants
            ),
        },
        sort_keys=True,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def _write_participants(game: Game, checked: _CheckedGame) -> None:
    Participant.objects.bulk_create(
        Participant(
            game=game, player=player, seat=seat, result=result,
            score=int(result.get(checked.headline) or 0), rank=rank,
        )
        for player, seat, result, rank in checked.participants
    )


def _snapshot(game: Game) -> dict[str, Any]:
    return {
        "edition": game.edition,
        "played_on": game.played_on,
        "played_time": game.played_time,
        "place": game.place,
        "notes": game.notes,
        "details": game.details,
        "participants": [
            {"player": p.player_id, "seat": p.seat, "result": p.result, "rank": p.rank}
            for p in game.participants.order_by("seat")
        ],
    }


@transaction.atomic
def game_record(
    *, league: League, participants: Sequence[ParticipantInput], played_on: dt.date | None,
    logged_by: AbstractBaseUser | None, game: str | None = None, edition: str | None = None,
    played_time: dt.time | None = None, season: Season | None = None, place: str = "",
    notes: str = "", details: Mapping[str, Any] | None = None,
) -> Game:
    """Record one physical game and rate it (rebuilding later ratings if it is backdated)."""
    league = _lock(league)
    checked = _check_game(
        league=league, game=game, edition=edition, played_on=played_on, played_time=played_time,
        season=season, participants=participants, details=details,
    )
    record = Game.objects.create(
        league=league, season=checked.season, game=league.game, edition=checked.edition,
        played_on=checked.played_on, played_time=checked.played_time, place=place, notes=notes,
        details=checked.details, rated=checked.rated, content_key=_content_key(league, checked),
        logged_by=logged_by if logged_by is not None and logged_by.is_authenticated else None,
    )
    _write_participants(record, checked)
    rating_pass.after_change(league, record, earliest=record.played_on)
    _audit(league=league, user=logged_by, action=AuditEntry.Action.CREATE, obj=record,
           changes=_snapshot(record))
    return record


_UNSET: Any = object()


@transaction.atomic
def game_edit(
    *, game: Game, by: AbstractBaseUser | None, participants: Sequence[ParticipantInput] | None = None,
    edition: str | None = None, played_on: dt.date | None = None,
    played_time: dt.time | None = _UNSET, season: Season | None = _UNSET, place: str | None = None,
    notes: str | None = None, details: Mapping[str, Any] | None = None,
) -> Game:
    """Change a recorded game; ratings from the earlier of its old and new dates are rebuilt."""
    league = _lock(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    before = _snapshot(game)
    current = [
        ParticipantInput(player_id=p.player_id, seat=p.seat, result=p.result)
        for p in game.participants.order_by("seat")
    ]
    checked = _check_game(
        league=league, game=game.game, edition=edition or game.edition,
        played_on=played_on or game.played_on,
        played_time=game.played_time if played_time is _UNSET else played_time,
        season=None if season is _UNSET else season,
        participants=current if participants is None else participants,
        details=game.details if details is None else details,
    )
    old_date = game.played_on
    old_players = set(game.participants.values_list("player_id", flat=True))
    game.edition = checked.edition
    game.played_on = checked.played_on
    game.played_time = checked.played_time
    game.season = checked.season
    game.details = checked.details
    game.rated = checked.rated
    game.content_key = _content_key(league, checked)
    if place is not None:
        game.place = place
    if notes is not None:
        game.notes = notes
    game.save()
    game.participants.all().delete()
    _write_participants(game, checked)
    rating_pass.after_change(
        league, game, earliest=min(old_date, game.played_on), also_players=old_players
    )
    _audit(league=league, user=by, action=AuditEntry.Action.UPDATE, obj=game,
           changes={"before": before, "after": _snapshot(game)})
    return game


@transaction.atomic
def game_delete(*, game: Game, by: AbstractBaseUser | None) -> None:
    league = _lock(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    before = _snapshot(game)
    players = set(game.participants.values_list("player_id", flat=True))
    played_on = game.played_on
    _audit(league=league, user=by, action=AuditEntry.Action.DELETE, obj=game,
           changes={"before": before})
    game.delete()
    rating_pass.rebuild_from(league, played_on, also_players=players)


@transaction.atomic
def ratings_rebuild(*, league: League, by: AbstractBaseUser | None = None) -> rating_pass.RebuildReport:
    """Rebuild a league's ratings from its first game and check the zero-sum invariant."""
    league = _lock(league)
    report = rating_pass.rebuild_all(league)
    AuditEntry.objects.create(
        league=league, user=by if by is not None and by.is_authenticated else None,
        action=AuditEntry.Action.REBUILD, object_type="League", object_id=league.pk,
        changes={"games": report.games_rated, "players": report.players,
                 "max_game_imbalance": report.max_game_imbalance},
    )
    return report


def participants_from(rows: Iterable[Mapping[str, Any]]) -> list[ParticipantInput]:
    return [
        ParticipantInput(player_id=row["player_id"], seat=row.get("seat"), result=row["result"])
        for row in rows
    ]
