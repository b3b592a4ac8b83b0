"""Every write to the league data: the API, the admin and the management commands call these.

Each service is atomic and takes a lock on the league row first, so two results posted to the
same league at the same moment are rated one after the other, never interleaved.
Bad input raises `django.core.exceptions.ValidationError` with a message per field.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts import notifications
from accounts.notifications import EmailKind
from league import night_seating, rating_pass
from league.catalogue import ResultError, check_results, get_game
from league.models import (
    AuditEntry,
    Game,
    GameConfirmation,
    GameDispute,
    Invitation,
    League,
    Membership,
    Participant,
    Player,
    Season,
)
from league.rating_systems import ELO, SYSTEM_CHOICES
from league.ratings import INITIAL_RATING_RANGE, K_FACTOR_RANGE, PROVISIONAL_GAMES_RANGE

# How long a result may wait for confirmation before it becomes final on its own.
CONFIRMATION_DAYS_RANGE = (1, 90)


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


def _account(user: AbstractBaseUser | None) -> User | None:
    """The login `user` is, for a foreign key; None for nobody, or a visitor (the untyped views
    may pass an AnonymousUser). Catleague's logins are django.contrib.auth's User."""
    return user if isinstance(user, User) else None


def record_audit(
    *,
    league: League | None,
    user: AbstractBaseUser | None,
    action: str,
    obj: Any,
    changes: Mapping[str, Any],
) -> None:
    """One line of the league's change log (who, what, on which object, which fields), written
    in the caller's transaction so it exists exactly when the change does."""
    AuditEntry.objects.create(
        league=league,
        user=_account(user),
        action=action,
        object_type=type(obj).__name__,
        object_id=obj.pk,
        changes=json.loads(json.dumps(changes, default=str)),
    )


def lock_league(league: League) -> League:
    """The league's row, locked until the transaction ends: every service that changes a
    league's games, members or nights takes it first, so two writers never interleave."""
    return League.objects.select_for_update().get(pk=league.pk)


# --- players, leagues, members, seasons ----------------------------------------------------


@transaction.atomic
def player_create(
    *, name: str, user: User | None = None, by: AbstractBaseUser | None = None
) -> Player:
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    if Player.objects.filter(name__iexact=name).exists():
        raise ValidationError({"name": [f"A player called {name!r} already exists."]})
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationError({"user": ["This login already belongs to a player."]})
    player = Player.objects.create(
        name=name,
        user=user,
        created_by=_account(by),
    )
    record_audit(
        league=None, user=by, action=AuditEntry.Action.CREATE, obj=player, changes={"name": name}
    )
    return player


@transaction.atomic
def player_rename(*, player: Player, name: str, by: AbstractBaseUser) -> Player:
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    if Player.objects.filter(name__iexact=name).exclude(pk=player.pk).exists():
        raise ValidationError({"name": [f"A player called {name!r} already exists."]})
    old = player.name
    player.name = name
    player.save(update_fields=["name"])
    record_audit(
        league=None,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=player,
        changes={"name": {"before": old, "after": name}},
    )
    return player


def player_for_user(user: User) -> Player:
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
    *,
    name: str,
    slug: str,
    game: str = "cat-lady",
    by: User,
    description: str = "",
    is_public: bool = True,
    k_factor: float = 32.0,
    initial_rating: float = 1500.0,
    provisional_games: int = 5,
    rating_system: str = ELO,
) -> League:
    errors = _Errors()
    _check_rating_system(rating_system, errors)
    try:
        get_game(game)
    except ResultError as exc:
        for path, messages in exc.errors.items():
            for message in messages:
                errors.add(path, message)
    for field_name, value, (low, high) in (
        ("k_factor", k_factor, K_FACTOR_RANGE),
        ("initial_rating", initial_rating, INITIAL_RATING_RANGE),
        ("provisional_games", provisional_games, PROVISIONAL_GAMES_RANGE),
    ):
        if not low <= value <= high:  # also refuses NaN, which compares false with everything
            errors.add(field_name, f"Must be between {low:g} and {high:g}.")
    if League.objects.filter(slug=slug).exists():
        errors.add("slug", f"A league with the slug {slug!r} already exists.")
    errors.raise_if_any()
    league = League.objects.create(
        name=name,
        slug=slug,
        game=game,
        description=description,
        is_public=is_public,
        k_factor=k_factor,
        initial_rating=initial_rating,
        provisional_games=provisional_games,
        rating_system=rating_system,
    )
    Membership.objects.create(
        league=league, player=player_for_user(by), role=Membership.Role.ORGANISER
    )
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=league,
        changes={"name": name, "slug": slug, "game": game},
    )
    return league


