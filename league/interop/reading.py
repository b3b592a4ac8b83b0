"""BG Stats files read: a BG Stats export parsed into plain values, and written back compactly
(`to_file`). Pure code, no ORM (`league.interop.services` reads and writes the database).

The format, as BG Stats writes it (a JSON "database" of tables linked by ids). BG Stats
publishes no schema; the fields used here are only those seen in real files:

- a BG Stats export shared publicly (github.com/sqrtxander/bgstats-wrapped, sampleData.json),
  a BG Stats "Play file" (pastebin.com/iDbHyBui), and a tool that writes files for BG Stats to
  import (github.com/ctuncan/bga_bgstats, bga_bgstats.py):

  - ``players``: ``id`` (whole number), ``uuid``, ``name``, ``isAnonymous``;
  - ``locations``: ``id``, ``uuid``, ``name``;
  - ``games``: ``id``, ``uuid``, ``name``, ``bggName``, ``bggId`` (BoardGameGeek's id, 0 when
    unknown), ``minPlayerCount``, ``maxPlayerCount``, ``highestWins``, ``noPoints``,
    ``cooperative``, ``usesTeams``;
  - ``plays``: ``uuid``, ``playDate`` (``"YYYY-MM-DD HH:MM:SS"``), ``gameRefId``,
    ``locationRefId``, ``ignored`` (left out of BG Stats' statistics), ``expansionPlays``
    (``[{"gameRefId", "bggId"}]``), ``comments`` (optional), ``playerScores``;
  - ``playerScores``: ``playerRefId``, ``score`` (a *string*, ``""`` when none), ``winner``,
    ``startPlayer``, ``seatOrder`` and ``rank`` (whole numbers, 0 when not given).

Planning which plays become games is `league.interop.planning`; writing a league's games
in this format, `league.interop.writing`.
"""

import datetime as dt
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# A BG Stats export of years of plays is a few megabytes; refuse anything far larger.
MAX_FILE_BYTES = 10 * 1024 * 1024
MAX_PLAYS = 20_000
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
# A play's uuid is kept on its game (`Game.bgstats_uuid`); BG Stats' are 36 characters.
MAX_UUID_LENGTH = 64

# BoardGameGeek ids known with a source (see the docstring); other games match by name.
BGG_IDS = {228504: "cat-lady"}
GAME_NAMES = {
    "cat lady": "cat-lady",
    "cat ladies of maple st": "cat-ladies-of-maple-st",
    "cantankerous cats": "cantankerous-cats",
}
# A play of Cat Lady with this expansion played is a Box of Treats game.
BOX_OF_TREATS_NAMES = {"cat lady box of treats", "cat lady: box of treats"}


class BGStatsError(ValueError):
    """A file that cannot be read as a BG Stats export. `errors` maps a place in the file
    (``plays[3].playerScores[0].score``) to its messages."""

    def __init__(self, errors: Mapping[str, list[str]]):
        self.errors = {key: list(messages) for key, messages in errors.items()}
        super().__init__("; ".join(f"{k}: {' '.join(v)}" for k, v in self.errors.items()))


@dataclass(frozen=True)
class BGPlayer:
    id: int
    name: str
    uuid: str = ""


@dataclass(frozen=True)
class BGGame:
    id: int
    name: str
    bgg_name: str = ""
    bgg_id: int = 0


@dataclass(frozen=True)
class BGScore:
    player_ref: int
    score: int | None
    winner: bool
    start_player: bool
    seat_order: int  # 0: not given
    rank: int  # 0: not given


@dataclass(frozen=True)
class BGPlay:
    index: int  # its place in the file's plays, for messages
    uuid: str
    played_at: dt.datetime
    game_ref: int
    location_ref: int | None
    ignored: bool
    expansion_refs: tuple[int, ...]
    comments: str
    scores: tuple[BGScore, ...]


@dataclass(frozen=True)
class Export:
    players: dict[int, BGPlayer]
    locations: dict[int, str]
    games: dict[int, BGGame]
    plays: list[BGPlay]


# --- reading --------------------------------------------------------------------------------


