"""Tournaments: start one, play its rounds (round robin or Swiss, then an optional final
table), standings and final places."""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q

import engine
from arena.common import SeatInput, game_label, match_create
from arena.models import (
    BotVersion,
    Match,
    MatchSeat,
    Tournament,
)
from engine.registry import DEFAULT_GAME
from engine.strategies import names as strategy_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class HouseEntrant:
    """A house bot entered in a tournament: the engine's strategy ``name`` plays its seats.
    ``pk`` keys it beside the versions' ids in the standings (a string never equals an id)."""

    name: str
    house = True  # templates ask an entrant `house` (a BotVersion answers nothing)

    @property
    def pk(self) -> str:
        return f"house:{self.name}"

    def __str__(self) -> str:
        return f"house {self.name}"


Entrant = BotVersion | HouseEntrant

# Solitaire's cat player plays turn cards, not a seat of its own: it cannot enter.
NOT_ENTRANTS = frozenset({"cat-player"})


def house_entrant_names(game: str) -> list[str]:
    """The house bots that may enter a tournament of ``game``."""
    return [name for name in strategy_names(game) if name not in NOT_ENTRANTS]


def _seat_for(entrant: Entrant) -> SeatInput:
    if isinstance(entrant, HouseEntrant):
        return SeatInput(builtin=entrant.name)
    return SeatInput(version=entrant)


def _order_name(entrant: Entrant) -> tuple[str, int]:
    if isinstance(entrant, HouseEntrant):
        return (str(entrant), 0)
    return (entrant.bot.name, entrant.number)


def tournament_entrants(tournament: Tournament) -> list[Entrant]:
    versions: list[Entrant] = list(tournament.entrants.select_related("bot"))
    return versions + [HouseEntrant(name) for name in tournament.house_entrants]


@transaction.atomic
def tournament_start(
    *,
    name: str,
    organiser: User,
    entrants: Sequence[BotVersion],
    table_size: int,
    format: str,
    rounds: int | None = None,
    seed: int | None = None,
    final_size: int = 0,
    house_entrants: Sequence[str] = (),
    game: str | None = None,
) -> Tournament:
    """Start a tournament and queue its first round.

    ``house_entrants``: house bots (``random``, ``greedy``, ``mcts``...) entered beside the
    versions; ``game`` is needed only when every entrant is a house bot.

    ``final_size`` (2 to 4, or 0 for none): after the regular rounds the top that many in the
    standings play one final table — one deal, once per seat rotation — and its result decides
    the top places; everyone else keeps their place from the standings.
    """
    errors: dict[str, list[str]] = {}
    games = sorted({v.bot.game for v in entrants} | ({game} if game else set()))
    if len(games) > 1:
        errors["entrants"] = [f"Entrants play different games: {', '.join(games)}."]
    game = games[0] if games else DEFAULT_GAME
    known = house_entrant_names(game)
    unknown = [name for name in house_entrants if name not in known]
    if unknown:
        errors["house_entrants"] = [
            f"{game_label(game)} has no house bot {', '.join(map(repr, unknown))}; "
            f"choose from {', '.join(known)}."
        ]
    elif len(set(house_entrants)) != len(house_entrants):
        errors["house_entrants"] = ["Each house bot enters once."]
    count = len(entrants) + len(house_entrants)
    sizes = engine.supported_players(game)
    if table_size not in sizes:
        errors["table_size"] = [
            f"{game_label(game)} tables seat {min(sizes)} to {max(sizes)} bots."
        ]
    if count < table_size:
        errors["entrants"] = [
            f"At least {table_size} entrants are needed (bots and house bots together)."
        ]
    inactive = [str(v) for v in entrants if v.status != BotVersion.Status.ACTIVE]
    if inactive:
        errors["entrants"] = [f"Not active: {', '.join(inactive)}."]
    if format not in Tournament.Format.values:
        errors["format"] = [f"Format must be one of: {', '.join(Tournament.Format.values)}."]
    if final_size and final_size not in sizes:
        errors["final_size"] = [
            f"A final table seats {min(sizes)} to {max(sizes)} bots (0: no final)."
        ]
    elif final_size > count:
        errors["final_size"] = [f"A final of {final_size} needs at least {final_size} entrants."]
    if errors:
        raise ValidationError(errors)
    if format == Tournament.Format.ROUND_ROBIN:
        rounds = 1
    tournament = Tournament.objects.create(
        name=name,
        organiser=organiser,
        format=format,
        table_size=table_size,
        game=game,
        rounds=rounds or 3,
        final_size=final_size,
        seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
        house_entrants=list(house_entrants),
    )
    tournament.entrants.set(entrants)
    _start_round(tournament)
    return tournament


def _tables_for_round(
    tournament: Tournament, standings: list[tuple[Entrant, float]]
) -> list[list[Entrant]]:
    entrants = [v for v, _ in standings]
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        return [list(t) for t in itertools.combinations(entrants, tournament.table_size)]
    # Swiss: tables of neighbours in the standings; leftovers join the last table's size class.
    size = tournament.table_size
    tables = [entrants[i : i + size] for i in range(0, len(entrants), size)]
    if len(tables) > 1 and len(tables[-1]) < 2:
        tables[-2].extend(tables.pop())
    return [t for t in tables if len(t) >= 2]