def _may_join(player: Player, by: AbstractBaseUser | None) -> bool:
    """A player joins a league only by their own consent, or as a guest (no login) that the
    person adding them entered themselves. An organiser cannot pull in someone else."""
    account = _account(by)
    if account is None:
        return False
    if account.is_superuser:
        return True
    if player.user_id is not None:
        return player.user_id == account.pk
    return player.created_by_id == account.pk


@transaction.atomic
def member_add(
    *,
    league: League,
    player: Player,
    role: str = Membership.Role.MEMBER,
    by: AbstractBaseUser | None,
) -> Membership:
    """Add a player to a league, or change the role of one who is already in it.

    A new member is either the person adding themselves (`invitation_accept` checks the
    invitation first) or a guest `by` created; anyone else is invited instead."""
    if role not in Membership.Role.values:
        raise ValidationError(
            {"role": [f"Role must be one of: {', '.join(Membership.Role.values)}."]}
        )
    existing = Membership.objects.filter(league=league, player=player).exists()
    if not existing and not _may_join(player, by):
        raise ValidationError(
            {
                "player": [
                    f"{player} has a login: send them an invitation, they join when they accept it."
                    if player.user_id is not None
                    else f"{player} is a guest someone else entered: add your own guest or send an "
                    "invitation."
                ]
            }
        )
    membership, created = Membership.objects.get_or_create(
        league=league, player=player, defaults={"role": role}
    )
    if not created:
        if membership.role == role:
            raise ValidationError({"player": [f"{player} is already a {role} of this league."]})
        membership.role = role
        membership.save(update_fields=["role"])
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE if created else AuditEntry.Action.UPDATE,
        obj=membership,
        changes={"player": player.name, "role": role},
    )
    return membership


@transaction.atomic
def member_remove(*, membership: Membership, by: AbstractBaseUser | None) -> None:
    league = membership.league
    if (
        membership.role == Membership.Role.ORGANISER
        and not league.memberships.filter(role=Membership.Role.ORGANISER)
        .exclude(pk=membership.pk)
        .exists()
    ):
        raise ValidationError({"player": ["A league keeps at least one organiser."]})
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DELETE,
        obj=membership,
        changes={"player": membership.player.name, "role": membership.role},
    )
    membership.delete()


@transaction.atomic
def guest_add(*, league: League, name: str, by: AbstractBaseUser) -> Membership:
    """A new player without a login (someone who came to play once), straight into the league."""
    player = player_create(name=name, by=by)
    return member_add(league=league, player=player, by=by)


@transaction.atomic
def member_set_role(*, membership: Membership, role: str, by: AbstractBaseUser) -> Membership:
    if role not in Membership.Role.values:
        raise ValidationError(
            {"role": [f"Role must be one of: {', '.join(Membership.Role.values)}."]}
        )
    league = lock_league(membership.league)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == role:
        raise ValidationError({"role": [f"{membership.player} is already a {role}."]})
    if (
        membership.role == Membership.Role.ORGANISER
        and not league.memberships.filter(role=Membership.Role.ORGANISER)
        .exclude(pk=membership.pk)
        .exists()
    ):
        raise ValidationError({"role": ["A league keeps at least one organiser."]})
    before = membership.role
    membership.role = role
    membership.save(update_fields=["role"])
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=membership,
        changes={"player": membership.player.name, "role": {"before": before, "after": role}},
    )
    return membership


