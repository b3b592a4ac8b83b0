"""A game's input checked (players, seats, results ranked by the catalogue) before any result
service writes it, and who confirms a logged game."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from league import common
from league.catalogue import ResultError, check_results, get_game
from league.models import (
    Game,
    League,
    Membership,
    Participant,
    Player,
    Season,
)
from league.results import entry as result_entry


@dataclass(frozen=True)
class ParticipantInput:
    player_id: int
    result: Mapping[str, Any]
    seat: int | None = None
    # What the card calculator scored `result` from (`SCORED_CARDS_KEYS`), for a game scored
    # with card data (`check_game`'s `scored_with`).
    cards: Mapping[str, Any] | None = None


# What a participant's `cards` hold: the result form's card fields (its `SeatForm`), and the
# count fields (food, toys, other cards) under "counts".
SCORED_CARDS_KEYS = frozenset({"cats", "strays", "boxes", "counts"})


@dataclass(frozen=True)
class CheckedGame:
    edition: str
    played_on: dt.date
    played_time: dt.time | None
    season: Season | None
    participants: list[tuple[Player, int, dict[str, Any], int]]  # player, seat, result, rank
    details: dict[str, Any]
    rated: bool
    headline: str
    # The card data the results were scored with ("" for totals) and, in participant order,
    # each one's cards (empty for totals).
    scored_with: str = ""
    cards: tuple[dict[str, Any], ...] = ()


def check_game(
    *,
    league: League,
    game: str | None,
    edition: str | None,
    played_on: dt.date | None,
    played_time: dt.time | None,
    season: Season | None,
    participants: Sequence[ParticipantInput],
    details: Mapping[str, Any] | None,
    scored_with: str = "",
    played_it: Collection[int] = (),
) -> CheckedGame:
    """Every problem of a game's input at once (`ValidationError` by field path), or the game
    as the services write it. ``scored_with`` names the card data a result form scored the
    cards with; each participant then brings its `cards`. Players must be members of the
    league, except those of ``played_it``: in a correction, the players who played the game
    stay in it though they have left the league since."""
    errors = common.Errors()
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
    ) | set(played_it)
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
    cards = _check_cards(scored_with, participants, errors)
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
    return CheckedGame(
        edition=edition_key,
        played_on=played_on,
        played_time=played_time,
        season=season,
        participants=rows,
        details=checked.details,
        rated=checked.rated and len(participants) >= 2 and not scored_with_placeholder(scored_with),
        headline=headline,
        scored_with=scored_with,
        cards=cards,
    )


def scored_with_placeholder(scored_with: str) -> bool:
    """Whether a game was scored with card data that is not the published card list: its
    scores are not the game's, so it is recorded but never rated."""
    deck = result_entry.deck(scored_with) if scored_with else None
    return deck is not None and deck.status == "placeholder"


def _check_cards(
    scored_with: str, participants: Sequence[ParticipantInput], errors: common.Errors
) -> tuple[dict[str, Any], ...]:
    """Each participant's cards for a game scored with card data; none for totals."""
    if not scored_with:
        return ()
    if result_entry.deck(scored_with) is None:
        errors.add("scored_with", f"There is no card data called {scored_with!r}.")
    cards: list[dict[str, Any]] = []
    for index, p in enumerate(participants):
        if not isinstance(p.cards, Mapping) or not set(p.cards) <= SCORED_CARDS_KEYS:
            errors.add(
                f"participants.{index}",
                "A game scored from its cards needs every player's cards.",
            )
            cards.append({})
        else:
            cards.append(dict(p.cards))
    return tuple(cards)


def write_participants(game: Game, checked: CheckedGame) -> None:
    cards = checked.cards or tuple({} for _ in checked.participants)
    Participant.objects.bulk_create(
        Participant(
            game=game,
            player=player,
            seat=seat,
            result=result,
            # A headline of 0 is a score like any other; only a missing one counts as 0.
            score=int(result.get(checked.headline, 0)),
            rank=rank,
            cards=seat_cards,
        )
        for (player, seat, result, rank), seat_cards in zip(
            checked.participants, cards, strict=True
        )
    )


def snapshot(game: Game) -> dict[str, Any]:
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


# --- who confirms -----------------------------------------------------------------------------


def status_when_logged(
    league: League, logged_by: AbstractBaseUser | None, checked: CheckedGame
) -> str:
    """Final at once, or waiting. An organiser's entry is final when their league's rule asks
    an organiser, and also when no other participant could ever confirm it (a table of guests):
    such a game would otherwise wait for a confirmation nobody can give."""
    if league.confirmation == League.Confirmation.NONE:
        return Game.Status.CONFIRMED
    if not organises(league, logged_by):
        return Game.Status.PENDING
    if league.confirmation == League.Confirmation.ORGANISER:
        return Game.Status.CONFIRMED
    # check_game admitted only members, so every participant with a login may confirm.
    logger = common.user_id_of(logged_by)
    others = [p for p, *_ in checked.participants if p.user_id and p.user_id != logger]
    return Game.Status.PENDING if others else Game.Status.CONFIRMED


def organises(league: League, user: AbstractBaseUser | None) -> bool:
    account = common.account_of(user)
    if account is None:
        return False
    return (
        bool(account.is_superuser)
        or league.memberships.filter(player__user=account, role=Membership.Role.ORGANISER).exists()
    )


def confirmers(game: Game) -> list[int]:
    """The user ids whose confirmation the game's league asks for: participants with a login,
    still members of the league, other than whoever logged it; empty when only an organiser
    confirms. Someone removed from the league no longer speaks for its results."""
    if game.league.confirmation not in (League.Confirmation.ANOTHER, League.Confirmation.ALL):
        return []
    return [
        user_id
        for user_id in game.participants.filter(
            player__user__isnull=False, player__memberships__league_id=game.league_id
        )
        .order_by("seat")
        .values_list("player__user_id", flat=True)
        if user_id != game.logged_by_id
    ]


def plays_in(game: Game, user: AbstractBaseUser | None) -> bool:
    """Whether `user` played this game and is still a member of its league."""
    account = common.account_of(user)
    return account is not None and (
        game.participants.filter(
            player__user=account, player__memberships__league_id=game.league_id
        ).exists()
    )
