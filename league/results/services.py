"""Every write of games: recording, correcting, deleting and importing them, and rebuilding the
ratings. Atomic, under the league's lock (`league.common`); bad input raises ValidationError."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Upper
from django.urls import reverse

from accounts import notifications
from accounts.notifications import EmailKind
from league import common
from league.models import (
    AuditEntry,
    Game,
    League,
    Season,
)
from league.results import checks, mail, ratings, seating


@transaction.atomic
def game_record(
    *,
    league: League,
    participants: Sequence[checks.ParticipantInput],
    played_on: dt.date | None,
    logged_by: AbstractBaseUser | None,
    game: str | None = None,
    edition: str | None = None,
    played_time: dt.time | None = None,
    season: Season | None = None,
    place: str = "",
    notes: str = "",
    details: Mapping[str, Any] | None = None,
    scored_with: str = "",
    night_round: int | None = None,
) -> Game:
    """Record one physical game and rate it (rebuilding later ratings if it is backdated).

    ``scored_with`` names the card data the result form scored the players' cards with (each
    participant then brings its `cards`, kept for a correction); ``night_round`` is the round
    of the game night it was played in (`league.nights`), which orders the night's games.
    In a league whose results wait for confirmation the game is recorded as pending and rated
    only once confirmed (`game_confirm`)."""
    league = common.lock_league(league)
    checked = checks.check_game(
        league=league,
        game=game,
        edition=edition,
        played_on=played_on,
        played_time=played_time,
        season=season,
        participants=participants,
        details=details,
        scored_with=scored_with,
    )
    record = _new_game(
        league,
        checked,
        logged_by=logged_by,
        place=place,
        notes=notes,
        scored_with=checked.scored_with,
        night_round=night_round,
        status=checks.status_when_logged(league, logged_by, checked),
    )
    checks.write_participants(record, checked)
    ratings.after_change(league, record, earliest=record.played_on)
    common.record_audit(
        league=league,
        user=logged_by,
        action=AuditEntry.Action.CREATE,
        obj=record,
        changes=checks.snapshot(record),
    )
    if record.status == Game.Status.PENDING:
        mail.notify_pending(league, record, logged_by)
    return record


_UNSET: Any = object()


def _new_game(
    league: League,
    checked: checks.CheckedGame,
    *,
    logged_by: AbstractBaseUser | None,
    **fields: Any,
) -> Game:
    """A new game of ``league`` with what the checks settled (season, edition, when, details,
    whether it is rated), logged by ``logged_by``, and the other ``fields`` as given."""
    return Game.objects.create(
        league=league,
        game=league.game,
        season=checked.season,
        edition=checked.edition,
        played_on=checked.played_on,
        played_time=checked.played_time,
        details=checked.details,
        rated=checked.rated,
        logged_by=common.account_of(logged_by),
        **fields,
    )


@transaction.atomic
def game_edit(
    *,
    game: Game,
    by: AbstractBaseUser | None,
    participants: Sequence[checks.ParticipantInput] | None = None,
    edition: str | None = None,
    played_on: dt.date | None = None,
    played_time: dt.time | None = _UNSET,
    season: Season | None = _UNSET,
    place: str | None = None,
    notes: str | None = None,
    details: Mapping[str, Any] | None = None,
    scored_with: str | None = None,
) -> Game:
    """Change a recorded game; ratings from the earlier of its old and new dates are rebuilt.

    New `participants` replace the results, and the cards they were scored from with them:
    ``scored_with`` names the card data of new cards, and a correction without it keeps no
    cards (its results are totals). Without new participants the game keeps both.
    The game of a night's table keeps its players (`seating.check_correction`)."""
    league = common.lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    if participants is not None:
        seating.check_correction(game, [p.player_id for p in participants])
    before = checks.snapshot(game)
    current = [
        checks.ParticipantInput(player_id=p.player_id, seat=p.seat, result=p.result, cards=p.cards)
        for p in game.participants.order_by("seat")
    ]
    if scored_with is None:
        scored_with = game.scored_with if participants is None else ""
    old_players = set(game.participants.values_list("player_id", flat=True))
    checked = checks.check_game(
        league=league,
        game=game.game,
        edition=edition or game.edition,
        played_on=played_on or game.played_on,
        played_time=game.played_time if played_time is _UNSET else played_time,
        season=None if season is _UNSET else season,
        participants=current if participants is None else participants,
        details=game.details if details is None else details,
        scored_with=scored_with,
        # Whoever played the game stays correctable in it after leaving the league.
        played_it=old_players,
    )
    old_date = game.played_on
    old_table = mail.mail_table(game)
    game.edition = checked.edition
    game.played_on = checked.played_on
    game.played_time = checked.played_time
    game.season = checked.season
    game.details = checked.details
    game.rated = checked.rated
    game.scored_with = checked.scored_with
    if place is not None:
        game.place = place
    if notes is not None:
        game.notes = notes
    game.save()
    game.participants.all().delete()
    checks.write_participants(game, checked)
    ratings.after_change(
        league, game, earliest=min(old_date, game.played_on), also_players=old_players
    )
    after = checks.snapshot(game)
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.UPDATE,
        obj=game,
        changes={"before": before, "after": after},
    )
    if mail.result_changed(before, after):
        notifications.notify(
            kind=EmailKind.GAME_CORRECTED,
            user_ids=common.users_of(old_players | {p.pk for p, _, _, _ in checked.participants}),
            context={
                **mail.game_mail(game, by=by),
                "before": old_table,
                "before_played_on": common.mail_day(old_date),
            },
            exclude=common.user_id_of(by),
        )
    return game