@transaction.atomic
def league_update(
    *,
    league: League,
    by: AbstractBaseUser,
    name: str,
    description: str,
    is_public: bool,
    provisional_games: int,
    rating_system: str | None = None,
    confirmation: str | None = None,
    confirmation_days: int | None = None,
) -> League:
    """The league's settings. K factor and start rating are fixed once games are rated (a
    change would rewrite the league's history); the rating system may change, and every
    rating is then rebuilt under the new one.

    A new confirmation rule applies to games logged from now on; games already waiting keep
    waiting until they are confirmed (or their window ends)."""
    league = lock_league(league)
    errors = _Errors()
    if not name.strip():
        errors.add("name", "A league needs a name.")
    if rating_system is not None:
        _check_rating_system(rating_system, errors)
    if confirmation is not None and confirmation not in League.Confirmation.values:
        errors.add("confirmation", f"Choose one of: {', '.join(League.Confirmation.values)}.")
    low, high = CONFIRMATION_DAYS_RANGE
    if confirmation_days is not None and not low <= confirmation_days <= high:
        errors.add("confirmation_days", f"Must be between {low} and {high} days.")
    errors.raise_if_any()
    changes = {}
    for field_name, value in (
        ("name", name.strip()),
        ("description", description),
        ("is_public", is_public),
        ("provisional_games", provisional_games),
        ("rating_system", league.rating_system if rating_system is None else rating_system),
        ("confirmation", confirmation if confirmation is not None else league.confirmation),
        (
            "confirmation_days",
            confirmation_days if confirmation_days is not None else league.confirmation_days,
        ),
    ):
        if getattr(league, field_name) != value:
            changes[field_name] = {"before": getattr(league, field_name), "after": value}
            setattr(league, field_name, value)
    if changes:
        league.save()
        record_audit(
            league=league, user=by, action=AuditEntry.Action.UPDATE, obj=league, changes=changes
        )
    if "rating_system" in changes:
        report = rating_pass.rebuild_all(league)
        record_audit(
            league=league,
            user=by,
            action=AuditEntry.Action.REBUILD,
            obj=league,
            changes={"rating_system": league.rating_system, "games": report.games_rated},
        )
    return league


def _check_rating_system(key: str, errors: _Errors) -> None:
    known = dict(SYSTEM_CHOICES)
    if key not in known:
        errors.add("rating_system", f"Choose one of: {', '.join(known)}.")


@transaction.atomic
def invitation_create(
    *,
    league: League,
    by: User,
    player: Player | None = None,
    days: int | None = None,
    email: str = "",
) -> Invitation:
    """A link to join `league`; with `player`, for the one person who takes over that guest.
    With `email`, the link is also e-mailed to that address once the invitation is saved."""
    errors = _Errors()
    if player is not None:
        if player.user_id is not None:
            errors.add("player", f"{player} already has a login.")
        elif not league.memberships.filter(player=player).exists():
            errors.add("player", f"{player} is not a guest of {league}.")
    email = email.strip()
    if email:
        try:
            validate_email(email)
        except ValidationError:
            errors.add("email", f"{email!r} is not an e-mail address.")
    errors.raise_if_any()
    valid_for = dt.timedelta(days=days or settings.CATLEAGUE_INVITATION_DAYS)
    invitation = Invitation.objects.create(
        league=league,
        player=player,
        created_by=by,
        token=secrets.token_urlsafe(24),
        expires_at=timezone.now() + valid_for,
    )
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=invitation,
        changes={
            "player": player.name if player else None,
            "expires_at": invitation.expires_at,
            **({"emailed_to": email} if email else {}),
        },
    )
    if email:
        notifications.invite(
            to=email,
            context={
                "league": league.name,
                "game_name": league.get_game_display(),
                "by": _name_of(by),
                "guest": player.name if player else "",
                "expires": _day(timezone.localdate(invitation.expires_at)),
                "path": reverse("league:invitation", args=[invitation.token]),
            },
        )
    return invitation


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, by: AbstractBaseUser) -> None:
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
        record_audit(
            league=invitation.league,
            user=by,
            action=AuditEntry.Action.DELETE,
            obj=invitation,
            changes={"revoked": True},
        )