class _Reader:
    """Collects every problem of a file, each with its place, before giving up."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)

    def table(self, data: Mapping[str, Any], name: str, *, required: bool = True) -> list[Any]:
        value = data.get(name)
        if value is None:
            if required:
                self.add(name, f"The file has no {name!r} list: is it a BG Stats export?")
            return []
        if not isinstance(value, list):
            self.add(name, f"{name!r} must be a list.")
            return []
        return value

    def record(self, value: Any, path: str) -> Mapping[str, Any] | None:
        if not isinstance(value, dict):
            self.add(path, "must be an object.")
            return None
        return value

    def whole(
        self, record: Mapping[str, Any], key: str, path: str, *, required: bool = True
    ) -> int | None:
        value = record.get(key)
        if value is None:
            if required:
                self.add(f"{path}.{key}", "is missing.")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(f"{path}.{key}", f"must be a whole number, not {value!r}.")
            return None
        return value

    def text(
        self, record: Mapping[str, Any], key: str, path: str, *, required: bool = True
    ) -> str | None:
        value = record.get(key)
        if value is None:
            if required:
                self.add(f"{path}.{key}", "is missing.")
            return None
        if not isinstance(value, str):
            self.add(f"{path}.{key}", f"must be text, not {value!r}.")
            return None
        return value

    def flag(self, record: Mapping[str, Any], key: str, path: str) -> bool:
        value = record.get(key, False)
        if not isinstance(value, bool):
            self.add(f"{path}.{key}", f"must be true or false, not {value!r}.")
            return False
        return value


def _ids(reader: _Reader, rows: list[Any], name: str) -> list[tuple[str, int, Mapping[str, Any]]]:
    """(path, id, record) of each row with a whole-number id used once."""
    seen: dict[int, int] = {}
    found = []
    for index, row in enumerate(rows):
        path = f"{name}[{index}]"
        record = reader.record(row, path)
        if record is None:
            continue
        ident = reader.whole(record, "id", path)
        if ident is None:
            continue
        if ident in seen:
            reader.add(f"{path}.id", f"id {ident} is used twice (also {name}[{seen[ident]}]).")
            continue
        seen[ident] = index
        found.append((path, ident, record))
    return found


def _score(reader: _Reader, record: Mapping[str, Any], path: str) -> int | None:
    raw = record.get("score", "")
    if raw is None or raw == "":
        return None
    if isinstance(raw, bool):
        reader.add(f"{path}.score", f"must be a number, not {raw!r}.")
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, float) and raw.is_integer():
        return int(raw)
    if isinstance(raw, str) and re.fullmatch(r"\s*-?\d+(\.0+)?\s*", raw):
        return int(float(raw))
    reader.add(f"{path}.score", f"must be a whole number, not {raw!r}.")
    return None


def parse_export(raw: bytes | str) -> Export:
    """Read a BG Stats export; raises `BGStatsError` naming every problem found.

    >>> export = parse_export('''{"players": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bo"}],
    ...   "locations": [], "games": [{"id": 9, "name": "Cat Lady", "bggId": 228504}],
    ...   "plays": [{"uuid": "p-1", "playDate": "2026-11-20 19:30:00", "gameRefId": 9,
    ...     "playerScores": [{"playerRefId": 1, "score": "31", "winner": true},
    ...                      {"playerRefId": 2, "score": "28"}]}]}''')
    >>> [(s.player_ref, s.score, s.winner) for s in export.plays[0].scores]
    [(1, 31, True), (2, 28, False)]
    """
    if len(raw) > MAX_FILE_BYTES:
        raise BGStatsError(
            {"file": [f"The file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB."]}
        )
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise BGStatsError({"file": [f"This is not a JSON file ({exc})."]}) from None
    if not isinstance(data, dict):
        raise BGStatsError({"file": ["A BG Stats export is a JSON object with lists of plays."]})
    reader = _Reader()
    players: dict[int, BGPlayer] = {}
    for path, ident, record in _ids(reader, reader.table(data, "players"), "players"):
        name = reader.text(record, "name", path)
        if name is not None:
            players[ident] = BGPlayer(
                id=ident, name=name.strip(), uuid=str(record.get("uuid") or "")
            )
    locations: dict[int, str] = {}
    for path, ident, record in _ids(
        reader, reader.table(data, "locations", required=False), "locations"
    ):
        name = reader.text(record, "name", path)
        locations[ident] = (name or "").strip()
    games: dict[int, BGGame] = {}
    for path, ident, record in _ids(reader, reader.table(data, "games"), "games"):
        name = reader.text(record, "name", path)
        bgg_name = reader.text(record, "bggName", path, required=False) or ""
        bgg_id = reader.whole(record, "bggId", path, required=False) or 0
        if name is not None:
            games[ident] = BGGame(id=ident, name=name, bgg_name=bgg_name, bgg_id=bgg_id)
    rows = reader.table(data, "plays")
    if len(rows) > MAX_PLAYS:
        raise BGStatsError({"plays": [f"The file holds more than {MAX_PLAYS:,} plays."]})
    plays = []
    uuids: dict[str, int] = {}
    for index, row in enumerate(rows):
        path = f"plays[{index}]"
        play_record = reader.record(row, path)
        if play_record is None:
            continue
        play = _play(reader, play_record, path, index, players, games, locations)
        if play is None:
            continue
        if play.uuid in uuids:
            reader.add(
                f"{path}.uuid", f"uuid {play.uuid} is used twice (also plays[{uuids[play.uuid]}])."
            )
            continue
        uuids[play.uuid] = index
        plays.append(play)
    if reader.errors:
        raise BGStatsError(reader.errors)
    return Export(players=players, locations=locations, games=games, plays=plays)


def _play(
    reader: _Reader,
    record: Mapping[str, Any],
    path: str,
    index: int,
    players: Mapping[int, BGPlayer],
    games: Mapping[int, BGGame],
    locations: Mapping[int, str],
) -> BGPlay | None:
    before = sum(len(v) for v in reader.errors.values())
    play_uuid = reader.text(record, "uuid", path)
    if play_uuid is not None and not 0 < len(play_uuid.strip()) <= MAX_UUID_LENGTH:
        reader.add(f"{path}.uuid", f"must be 1 to {MAX_UUID_LENGTH} characters.")
    raw_date = reader.text(record, "playDate", path)
    played_at = None
    if raw_date is not None:
        try:
            played_at = dt.datetime.strptime(raw_date.strip(), DATE_FORMAT)
        except ValueError:
            reader.add(f"{path}.playDate", f"must look like 2026-11-20 19:30:00, not {raw_date!r}.")
    game_ref = reader.whole(record, "gameRefId", path)
    if game_ref is not None and game_ref not in games:
        reader.add(f"{path}.gameRefId", f"no game has id {game_ref}.")
    location_ref = reader.whole(record, "locationRefId", path, required=False)
    if location_ref is not None and location_ref not in locations:
        location_ref = None  # BG Stats writes 0 or a deleted place: no place, not an error
    expansions = []
    raw_expansions = record.get("expansionPlays") or []
    if not isinstance(raw_expansions, list):
        reader.add(f"{path}.expansionPlays", "must be a list.")
        raw_expansions = []
    for number, entry in enumerate(raw_expansions):
        item = reader.record(entry, f"{path}.expansionPlays[{number}]")
        if item is not None:
            ref = reader.whole(item, "gameRefId", f"{path}.expansionPlays[{number}]")
            if ref is not None:
                expansions.append(ref)
    comments = reader.text(record, "comments", path, required=False) or ""
    ignored = reader.flag(record, "ignored", path)
    scores = []
    raw_scores = record.get("playerScores")
    if not isinstance(raw_scores, list) or not raw_scores:
        reader.add(f"{path}.playerScores", "must be a list with each player's score.")
        raw_scores = []
    seen_players: set[int] = set()
    for number, entry in enumerate(raw_scores):
        spath = f"{path}.playerScores[{number}]"
        item = reader.record(entry, spath)
        if item is None:
            continue
        ref = reader.whole(item, "playerRefId", spath)
        if ref is not None and ref not in players:
            reader.add(f"{spath}.playerRefId", f"no player has id {ref}.")
        elif ref is not None and ref in seen_players:
            reader.add(f"{spath}.playerRefId", f"{players[ref].name} is listed twice in one play.")
        seat_order = reader.whole(item, "seatOrder", spath, required=False) or 0
        rank = reader.whole(item, "rank", spath, required=False) or 0
        for key, value in (("seatOrder", seat_order), ("rank", rank)):
            if value < 0:
                reader.add(f"{spath}.{key}", "cannot be negative.")
        score = _score(reader, item, spath)
        winner = reader.flag(item, "winner", spath)
        start = reader.flag(item, "startPlayer", spath)
        if ref is not None:
            seen_players.add(ref)
            scores.append(BGScore(ref, score, winner, start, max(seat_order, 0), max(rank, 0)))
    if sum(len(v) for v in reader.errors.values()) != before:
        return None
    assert play_uuid is not None and played_at is not None and game_ref is not None
    return BGPlay(
        index=index,
        uuid=play_uuid.strip(),
        played_at=played_at,
        game_ref=game_ref,
        location_ref=location_ref,
        ignored=ignored,
        expansion_refs=tuple(expansions),
        comments=comments,
        scores=tuple(scores),
    )


def to_file(export: Export) -> dict[str, Any]:
    """What `parse_export` read, written back in BG Stats' format (only those fields): a
    compact copy to keep between the preview and the import.

    >>> again = parse_export(json.dumps(to_file(parse_export(
    ...     '{"players": [{"id": 1, "name": "Ada"}], "games": [{"id": 9, "name": "Cat Lady"}],'
    ...     ' "plays": [{"uuid": "p", "playDate": "2026-11-20 19:30:00", "gameRefId": 9,'
    ...     ' "playerScores": [{"playerRefId": 1, "score": "31"}]}]}'))))
    >>> again.plays[0].scores[0].score, again.games[9].name
    (31, 'Cat Lady')
    """
    return {
        "players": [{"id": p.id, "uuid": p.uuid, "name": p.name} for p in export.players.values()],
        "locations": [{"id": ident, "name": name} for ident, name in export.locations.items()],
        "games": [
            {"id": g.id, "name": g.name, "bggName": g.bgg_name, "bggId": g.bgg_id}
            for g in export.games.values()
        ],
        "plays": [
            {
                "uuid": play.uuid,
                "playDate": play.played_at.strftime(DATE_FORMAT),
                "gameRefId": play.game_ref,
                "locationRefId": play.location_ref or 0,
                "ignored": play.ignored,
                "comments": play.comments,
                "expansionPlays": [{"gameRefId": ref} for ref in play.expansion_refs],
                "playerScores": [
                    {
                        "playerRefId": s.player_ref,
                        "score": "" if s.score is None else str(s.score),
                        "winner": s.winner,
                        "startPlayer": s.start_player,
                        "seatOrder": s.seat_order,
                        "rank": s.rank,
                    }
                    for s in play.scores
                ],
            }
            for play in export.plays
        ],
    }