def _start_round(tournament: Tournament) -> None:
    tournament.current_round += 1
    tournament.save(update_fields=["current_round"])
    standings = tournament_standings(tournament)
    if tournament.in_final:
        tables = [[v for v, _ in standings[: tournament.final_size]]]
    else:
        tables = _tables_for_round(tournament, standings)
    rng = random.Random(f"{tournament.seed}/{tournament.current_round}")
    for table in tables:
        seed = rng.randrange(2**31)
        set_id = uuid.uuid4().hex
        for shift in range(len(table)):
            rotated = table[shift:] + table[:shift]
            match_create(
                kind=Match.Kind.TOURNAMENT,
                tournament=tournament,
                tournament_round=tournament.current_round,
                seed=seed,
                duplicate_set=set_id,
                seats=[_seat_for(e) for e in rotated],
                game=tournament.game,
            )


def _entrant_key(version_id: int | None, builtin: str) -> int | str:
    return version_id if version_id is not None else HouseEntrant(builtin).pk


def _points(
    tournament: Tournament, keys: Sequence[int | str], *, rounds: tuple[int, int]
) -> dict[int | str, float]:
    """Points per entrant (its ``pk``) from the finished matches of rounds
    ``rounds[0]..rounds[1]``: per match, (players - rank) / (players - 1), so a win is 1 and
    last place 0."""
    points: dict[int | str, float] = dict.fromkeys(keys, 0.0)
    first, last = rounds
    matches = Match.objects.filter(
        tournament=tournament, tournament_round__gte=first, tournament_round__lte=last
    )
    sizes = dict(matches.annotate(n=Count("seats")).values_list("pk", "n"))
    seats = MatchSeat.objects.filter(match__in=matches, match__status=Match.Status.FINISHED)
    for match_id, version_id, builtin, rank in seats.values_list(
        "match_id", "version_id", "builtin", "rank"
    ):
        key = _entrant_key(version_id, builtin)
        if key not in points:
            continue
        n = sizes[match_id]
        assert rank is not None  # match_record ranks every seat of a finished match
        points[key] += (n - rank) / (n - 1)
    return points


def tournament_standings(
    tournament: Tournament, *, through_round: int | None = None
) -> list[tuple[Entrant, float]]:
    """Entrants by points in the regular rounds (the final table is not part of them): per
    match, (players - rank) / (players - 1), so a win is 1, last 0."""
    last = tournament.rounds if through_round is None else min(through_round, tournament.rounds)
    entrants = {e.pk: e for e in tournament_entrants(tournament)}
    points = _points(tournament, list(entrants), rounds=(1, last))
    return sorted(
        ((entrants[pk], p) for pk, p in points.items()),
        key=lambda item: (-item[1], *_order_name(item[0])),
    )


def tournament_final_table(tournament: Tournament) -> list[tuple[Entrant, float]] | None:
    """The final table's players by their points in it, ties broken by the regular standings
    (the better seed ahead); None when the tournament has no final or it has not started."""
    final_round = tournament.final_round
    if final_round is None or tournament.current_round < final_round:
        return None
    seated = set(
        MatchSeat.objects.filter(
            match__tournament=tournament, match__tournament_round=final_round
        ).values_list("version_id", "builtin")
    )
    keys = {_entrant_key(version_id, builtin) for version_id, builtin in seated}
    players = [e for e in tournament_entrants(tournament) if e.pk in keys]
    seeding = {v.pk: index for index, (v, _) in enumerate(tournament_standings(tournament))}
    points = _points(tournament, [v.pk for v in players], rounds=(final_round, final_round))
    return sorted(
        ((v, points[v.pk]) for v in players),
        key=lambda item: (-item[1], seeding.get(item[0].pk, len(seeding))),
    )


@dataclass(frozen=True)
class Placing:
    place: int
    version: Entrant
    points: float  # in the regular rounds
    final_points: float | None  # None: did not play the final table


def tournament_placings(tournament: Tournament) -> list[Placing]:
    """Final places: the final table's order first (when there is one), then everyone else in
    the order of the regular standings."""
    standings = tournament_standings(tournament)
    final = tournament_final_table(tournament) or []
    final_points = {v.pk: p for v, p in final}
    regular = {v.pk: p for v, p in standings}
    ordered = [v for v, _ in final] + [v for v, _ in standings if v.pk not in final_points]
    return [
        Placing(
            place=index + 1,
            version=v,
            points=regular.get(v.pk, 0.0),
            final_points=final_points.get(v.pk),
        )
        for index, v in enumerate(ordered)
    ]


def advance_tournament(tournament_id: int) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    pending = (
        tournament.matches.filter(
            tournament_round=tournament.current_round,
        )
        .filter(~Q(status__in=[Match.Status.FINISHED, Match.Status.FAILED]))
        .exists()
    )
    if pending or tournament.status == Tournament.Status.FINISHED:
        return
    last_round = tournament.final_round or tournament.rounds
    if tournament.current_round >= last_round:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        return
    _start_round(tournament)