def invitation_problem(invitation: Invitation) -> str | None:
    """Why this invitation cannot be accepted any more, or None."""
    if invitation.revoked_at is not None:
        return "This invitation was withdrawn by the league's organisers."
    if invitation.player_id is not None and invitation.accepted_at is not None:
        return "This invitation has already been used."
    if invitation.expires_at <= timezone.now():
        return "This invitation has expired; ask the organisers for a new link."
    return None


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user: User) -> Membership:
    """The invitee joins, by their own consent. A guest invitation gives them that guest player
    and its games; their own player, if they had one without games, gives way to it."""
    invitation = (
        Invitation.objects.select_for_update(of=("self",))
        .select_related("league", "player")
        .get(pk=invitation.pk)
    )
    league = lock_league(invitation.league)
    problem = invitation_problem(invitation)
    if problem:
        raise ValidationError({"invitation": [problem]})
    own = Player.objects.filter(user=user).first()
    if invitation.player is not None:
        guest = Player.objects.select_for_update().get(pk=invitation.player.pk)
        if guest.user_id is not None:
            raise ValidationError({"invitation": [f"{guest} already belongs to an account."]})
        if own is not None:
            if own.participations.exists():
                raise ValidationError(
                    {
                        "invitation": [
                            f"Your account already plays as {own}, with games of its own; ask an "
                            "administrator to merge the two players."
                        ]
                    }
                )
            for membership in own.memberships.all():
                if not guest.memberships.filter(league=membership.league).exists():
                    membership.player = guest
                    membership.save(update_fields=["player"])
            own.delete()
        guest.user = user
        guest.save(update_fields=["user"])
        record_audit(
            league=league,
            user=user,
            action=AuditEntry.Action.UPDATE,
            obj=guest,
            changes={"claimed_by": user.get_username()},
        )
        membership = league.memberships.get(player=guest)
    else:
        player = own or player_for_user(user)
        if league.memberships.filter(player=player).exists():
            raise ValidationError({"invitation": [f"You are already a member of {league}."]})
        membership = member_add(league=league, player=player, by=user)
    invitation.accepted_by = user
    invitation.accepted_at = timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    return membership


@transaction.atomic
def season_close(*, season: Season, by: AbstractBaseUser, ends_on: dt.date | None = None) -> Season:
    """End a season early (today unless told); games after the new end leave the season."""
    league = lock_league(season.league)
    season = Season.objects.select_for_update().get(pk=season.pk)
    ends_on = ends_on or timezone.localdate()
    if ends_on < season.starts_on:
        raise ValidationError({"ends_on": [f"{season.name} starts on {season.starts_on}."]})
    if ends_on >= season.ends_on:
        raise ValidationError({"ends_on": [f"{season.name} already ends on {season.ends_on}."]})
    before = season.ends_on
    season.ends_on = ends_on
    season.save(update_fields=["ends_on"])
    league.games.filter(season=season, played_on__gt=ends_on).update(season=None)
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=season,
        changes={"ends_on": {"before": before, "after": ends_on}},
    )
    return season


@transaction.atomic
def season_create(
    *, league: League, name: str, starts_on: dt.date, ends_on: dt.date, by: AbstractBaseUser | None
) -> Season:
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
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=season,
        changes={"name": name, "starts_on": starts_on, "ends_on": ends_on},
    )
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
    *,
    league: League,
    game: str | None,
    edition: str | None,
    played_on: dt.date | None,
    played_time: dt.time | None,
    season: Season | None,
    participants: Sequence[ParticipantInput],
    details: Mapping[str, Any] | None,
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
            errors.add(
                f"participants.{index}.player",
                f"{players[p.player_id]} appears more than once in this game.",
            )
        elif p.player_id not in member_ids:
            errors.add(
                f"participants.{index}.player",
                f"{players[p.player_id]} is not a member of {league}.",
            )
        seen.add(p.player_id)
    seats = [p.seat if p.seat is not None else index + 1 for index, p in enumerate(participants)]
    for index, seat in enumerate(seats):
        if not 1 <= seat <= len(participants):
            errors.add(
                f"participants.{index}.seat", f"Seats are numbered 1 to {len(participants)}."
            )
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
        edition=edition_key,
        played_on=played_on,
        played_time=played_time,
        season=season,
        participants=rows,
        details=checked.details,
        rated=checked.rated and len(participants) >= 2,
        headline=headline,
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
            game=game,
            player=player,
            seat=seat,
            result=result,
            score=int(result.get(checked.headline) or 0),
            rank=rank,
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
    *,
    league: League,
    participants: Sequence[ParticipantInput],
    played_on: dt.date | None,
    logged_by: AbstractBaseUser | None,
    game: str | None = None,
    edition: str | None = None,
    played_time: dt.time | None = None,
    season: Season | None = None,
    place: str = "",
    notes: str = "",
    details: Mapping[str, Any] | None = None,
) -> Game:
    """Record one physical game and rate it (rebuilding later ratings if it is backdated).

    In a league whose results wait for confirmation the game is recorded as pending and rated
    only once confirmed (`game_confirm`)."""
    league = lock_league(league)
    checked = _check_game(
        league=league,
        game=game,
        edition=edition,
        played_on=played_on,
        played_time=played_time,
        season=season,
        participants=participants,
        details=details,
    )
    record = Game.objects.create(
        league=league,
        season=checked.season,
        game=league.game,
        edition=checked.edition,
        played_on=checked.played_on,
        played_time=checked.played_time,
        place=place,
        notes=notes,
        details=checked.details,
        rated=checked.rated,
        content_key=_content_key(league, checked),
        logged_by=_account(logged_by),
        status=_status_when_logged(league, logged_by),
    )
    _write_participants(record, checked)
    rating_pass.after_change(league, record, earliest=record.played_on)
    record_audit(
        league=league,
        user=logged_by,
        action=AuditEntry.Action.CREATE,
        obj=record,
        changes=_snapshot(record),
    )
    if record.status == Game.Status.PENDING:
        _notify_pending(league, record, logged_by)
    return record


