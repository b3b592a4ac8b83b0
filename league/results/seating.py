"""Who plays at a night's table: exactly the people drawn to it. Every write of a table's game
checks it here: `league.nights.services` when the result is entered,
`league.results.services.game_edit` when the game is corrected (on the page, in the API or in
the admin); the result form's preview asks first. It lives with the results, below the nights,
so that both the result services and `league.nights` use it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError

from league.models import Game, NightSeat, NightTable, Player


def table_setup(table: NightTable) -> list[int]:
    """The table's players in seat order (the starter in seat 1), for the result form."""
    return list(table.seats.order_by("seat").values_list("player_id", flat=True))


def table_of(game: Game) -> NightTable | None:
    """The night's table whose result ``game`` is, with its round and night; None for a game
    logged on its own."""
    return NightTable.objects.select_related("round__night").filter(game_id=game.pk).first()


def check_seated(table: NightTable, ids: Sequence[int]) -> None:
    """A table's game is played by exactly the people drawn to it: nobody from another table,
    from those sitting out or from outside the night, and nobody seated left out. Who plays
    changes between rounds only (`attendance_set`, a guest, `round_undo` and a new draw).

    ``ids`` are the result's players in the order of its participants, whose index each error
    names (``participants.2.player``); raises `ValidationError`."""
    errors = _seating_errors(table, ids)
    if errors:
        raise ValidationError(errors)


def check_correction(game: Game, ids: Sequence[int]) -> None:
    """A correction of a table's game keeps its players, the ones drawn to the table (their
    results and seats may change): `check_seated`, saying why first. Nothing to check for a
    game that is no table's."""
    table = table_of(game)
    if table is None:
        return
    errors = _seating_errors(table, ids)
    if errors:
        errors["participants"] = [
            f"This game was played at table {table.number} of round {table.round.number} on the "
            f"night of {table.round.night.played_on}: a correction keeps the players drawn to "
            "that table (their results and seats may change).",
            *errors.get("participants", []),
        ]
        raise ValidationError(errors)


def _seating_errors(table: NightTable, ids: Sequence[int]) -> dict[str, list[str]]:
    seated = table_setup(table)
    players = Player.objects.in_bulk(set(ids) | set(seated))
    elsewhere = dict(
        NightSeat.objects.filter(table__round=table.round, player_id__in=ids)
        .exclude(table=table)
        .values_list("player_id", "table__number")
    )
    resting = set(table.round.sitting_out.filter(pk__in=ids).values_list("pk", flat=True))
    where = f"table {table.number} of round {table.round.number}"
    errors: dict[str, list[str]] = {}
    for index, player_id in enumerate(ids):
        if player_id in seated:
            continue
        player = players.get(player_id)
        if player is None:
            message = f"There is no player with id {player_id}."
        elif player_id in elsewhere:
            message = f"{player} sat at table {elsewhere[player_id]}, not at {where}."
        elif player_id in resting:
            message = f"{player} sat out round {table.round.number}."
        else:
            message = f"{player} was not drawn to {where}."
        errors[f"participants.{index}.player"] = [message]
    missing = [players[player_id].name for player_id in seated if player_id not in ids]
    if missing:
        errors["participants"] = [
            f"Everyone drawn to {where} is in its result: {_names(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing."
        ]
    return errors


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
