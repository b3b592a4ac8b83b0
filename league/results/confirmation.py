"""Confirming, disputing and resolving logged games, and making overdue ones final. Atomic,
under the league's lock (`league.common`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from accounts import notifications
from accounts.notifications import EmailKind
from league import common
from league.models import (
    AuditEntry,
    Game,
    GameConfirmation,
    GameDispute,
    League,
    Participant,
    Player,
)
from league.results import checks, mail, ratings, services


def _settled(game: Game) -> bool:
    confirmed = set(game.confirmations.values_list("user_id", flat=True))
    if game.confirmations.filter(as_organiser=True).exists():
        return True
    wanted = set(checks.confirmers(game))
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
    ratings.after_change(league, game, earliest=game.played_on)


@transaction.atomic
def game_confirm(*, game: Game, by: User) -> Game:
    """A participant with a login who is still a member (or an organiser) confirms a game that
    waits for it.

    The game is rated as soon as the league's rule is met: one other participant, all of them,
    or an organiser (whose confirmation always settles it). Raises PermissionDenied for whoever
    may not confirm it, ValidationError for a game that does not wait (any more)."""
    league = common.lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    as_organiser = checks.organises(league, by)
    if not as_organiser and by.pk not in checks.confirmers(game):
        raise PermissionDenied(_refusal(league, game, by))
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
    if not as_organiser and game.confirmations.filter(user=by).exists():
        raise ValidationError({"game": ["You have already confirmed this game."]})
    final = _add_confirmation(league, game, by=by, as_organiser=as_organiser)
    if final:
        _make_final(league, game)
    return game


def _refusal(league: League, game: Game, by: User) -> str:
    if league.confirmation == League.Confirmation.ORGANISER:
        return "In this league an organiser confirms results."
    if game.logged_by_id == by.pk and checks.plays_in(game, by):
        return "You logged this game: another participant confirms it."
    return "Only the game's other participants who are members (or an organiser) confirm it."


def _add_confirmation(league: League, game: Game, *, by: User, as_organiser: bool) -> bool:
    """Record `by`'s confirmation (and its change-log line); whether the game is now final."""
    GameConfirmation.objects.update_or_create(
        game=game,
        user=by,
        defaults={"player": Player.objects.filter(user=by).first(), "as_organiser": as_organiser},
    )
    final = _settled(game)
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.CONFIRM,
        obj=game,
        changes={"as": "organiser" if as_organiser else "participant", "final": final},
    )
    return final


@dataclass(frozen=True)
class ManyConfirmed:
    confirmed: list[Game]
    disputed: list[Game]  # left for the organiser to settle one by one, with their reasons


@transaction.atomic
def games_confirm_many(
    *, games: Sequence[Game], by: User, skip_disputed: bool = False
) -> ManyConfirmed:
    """An organiser confirms several waiting games at once (a night's, or a chosen list), each
    rated in its place in the play order with one rebuild per league.

    Every game is checked before anything is written: a game of a league `by` does not
    organise raises PermissionDenied; one already confirmed (or disputed, unless
    `skip_disputed`) raises ValidationError naming it, and nothing is confirmed."""
    if not games:
        raise ValidationError({"games": ["Choose at least one game to confirm."]})
    leagues = {game.league_id: game.league for game in games}
    for league_id in sorted(leagues):
        if not checks.organises(leagues[league_id], by):
            raise PermissionDenied("Only a league's organisers confirm its games together.")
        leagues[league_id] = common.lock_league(leagues[league_id])
    rows = Game.objects.select_for_update().in_bulk([game.pk for game in games])
    errors = common.Errors()
    waiting: list[Game] = []
    disputed: list[Game] = []
    for index, asked in enumerate(games):
        game = rows.get(asked.pk)
        if game is None:  # deleted since the list was read
            errors.add(f"games.{index}", f"There is no game with id {asked.pk}.")
        elif game.status == Game.Status.DISPUTED and skip_disputed:
            disputed.append(game)
        elif game.status != Game.Status.PENDING:
            state = "confirmed" if game.status == Game.Status.CONFIRMED else "disputed"
            errors.add(f"games.{index}", f"The game of {_day(game)} is already {state}.")
        elif game not in waiting:
            waiting.append(game)
    errors.raise_if_any()
    for game in waiting:
        game.status = Game.Status.CONFIRMED
        game.confirmed_at = timezone.now()
        game.save(update_fields=["status", "confirmed_at", "updated_at"])
        _add_confirmation(leagues[game.league_id], game, by=by, as_organiser=True)
    for league_id, league in leagues.items():
        mine = [game for game in waiting if game.league_id == league_id]
        if mine:
            ratings.rebuild_from(
                league,
                min(game.played_on for game in mine),
                also_players=set(
                    Participant.objects.filter(game__in=mine).values_list("player_id", flat=True)
                ),
            )
    return ManyConfirmed(confirmed=waiting, disputed=disputed)


def _day(game: Game) -> str:
    return f"{game.played_on.day} {game.played_on:%b %Y}"


@transaction.atomic
def game_dispute(*, game: Game, by: User, reason: str) -> GameDispute:
    """A participant who is still a member (or an organiser, to hold a result while they ask)
    says a game waiting for confirmation is wrong; organisers resolve it."""
    league = common.lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if not (checks.plays_in(game, by) or checks.organises(league, by)):
        raise PermissionDenied(
            "Only the game's participants who are members (or an organiser) dispute it."
        )
    reason = reason.strip()
    if not reason:
        raise ValidationError({"reason": ["Say what is wrong with this result."]})
    if game.status == Game.Status.CONFIRMED:
        raise ValidationError(
            {"game": ["This game is already confirmed: ask an organiser to correct it."]}
        )
    if game.status == Game.Status.DISPUTED:
        raise ValidationError({"game": ["This game is already disputed."]})
    game.status = Game.Status.DISPUTED
    game.save(update_fields=["status", "updated_at"])
    dispute = GameDispute.objects.create(game=game, league=league, raised_by=by, reason=reason)
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DISPUTE,
        obj=game,
        changes={"reason": reason},
    )
    players = set(game.participants.values_list("player_id", flat=True))
    notifications.notify(
        kind=EmailKind.GAME_DISPUTED,
        user_ids=common.users_of(players) | common.organiser_ids(league),
        context={**mail.game_mail(game, by=by), "reason": reason},
        exclude=by.pk,
    )
    return dispute


@transaction.atomic
def dispute_resolve(
    *, dispute: GameDispute, by: User, delete: bool = False, note: str = ""
) -> GameDispute:
    """An organiser settles a dispute: the game stands (as recorded, or as they corrected it
    since) and is rated, or it is deleted."""
    league = common.lock_league(dispute.league)
    if not checks.organises(league, by):
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
        services.game_delete(game=game, by=by)
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
    common.record_audit(
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
            league = common.lock_league(League(pk=league_id))
            deadline = now - dt.timedelta(days=league.confirmation_days)
            overdue = Game.objects.select_for_update().filter(
                league=league, status=Game.Status.PENDING, created_at__lte=deadline
            )
            for game in overdue.in_play_order():
                _make_final(league, game)
                common.record_audit(
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