_UNSET: Any = object()


@transaction.atomic
def game_edit(
    *,
    game: Game,
    by: AbstractBaseUser | None,
    participants: Sequence[ParticipantInput] | None = None,
    edition: str | None = None,
    played_on: dt.date | None = None,
    played_time: dt.time | None = _UNSET,
    season: Season | None = _UNSET,
    place: str | None = None,
    notes: str | None = None,
    details: Mapping[str, Any] | None = None,
) -> Game:
    """Change a recorded game; ratings from the earlier of its old and new dates are rebuilt.

    The game of a night's table keeps its players (`night_seating.check_correction`)."""
    league = lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if participants is not None:
        night_seating.check_correction(game, [p.player_id for p in participants])
    before = _snapshot(game)
    current = [
        ParticipantInput(player_id=p.player_id, seat=p.seat, result=p.result)
        for p in game.participants.order_by("seat")
    ]
    checked = _check_game(
        league=league,
        game=game.game,
        edition=edition or game.edition,
        played_on=played_on or game.played_on,
        played_time=game.played_time if played_time is _UNSET else played_time,
        season=None if season is _UNSET else season,
        participants=current if participants is None else participants,
        details=game.details if details is None else details,
    )
    old_date = game.played_on
    old_players = set(game.participants.values_list("player_id", flat=True))
    old_table = _mail_table(game)
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
    after = _snapshot(game)
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=game,
        changes={"before": before, "after": after},
    )
    if _result_changed(before, after):
        notifications.notify(
            kind=EmailKind.GAME_CORRECTED,
            user_ids=_users_of(old_players | {p.pk for p, _, _, _ in checked.participants}),
            context={
                **_game_mail(game, by=by),
                "before": old_table,
                "before_played_on": _day(old_date),
            },
            exclude=_user_id(by),
        )
    return game


@transaction.atomic
def game_delete(*, game: Game, by: AbstractBaseUser | None) -> None:
    league = lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    before = _snapshot(game)
    players = set(game.participants.values_list("player_id", flat=True))
    played_on = game.played_on
    mail = {**_game_mail(game, by=by), "path": reverse("league:detail", args=[league.slug])}
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DELETE,
        obj=game,
        changes={"before": before},
    )
    game.delete()
    rating_pass.rebuild_from(league, played_on, also_players=players)
    notifications.notify(
        kind=EmailKind.GAME_DELETED, user_ids=_users_of(players), context=mail, exclude=_user_id(by)
    )


@dataclass(frozen=True)
class GameInput:
    """One game of a batch for `games_import`."""

    participants: Sequence[ParticipantInput]
    played_on: dt.date
    edition: str | None = None
    played_time: dt.time | None = None
    place: str = ""
    notes: str = ""
    details: Mapping[str, Any] | None = None
    bgstats_uuid: str = ""


