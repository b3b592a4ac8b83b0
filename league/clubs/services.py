"""Every write of players, leagues, members and seasons (invitations: `league.clubs.invitations`):
the pages, the API, the admin and the management commands call these. Each is atomic under the
league's lock (`league.common`); bad input raises ValidationError with a message per field.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import AbstractBaseUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from league import common
from league.catalogue import ResultError, get_game
from league.clubs import limits
from league.models import AuditEntry, League, Membership, Player, Season
from league.rating_systems import ELO, SYSTEM_CHOICES
from league.results import ratings

# --- players, leagues, members, seasons ----------------------------------------------------


def _clash(league: League, name: str, *, player: Player | None = None) -> Membership | None:
    """The member of `league` already called `name` (letter case aside), other than `player`."""
    others = league.memberships.filter(player__name__iexact=name).select_related("player")
    return (others.exclude(player=player) if player is not None else others).first()


@transaction.atomic
def player_create(
    *, name: str, user: User | None = None, by: AbstractBaseUser | None = None
) -> Player:
    """A new player. Names are unique within a league, not site-wide (`member_add` checks): so
    the answer never depends on players `by` may not see."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    if user is not None and Player.objects.filter(user=user).exists():
        raise ValidationError({"user": ["This login already belongs to a player."]})
    player = Player.objects.create(
        name=name,
        user=user,
        created_by=common.account_of(by),
    )
    common.record_audit(
        league=None, user=by, action=AuditEntry.Action.CREATE, obj=player, changes={"name": name}
    )
    return player


@transaction.atomic
def player_rename(*, player: Player, name: str, by: AbstractBaseUser) -> Player:
    """A new name for a player, refused where another member of one of their leagues has it."""
    name = name.strip()
    if not name:
        raise ValidationError({"name": ["A player needs a name."]})
    leagues = [
        common.lock_league(league)
        for league in League.objects.filter(memberships__player=player).order_by("pk")
    ]
    taken = [league for league in leagues if _clash(league, name, player=player)]
    if taken:
        # Only leagues the renamer may see are named: a guest they entered may have been taken
        # into a private league since, whose name and members are none of their business.
        seen = set(League.objects.visible_to(by).filter(pk__in=[t.pk for t in taken]))
        named = [league.name for league in taken if league in seen]
        unseen = len(taken) - len(named)
        if unseen:
            named.append(
                "a league you cannot see" if unseen == 1 else f"{unseen} leagues you cannot see"
            )
        has = "has" if len(named) == 1 else "have"
        said = f"{' and '.join(named)} already {has} a player called {name!r}."
        raise ValidationError({"name": [said[0].upper() + said[1:]]})
    common.save_audited(player, field_name="name", value=name, league=None, by=by)
    return player


def player_for_user(user: User) -> Player:
    """The player of a login, created on first use with the login's username."""
    player = Player.objects.filter(user=user).first()
    if player is not None:
        return player
    return Player.objects.create(name=user.get_username(), user=user)


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
    errors = common.Errors()
    _check_rating_system(rating_system, errors)
    try:
        get_game(game)
    except ResultError as exc:
        for path, messages in exc.errors.items():
            for message in messages:
                errors.add(path, message)
    for field_name, value, (low, high) in (
        ("k_factor", k_factor, limits.K_FACTOR_RANGE),
        ("initial_rating", initial_rating, limits.INITIAL_RATING_RANGE),
        ("provisional_games", provisional_games, limits.PROVISIONAL_GAMES_RANGE),
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
    common.record_audit(
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
    account = common.account_of(by)
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
    league = common.lock_league(league)
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
    if not existing and _clash(league, player.name):
        raise ValidationError({"player": [_name_taken(league, player)]})
    membership, created = Membership.objects.get_or_create(
        league=league, player=player, defaults={"role": role}
    )
    if not created:
        if membership.role == role:
            raise ValidationError({"player": [f"{player} is already a {role} of this league."]})
        membership.role = role
        membership.save(update_fields=["role"])
    common.record_audit(
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
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DELETE,
        obj=membership,
        changes={"player": membership.player.name, "role": membership.role},
    )
    membership.delete()


def _name_taken(league: League, player: Player) -> str:
    if player.user_id is None:
        return f"{league} already has a player called {player.name!r}: choose another name."
    return (
        f"{league} already has a player called {player.name!r}. If that guest is you, ask the "
        "organisers for the invitation made for that guest; otherwise choose another name on "
        "your account page, then accept again."
    )


@transaction.atomic
def guest_add(*, league: League, name: str, by: AbstractBaseUser) -> Membership:
    """A new player without a login (someone who came to play once), straight into the league."""
    league = common.lock_league(league)
    if name.strip() and _clash(league, name.strip()):
        raise ValidationError(
            {
                "name": [
                    f"{league} already has a player called {name.strip()!r}: choose another name."
                ]
            }
        )
    player = player_create(name=name, by=by)
    return member_add(league=league, player=player, by=by)


@transaction.atomic
def member_set_role(*, membership: Membership, role: str, by: AbstractBaseUser) -> Membership:
    if role not in Membership.Role.values:
        raise ValidationError(
            {"role": [f"Role must be one of: {', '.join(Membership.Role.values)}."]}
        )
    league = common.lock_league(membership.league)
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
    common.save_audited(
        membership,
        field_name="role",
        value=role,
        league=league,
        by=by,
        context={"player": membership.player.name},
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
    league = common.lock_league(league)
    errors = common.Errors()
    if not name.strip():
        errors.add("name", "A league needs a name.")
    if rating_system is not None:
        _check_rating_system(rating_system, errors)
    if confirmation is not None and confirmation not in League.Confirmation.values:
        errors.add("confirmation", f"Choose one of: {', '.join(League.Confirmation.values)}.")
    low, high = limits.CONFIRMATION_DAYS_RANGE
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
        common.record_audit(
            league=league, user=by, action=AuditEntry.Action.UPDATE, obj=league, changes=changes
        )
    if "rating_system" in changes:
        report = ratings.rebuild_all(league)
        common.record_audit(
            league=league,
            user=by,
            action=AuditEntry.Action.REBUILD,
            obj=league,
            changes={"rating_system": league.rating_system, "games": report.games_rated},
        )
    return league


def _check_rating_system(key: str, errors: common.Errors) -> None:
    known = dict(SYSTEM_CHOICES)
    if key not in known:
        errors.add("rating_system", f"Choose one of: {', '.join(known)}.")


@transaction.atomic
def season_close(*, season: Season, by: AbstractBaseUser, ends_on: dt.date | None = None) -> Season:
    """End a season early (today unless told); games after the new end leave the season."""
    league = common.lock_league(season.league)
    season = Season.objects.select_for_update().get(pk=season.pk)
    ends_on = ends_on or timezone.localdate()
    if ends_on < season.starts_on:
        raise ValidationError({"ends_on": [f"{season.name} starts on {season.starts_on}."]})
    if ends_on >= season.ends_on:
        raise ValidationError({"ends_on": [f"{season.name} already ends on {season.ends_on}."]})
    common.save_audited(season, field_name="ends_on", value=ends_on, league=league, by=by)
    league.games.filter(season=season, played_on__gt=ends_on).update(season=None)
    return season


@transaction.atomic
def season_create(
    *, league: League, name: str, starts_on: dt.date, ends_on: dt.date, by: AbstractBaseUser | None
) -> Season:
    errors = common.Errors()
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
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CREATE,
        obj=season,
        changes={"name": name, "starts_on": starts_on, "ends_on": ends_on},
    )
    return season
