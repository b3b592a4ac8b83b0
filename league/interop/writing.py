"""A league's games written as a BG Stats file (the fields listed in `league.interop.reading`).
Pure code, no ORM."""

import datetime as dt
import json
import uuid as uuid_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.catalogue import get_game
from league.interop.reading import BGG_IDS, CARRIED_NOTE, DATE_FORMAT

# Besides the headline score, what a game's ranks need on import (`reading.Carried`).
CARRIED_FIELDS = {
    "cat-lady": ("fed_cats",),  # in a tie on VP only
    "cat-ladies-of-maple-st": ("turns_taken", "unused_mystery_cards"),
    "cantankerous-cats": ("win_type",),
}


@dataclass(frozen=True)
class ExportSeat:
    player_id: int
    player_name: str
    seat: int
    rank: int
    score: int
    result: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ExportGame:
    id: int
    uuid: str  # empty (a game bulk-loaded without one): made from the league and the game's id
    played_on: dt.date
    played_time: dt.time | None
    place: str
    notes: str
    edition: str
    seats: Sequence[ExportSeat]
    details: Mapping[str, Any] = field(default_factory=dict)


_NAMESPACE = uuid_module.uuid5(uuid_module.NAMESPACE_URL, "https://catleague.invalid/bgstats")


def _uuid(*parts: object) -> str:
    return str(uuid_module.uuid5(_NAMESPACE, "/".join(str(p) for p in parts))).upper()


def _comments(game_key: str, game: ExportGame) -> str:
    """The game's notes, and a line with what BG Stats cannot hold (`reading.CARRIED_NOTE`):
    an edition other than the game's first, the result fields its ranks need, game-level
    fields.

    >>> tie = [ExportSeat(1, "Mia", 1, 1, 30, {"fed_cats": 5}),
    ...        ExportSeat(2, "ned", 2, 2, 30, {"fed_cats": 4}),
    ...        ExportSeat(3, "Bo", 3, 3, 12, {"fed_cats": 2})]
    >>> print(_comments("cat-lady", ExportGame(1, "", dt.date(2026, 11, 3), None, "", "Close!",
    ...                                        "premium", tie)))
    Close!
    Catleague: {"edition": "premium", "players": {"Mia": {"fed_cats": 5}, "ned": {"fed_cats": 4}}}
    """
    note: dict[str, Any] = {}
    if game.edition != get_game(game_key).editions[0].key:
        note["edition"] = game.edition
    players = {}
    for seat in sorted(game.seats, key=lambda s: s.seat):
        if game_key == "cat-lady" and [s.score for s in game.seats].count(seat.score) == 1:
            continue  # fed cats break a tie on VP and nothing else
        fields = {
            name: seat.result[name]
            for name in CARRIED_FIELDS.get(game_key, ())
            if seat.result.get(name) is not None
        }
        if fields:
            players[seat.player_name] = fields
    if players:
        note["players"] = players
    details = {name: value for name, value in game.details.items() if value is not None}
    if details:
        note["details"] = details
    if not note:
        return game.notes
    line = CARRIED_NOTE + json.dumps(note, ensure_ascii=False)
    return f"{game.notes}\n{line}" if game.notes else line


def write_export(*, league_slug: str, game_key: str, games: Sequence[ExportGame]) -> dict[str, Any]:
    """A league's games as a BG Stats file (the fields listed in the module docstring).

    Ids are numbered here. Each play's uuid is the game's own (or the one it was imported
    with), so importing the file again (here, in another league or in BG Stats) finds the
    plays it already has; what BG Stats has no field for rides in the comments.
    """
    game_type = get_game(game_key)
    bgg_id = next((ident for ident, key in BGG_IDS.items() if key == game_key), 0)
    editions = [e for e in game_type.editions if e.key != "solitaire"]
    players: dict[int, dict[str, Any]] = {}
    locations: dict[str, dict[str, Any]] = {}
    plays = []
    for game in games:
        place = game.place.strip()
        if place and place not in locations:
            locations[place] = {
                "id": len(locations) + 1,
                "uuid": _uuid(league_slug, "place", place),
                "name": place,
            }
        scores = []
        for seat in sorted(game.seats, key=lambda s: s.seat):
            if seat.player_id not in players:
                players[seat.player_id] = {
                    "id": len(players) + 1,
                    "uuid": _uuid(league_slug, "player", seat.player_id),
                    "name": seat.player_name,
                    "isAnonymous": False,
                }
            scores.append(
                {
                    "playerRefId": players[seat.player_id]["id"],
                    "score": str(seat.score),
                    "winner": seat.rank == 1,
                    "startPlayer": seat.seat == 1,
                    "seatOrder": seat.seat,
                    "rank": seat.rank,
                }
            )
        expansions = (
            [{"gameRefId": 2, "bggId": 0}]
            if game_key == "cat-lady" and game.edition == "box-of-treats"
            else []
        )
        plays.append(
            {
                "uuid": game.uuid or _uuid(league_slug, "game", game.id),
                "playDate": dt.datetime.combine(game.played_on, game.played_time or dt.time(0))
                .replace(microsecond=0)
                .strftime(DATE_FORMAT),
                "gameRefId": 1,
                "locationRefId": locations[place]["id"] if place else 0,
                "ignored": False,
                "comments": _comments(game_key, game),
                "expansionPlays": expansions,
                "playerScores": scores,
            }
        )
    bg_games = [
        {
            "id": 1,
            "uuid": _uuid("game", game_key),
            "name": game_type.name,
            "bggId": bgg_id,
            "minPlayerCount": min(e.min_players for e in editions),
            "maxPlayerCount": max(e.max_players for e in editions),
            "highestWins": True,
            "noPoints": False,
            "cooperative": False,
            "usesTeams": False,
        }
    ]
    if game_key == "cat-lady":
        bg_games.append(
            {
                "id": 2,
                "uuid": _uuid("game", "cat-lady-box-of-treats"),
                "name": "Cat Lady: Box of Treats",
                "bggId": 0,
                "highestWins": True,
                "noPoints": False,
                "cooperative": False,
                "usesTeams": False,
            }
        )
    return {
        "players": list(players.values()),
        "locations": list(locations.values()),
        "games": bg_games,
        "plays": plays,
    }