@transaction.atomic
def games_import(
    *, league: League, games: Sequence[GameInput], logged_by: AbstractBaseUser | None
) -> list[Game]:
    """Record many games at once (a BG Stats import): each checked as `game_record` checks
    it, all written or none, and the ratings rebuilt once from the earliest of them.

    A game whose `bgstats_uuid` the league already has is an error (`games.N.bgstats_uuid`),
    as is any other problem, each under its game's index."""
    league = lock_league(league)
    errors = _Errors()
    uuids = [g.bgstats_uuid for g in games if g.bgstats_uuid]
    taken = set(league.games.filter(bgstats_uuid__in=uuids).values_list("bgstats_uuid", flat=True))
    checked_games = []
    for index, game in enumerate(games):
        if game.bgstats_uuid in taken:
            errors.add(f"games.{index}.bgstats_uuid", "This play was imported already.")
        try:
            checked_games.append(
                _check_game(
                    league=league,
                    game=None,
                    edition=game.edition,
                    played_on=game.played_on,
                    played_time=game.played_time,
                    season=None,
                    participants=game.participants,
                    details=game.details,
                )
            )
        except ValidationError as exc:
            for path, messages in exc.message_dict.items():
                for message in messages:
                    errors.add(f"games.{index}.{path}", message)
    errors.raise_if_any()
    records = []
    players: set[int] = set()
    for game, checked in zip(games, checked_games, strict=True):
        record = Game.objects.create(
            league=league,
            season=checked.season,
            game=league.game,
            edition=checked.edition,
            played_on=checked.played_on,
            played_time=checked.played_time,
            place=game.place,
            notes=game.notes,
            details=checked.details,
            rated=checked.rated,
            content_key=_content_key(league, checked),
            bgstats_uuid=game.bgstats_uuid,
            logged_by=_account(logged_by),
        )
        _write_participants(record, checked)
        players.update(p.pk for p, _, _, _ in checked.participants)
        record_audit(
            league=league,
            user=logged_by,
            action=AuditEntry.Action.CREATE,
            obj=record,
            changes={**_snapshot(record), "imported_from": "BG Stats", "uuid": game.bgstats_uuid},
        )
        records.append(record)
    if records:
        rating_pass.rebuild_from(league, min(r.played_on for r in records), also_players=players)
    return records


@transaction.atomic
def ratings_rebuild(
    *, league: League, by: AbstractBaseUser | None = None
) -> rating_pass.RebuildReport:
    """Rebuild a league's ratings from its first game and check the zero-sum invariant."""
    league = lock_league(league)
    report = rating_pass.rebuild_all(league)
    AuditEntry.objects.create(
        league=league,
        user=_account(by),
        action=AuditEntry.Action.REBUILD,
        object_type="League",
        object_id=league.pk,
        changes={
            "games": report.games_rated,
            "players": report.players,
            "max_game_imbalance": report.max_game_imbalance,
        },
    )
    return report


# --- confirmation ---------------------------------------------------------------------------


def _status_when_logged(league: League, logged_by: AbstractBaseUser | None) -> str:
    if league.confirmation == League.Confirmation.NONE:
        return Game.Status.CONFIRMED
    if league.confirmation == League.Confirmation.ORGANISER and _organises(league, logged_by):
        return Game.Status.CONFIRMED
    return Game.Status.PENDING


def _organises(league: League, user: AbstractBaseUser | None) -> bool:
    account = _account(user)
    if account is None:
        return False
    return (
        bool(account.is_superuser)
        or league.memberships.filter(player__user=account, role=Membership.Role.ORGANISER).exists()
    )


def confirmers(game: Game) -> list[int]:
    """The user ids whose confirmation the game's league asks for (participants with a login
    other than whoever logged it); empty when only an organiser confirms."""
    if game.league.confirmation not in (League.Confirmation.ANOTHER, League.Confirmation.ALL):
        return []
    return [
        user_id
        for user_id in game.participants.filter(player__user__isnull=False)
        .order_by("seat")
        .values_list("player__user_id", flat=True)
        if user_id != game.logged_by_id
    ]


def _settled(game: Game) -> bool:
    confirmed = set(game.confirmations.values_list("user_id", flat=True))
    if game.confirmations.filter(as_organiser=True).exists():
        return True
    wanted = set(confirmers(game))
    if game.league.confirmation == League.Confirmation.ANOTHER:
        return bool(wanted & confirmed)
    if game.league.confirmation == League.Confirmation.ALL:
        return bool(wanted) and wanted <= confirmed
    return False


def _make_final(league: League, game: Game) -> None:
    game.status = Game.Status.CONFIRMED
    game.confirmed_at = timezone.now()
    game.save(update_fields=["status", "confirmed_at", "updated_at"])
    # Rated now, in its place in the play order: a game played before others rebuilds them.
    rating_pass.after_change(league, game, earliest=game.played_on)