@transaction.atomic
def game_delete(*, game: Game, by: AbstractBaseUser | None) -> None:
    league = common.lock_league(game.league)
    game = Game.objects.select_for_update().get(pk=game.pk)
    before = checks.snapshot(game)
    players = set(game.participants.values_list("player_id", flat=True))
    played_on = game.played_on
    context = {**mail.game_mail(game, by=by), "path": reverse("league:detail", args=[league.slug])}
    common.record_audit(
        league=league,
        user=by,
        action=AuditEntry.Action.DELETE,
        obj=game,
        changes={"before": before},
    )
    game.delete()
    ratings.rebuild_from(league, played_on, also_players=players)
    notifications.notify(
        kind=EmailKind.GAME_DELETED,
        user_ids=common.users_of(players),
        context=context,
        exclude=common.user_id_of(by),
    )


@dataclass(frozen=True)
class GameInput:
    """One game of a batch for `games_import`."""

    participants: Sequence[checks.ParticipantInput]
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
    league = common.lock_league(league)
    errors = common.Errors()
    # BG Stats' uuids are capitals, other tools' may not be: the same play either way.
    uuids = {g.bgstats_uuid.upper() for g in games if g.bgstats_uuid}
    taken = set(
        league.games.annotate(upper_uuid=Upper("bgstats_uuid"))
        .filter(upper_uuid__in=uuids)
        .values_list("upper_uuid", flat=True)
    )
    checked_games = []
    for index, game in enumerate(games):
        if game.bgstats_uuid and game.bgstats_uuid.upper() in taken:
            errors.add(f"games.{index}.bgstats_uuid", "This play was imported already.")
        try:
            checked_games.append(
                checks.check_game(
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
        record = _new_game(
            league,
            checked,
            logged_by=logged_by,
            place=game.place,
            notes=game.notes,
            bgstats_uuid=game.bgstats_uuid,
        )
        checks.write_participants(record, checked)
        players.update(p.pk for p, _, _, _ in checked.participants)
        common.record_audit(
            league=league,
            user=logged_by,
            action=AuditEntry.Action.CREATE,
            obj=record,
            changes={
                **checks.snapshot(record),
                "imported_from": "BG Stats",
                "uuid": game.bgstats_uuid,
            },
        )
        records.append(record)
    if records:
        ratings.rebuild_from(league, min(r.played_on for r in records), also_players=players)
    return records


@transaction.atomic
def ratings_rebuild(*, league: League, by: AbstractBaseUser | None = None) -> ratings.RebuildReport:
    """Rebuild a league's ratings from its first game and check the zero-sum invariant."""
    league = common.lock_league(league)
    report = ratings.rebuild_all(league)
    AuditEntry.objects.create(
        league=league,
        user=common.account_of(by),
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