@transaction.atomic
def game_confirm(*, game: Game, by: User) -> Game:
    """A participant with a login (or an organiser) confirms a game that waits for it.

    The game is rated as soon as the league's rule is met: one other participant, all of them,
    or an organiser (whose confirmation always settles it)."""
    league = lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    as_organiser = _organises(league, by)
    if game.status == Game.Status.CONFIRMED:
        raise ValidationError({"game": ["This game is already confirmed."]})
    if game.status == Game.Status.DISPUTED:
        if not as_organiser:
            raise ValidationError({"game": ["This game is disputed: an organiser resolves it."]})
        # An organiser confirming a disputed game settles the dispute: the result stands as
        # recorded (or as corrected since), and the dispute no longer waits to be settled.
        dispute = game.disputes.filter(resolved_at__isnull=True).first()
        if dispute is not None:
            dispute_resolve(dispute=dispute, by=by)
            return Game.objects.get(pk=game.pk)
    if not as_organiser:
        if by.pk not in confirmers(game):
            message = (
                "You logged this game: another participant confirms it."
                if game.logged_by_id == by.pk
                else "Only the game's other participants with a login (or an organiser) confirm it."
            )
            raise ValidationError({"game": [message]})
        if game.confirmations.filter(user=by).exists():
            raise ValidationError({"game": ["You have already confirmed this game."]})
    GameConfirmation.objects.update_or_create(
        game=game,
        user=by,
        defaults={"player": Player.objects.filter(user=by).first(), "as_organiser": as_organiser},
    )
    final = _settled(game)
    if final:
        _make_final(league, game)
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CONFIRM,
        obj=game,
        changes={"as": "organiser" if as_organiser else "participant", "final": final},
    )
    return game


@transaction.atomic
def game_dispute(*, game: Game, by: User, reason: str) -> GameDispute:
    """A participant says a game waiting for confirmation is wrong; organisers resolve it."""
    league = lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": ["Say what is wrong with this result."]})
    if not game.participants.filter(player__user=by).exists():
        raise ValidationError({"game": ["Only the game's participants dispute it."]})
    if game.status == Game.Status.CONFIRMED:
        raise ValidationError(
            {"game": ["This game is already confirmed: ask an organiser to correct it."]}
        )
    if game.status == Game.Status.DISPUTED:
        raise ValidationError({"game": ["This game is already disputed."]})
    game.status = Game.Status.DISPUTED
    game.save(update_fields=["status", "updated_at"])
    dispute = GameDispute.objects.create(game=game, league=league, raised_by=by, reason=reason)
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DISPUTE,
        obj=game,
        changes={"reason": reason},
    )
    players = set(game.participants.values_list("player_id", flat=True))
    notifications.notify(
        kind=EmailKind.GAME_DISPUTED,
        user_ids=_users_of(players) | _organiser_ids(league),
        context={**_game_mail(game, by=by), "reason": reason},
        exclude=by.pk,
    )
    return dispute


@transaction.atomic
def dispute_resolve(
    *, dispute: GameDispute, by: User, delete: bool = False, note: str = ""
) -> GameDispute:
    """An organiser settles a dispute: the game stands (as recorded, or as they corrected it
    since) and is rated, or it is deleted."""
    league = lock_league(dispute.league)
    if not _organises(league, by):
        # The page and the API check this first; the service holds the rule too, so that no
        # new caller can let a member settle a dispute about their own game.
        raise PermissionDenied("Only this league's organisers settle disputes.")
    dispute = GameDispute.objects.select_for_update().get(pk=dispute.pk)
    if dispute.resolved_at is not None:
        raise ValidationError({"dispute": ["This dispute is already resolved."]})
    game, game_id = dispute.game, dispute.game_id
    if game is None:
        dispute.resolution = GameDispute.Resolution.DELETED
    elif delete:
        game_delete(game=game, by=by)
        dispute.game = None
        dispute.resolution = GameDispute.Resolution.DELETED
    else:
        game = Game.objects.select_for_update().get(pk=game.pk)
        edited = AuditEntry.objects.filter(
            object_type="Game",
            object_id=game.pk,
            action=AuditEntry.Action.UPDATE,
            at__gt=dispute.raised_at,
        ).exists()
        GameConfirmation.objects.update_or_create(
            game=game,
            user=by,
            defaults={"player": Player.objects.filter(user=by).first(), "as_organiser": True},
        )
        if game.status != Game.Status.CONFIRMED:
            _make_final(league, game)
        dispute.resolution = (
            GameDispute.Resolution.CORRECTED if edited else GameDispute.Resolution.CONFIRMED
        )
    dispute.resolved_by = by
    dispute.resolved_at = timezone.now()
    dispute.note = note.strip()
    dispute.save()
    record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CONFIRM if not delete else AuditEntry.Action.DELETE,
        obj=dispute,
        changes={
            "game": game_id,
            "resolution": dispute.resolution,
            "note": dispute.note,
        },
    )
    return dispute


def games_confirm_overdue(*, now: dt.datetime | None = None) -> int:
    """Confirm every game that waited longer than its league's window with nobody confirming or
    disputing it (the periodic task calls this). Returns how many were confirmed."""
    now = now or timezone.now()
    confirmed = 0
    league_ids = (
        Game.objects.filter(status=Game.Status.PENDING)
        .order_by()
        .values_list("league_id", flat=True)
        .distinct()
    )
    for league_id in list(league_ids):
        with transaction.atomic():
            league = lock_league(League(pk=league_id))
            deadline = now - dt.timedelta(days=league.confirmation_days)
            overdue = Game.objects.select_for_update().filter(
                league=league, status=Game.Status.PENDING, created_at__lte=deadline
            )
            for game in overdue.in_play_order():
                _make_final(league, game)
                record_audit(
                    league=league,
                    user=None,
                    action=AuditEntry.Action.CONFIRM,
                    obj=game,
                    changes={
                        "automatic": True,
                        "reason": f"Nobody confirmed or disputed it within "
                        f"{league.confirmation_days} days.",
                    },
                )
                confirmed += 1
    return confirmed


# --- e-mail to the people concerned (queued when the transaction commits) -------------------


def _day(day: dt.date) -> str:
    return f"{day.day} {day:%b %Y}"


def _user_id(user: AbstractBaseUser | None) -> int | None:
    account = _account(user)
    return None if account is None else account.pk


def _name_of(user: AbstractBaseUser | None) -> str:
    """How an e-mail names who did something: their player's name, else their username."""
    account = _account(user)
    if account is None:
        return "Catleague"
    name = Player.objects.filter(user=account).values_list("name", flat=True).first()
    return name or account.get_username()


def _users_of(player_ids: set[int]) -> set[int]:
    """The logins of these players; guests have none and get no e-mail."""
    return set(
        Player.objects.filter(pk__in=player_ids, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def _organiser_ids(league: League) -> set[int]:
    return set(
        league.memberships.filter(
            role=Membership.Role.ORGANISER, player__user__isnull=False
        ).values_list("player__user_id", flat=True)
    )


def _mail_table(game: Game) -> list[str]:
    return [
        f"{p.rank}. {p.player.name}: {p.score}"
        for p in game.participants.select_related("player").order_by("rank", "seat")
    ]


def _game_mail(game: Game, *, by: AbstractBaseUser | None) -> dict[str, Any]:
    """What every e-mail about a game says: league, game, date, table, who, and its page."""
    league = game.league
    return {
        "league": league.name,
        "game_name": game.get_game_display(),
        "played_on": _day(game.played_on),
        "table": _mail_table(game),
        "by": _name_of(by),
        "days": league.confirmation_days,
        "path": reverse("league:game", args=[league.slug, game.pk]),
    }


def _result_changed(before: Mapping[str, Any], after: Mapping[str, Any]) -> bool:
    """Whether a correction changed the result (not only the place or the notes)."""
    return any(before[key] != after[key] for key in before if key not in ("place", "notes"))


def _notify_pending(league: League, game: Game, logged_by: AbstractBaseUser | None) -> None:
    """A game waits for confirmation: tell whoever the league's rule asks to confirm it."""
    if league.confirmation == League.Confirmation.ORGANISER:
        kind, user_ids = EmailKind.LEAGUE_PENDING, _organiser_ids(league)
    else:
        kind, user_ids = EmailKind.GAME_PENDING, set(confirmers(game))
    notifications.notify(
        kind=kind,
        user_ids=user_ids,
        context=_game_mail(game, by=logged_by),
        exclude=_user_id(logged_by),
    )
