"""BG Stats files read: a BG Stats export parsed into plain values (kept between preview and
import by `league.interop.snapshot`). Pure code, no ORM (`league.interop.services` has that).

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

Real exports hold every game a person logs, and BG Stats keeps things a league cannot use: a
score can be BG Stats' calculation of it (``"10+10+15"``; bgstatsapp.com/cloud-sync-info lists
"calculation of the scores" among what it keeps) and one anonymous player can sit at a table
several times. Such a play is left out with its reasons (`UnreadPlay`), never the whole file;
so is a play whose player or game entry cannot be read (a name missing, an id used twice),
and a BoardGameGeek name or id that cannot be read is taken as unknown. Only a file that is
not a BG Stats export at all (not JSON, no lists of players, games and plays) is refused.

Play uuids are compared without letter case (BG Stats writes capitals; a copy another tool
wrote may not). What a result needs beyond its headline score has no field in BG Stats (fed
cats breaking a Cat Lady tie, Maple St.'s turns, how a Cantankerous Cats game was won, the
edition, the solitaire cat player's VP): Catleague's export writes it as one comments line,
``Catleague: {JSON}`` (`CARRIED_NOTE`, our convention), read back here as `Carried`.

Planning which plays become games: `league.interop.planning`; writing: `.writing`.
"""

import datetime as dt
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from league.interop.fields import FieldReader, Row, first_problem, records_with_ids, score_of

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
CARRIED_NOTE = "Catleague: "


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
    anonymous: bool = False


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
    notes: str = ""  # the comments without Catleague's own line
    carried: "Carried | None" = None


@dataclass(frozen=True)
class Carried:
    """What Catleague's export carried in a play's comments (`CARRIED_NOTE`): the edition,
    result fields by player id and game-level fields. Checked as any result is, on import."""

    edition: str = ""
    results: dict[int, dict[str, Any]] = field(default_factory=dict)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class UnreadPlay:
    """A play of the file that cannot be read (the rest of the file still can)."""

    index: int
    uuid: str
    game_ref: int | None
    played_at: dt.datetime | None
    players: tuple[str, ...]
    reasons: tuple[str, ...]
    ignored: bool = False  # left out of BG Stats' statistics: skipped, whatever it holds


@dataclass(frozen=True)
class Export:
    players: dict[int, BGPlayer]
    locations: dict[int, str]
    games: dict[int, BGGame]
    plays: list[BGPlay]
    unread: list[UnreadPlay] = field(default_factory=list)


# --- reading --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Damaged:
    """The file's player and game entries that cannot be read, by id: why."""

    players: Mapping[int, str]
    games: Mapping[int, str]


def parse_export(raw: bytes | str) -> Export:
    """Read a BG Stats export; raises `BGStatsError` naming every problem found that makes it
    no BG Stats export at all. A play that cannot be read is kept as an `UnreadPlay`.

    >>> export = parse_export('''{"players": [{"id": 1, "name": "Ada"}, {"id": 2, "name": "Bo"}],
    ...   "locations": [], "games": [{"id": 9, "name": "Cat Lady", "bggId": 228504}],
    ...   "plays": [{"uuid": "p-1", "playDate": "2026-11-20 19:30:00", "gameRefId": 9,
    ...     "playerScores": [{"playerRefId": 1, "score": "31", "winner": true},
    ...                      {"playerRefId": 2, "score": "28"}]},
    ...    {"uuid": "p-2", "playDate": "2026-11-20 21:00:00", "gameRefId": 9,
    ...     "playerScores": [{"playerRefId": 1, "score": "10+10+15"},
    ...                      {"playerRefId": 2, "score": "28"}]}]}''')
    >>> [(s.player_ref, s.score, s.winner) for s in export.plays[0].scores]
    [(1, 31, True), (2, 28, False)]
    >>> export.unread[0].reasons
    ("Ada's score is a calculation ('10+10+15'), not one total: Catleague needs the total VP.",)
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
    # The file's own shape (its lists) must be right; a damaged entry in a list is left out,
    # and only the plays that refer to it are, each with the reason (another game's entry
    # never costs the Cat Lady plays).
    reader = FieldReader()
    entries = FieldReader()
    damaged_players: dict[int, str] = {}
    players: dict[int, BGPlayer] = {}
    for ident, name, record in _named(
        entries, reader.table(data, "players"), "players", damaged_players
    ):
        players[ident] = BGPlayer(
            id=ident,
            name=name.strip(),
            uuid=str(record.get("uuid") or ""),
            anonymous=record.get("isAnonymous") is True,
        )
    locations: dict[int, str] = {}
    for path, ident, record in records_with_ids(
        entries, reader.table(data, "locations", required=False), "locations", {}
    ):
        place = entries.text(record, "name", path)
        if place is not None:  # a place that cannot be read: the play has no place
            locations[ident] = place.strip()
    damaged_games: dict[int, str] = {}
    games: dict[int, BGGame] = {}
    for ident, name, record in _named(entries, reader.table(data, "games"), "games", damaged_games):
        # BoardGameGeek's name and id only help recognise the game: unreadable, unknown.
        optional = FieldReader()  # its problems are not kept
        bgg_name = optional.text(record, "bggName", "game", required=False) or ""
        bgg_id = optional.whole(record, "bggId", "game", required=False) or 0
        games[ident] = BGGame(id=ident, name=name, bgg_name=bgg_name, bgg_id=bgg_id)
    rows = reader.table(data, "plays")
    if len(rows) > MAX_PLAYS:
        raise BGStatsError({"plays": [f"The file holds more than {MAX_PLAYS:,} plays."]})
    if reader.errors:
        raise BGStatsError(reader.errors)
    damaged = _Damaged(players=damaged_players, games=damaged_games)
    plays: list[BGPlay] = []
    unread: list[UnreadPlay] = []
    first_of: dict[str, BGPlay] = {}
    for index, row in enumerate(rows):
        play = _play(row, index, players, games, locations, damaged)
        if isinstance(play, BGPlay):
            first = first_of.setdefault(play.uuid.upper(), play)
            if first is not play:
                play = _unread(
                    play,
                    players,
                    f"The same play as the one of {first.played_at:%Y-%m-%d %H:%M} (its uuid "
                    f"{play.uuid} appears twice, letter case aside): only that one is read.",
                )
        if isinstance(play, BGPlay):
            plays.append(play)
        else:
            unread.append(play)
    return Export(players=players, locations=locations, games=games, plays=plays, unread=unread)


def _named(
    entries: FieldReader, rows: list[Any], table: str, damaged: dict[int, str]
) -> Iterator[tuple[int, str, Row]]:
    """(id, name, record) of each entry of ``table`` with an id and a name; an entry with an id
    but no readable name goes into ``damaged`` with its problem (its plays are left out)."""
    for path, ident, record in records_with_ids(entries, rows, table, damaged):
        name = entries.text(record, "name", path)
        if name is None:
            damaged[ident] = first_problem(entries, path) or f"{path} cannot be read."
        else:
            yield ident, name, record


def _unread(play: BGPlay, players: Mapping[int, BGPlayer], reason: str) -> UnreadPlay:
    return UnreadPlay(
        index=play.index,
        uuid=play.uuid,
        game_ref=play.game_ref,
        played_at=play.played_at,
        players=tuple(players[s.player_ref].name for s in play.scores),
        reasons=(reason,),
    )


def _play(
    row: Any,
    index: int,
    players: Mapping[int, BGPlayer],
    games: Mapping[int, BGGame],
    locations: Mapping[int, str],
    damaged: "_Damaged",
) -> BGPlay | UnreadPlay:
    """One play read, or the reasons it cannot be (each with its field, for a person)."""
    if not isinstance(row, dict):
        return UnreadPlay(index, "", None, None, (), ("This is not a record of a play.",))
    reader = FieldReader()
    reasons: list[str] = []
    record: Mapping[str, Any] = row
    play_uuid = reader.text(record, "uuid", "play")
    if play_uuid is not None and not 0 < len(play_uuid.strip()) <= MAX_UUID_LENGTH:
        reader.add("play.uuid", f"must be 1 to {MAX_UUID_LENGTH} characters.")
    raw_date = reader.text(record, "playDate", "play")
    played_at = None
    if raw_date is not None:
        try:
            played_at = dt.datetime.strptime(raw_date.strip(), DATE_FORMAT)
        except ValueError:
            reader.add("play.playDate", f"must look like 2026-11-20 19:30:00, not {raw_date!r}.")
    game_ref = reader.whole(record, "gameRefId", "play")
    if game_ref is not None and game_ref not in games:
        reader.add(
            "play.gameRefId",
            f"its game's entry cannot be read: {damaged.games[game_ref]}"
            if game_ref in damaged.games
            else f"no game has id {game_ref}.",
        )
    location_ref = reader.whole(record, "locationRefId", "play", required=False)
    if location_ref is not None and location_ref not in locations:
        location_ref = None  # BG Stats writes 0 or a deleted place: no place, not an error
    expansions = []
    raw_expansions = record.get("expansionPlays") or []
    if not isinstance(raw_expansions, list):
        reader.add("play.expansionPlays", "must be a list.")
        raw_expansions = []
    for number, entry in enumerate(raw_expansions):
        item = reader.record(entry, f"play.expansionPlays[{number}]")
        if item is not None:
            ref = reader.whole(item, "gameRefId", f"play.expansionPlays[{number}]")
            if ref is not None:
                expansions.append(ref)
    comments = reader.text(record, "comments", "play", required=False) or ""
    ignored = reader.flag(record, "ignored", "play")
    scores = []
    raw_scores = record.get("playerScores")
    if not isinstance(raw_scores, list) or not raw_scores:
        reader.add("play.playerScores", "must be a list with each player's score.")
        raw_scores = []
    times: dict[int, int] = {}
    for number, entry in enumerate(raw_scores or []):
        spath = f"play.playerScores[{number}]"
        item = reader.record(entry, spath)
        if item is None:
            continue
        ref = reader.whole(item, "playerRefId", spath)
        if ref is not None and ref not in players:
            reader.add(
                f"{spath}.playerRefId",
                f"the player's entry cannot be read: {damaged.players[ref]}"
                if ref in damaged.players
                else f"no player has id {ref}.",
            )
            ref = None
        seat_order = reader.whole(item, "seatOrder", spath, required=False) or 0
        rank = reader.whole(item, "rank", spath, required=False) or 0
        for key, value in (("seatOrder", seat_order), ("rank", rank)):
            if value < 0:
                reader.add(f"{spath}.{key}", "cannot be negative.")
        who = players[ref].name if ref is not None else f"Player {number + 1}"
        score, problem = score_of(item.get("score", ""), who)
        if problem:
            reasons.append(problem)
        winner = reader.flag(item, "winner", spath)
        start = reader.flag(item, "startPlayer", spath)
        if ref is not None:
            times[ref] = times.get(ref, 0) + 1
            scores.append(BGScore(ref, score, winner, start, max(seat_order, 0), max(rank, 0)))
    for ref, count in times.items():
        if count > 1:
            reasons.append(
                f"BG Stats' anonymous player ({players[ref].name}) is {count} players of this "
                "play: Catleague cannot tell them apart."
                if players[ref].anonymous
                else f"{players[ref].name} is listed {count} times in this play."
            )
    reasons.extend(
        f"{where.removeprefix('play.')}: {message}"
        for where, messages in reader.errors.items()
        for message in messages
    )
    if reasons or play_uuid is None or played_at is None or game_ref not in games:
        return UnreadPlay(
            index=index,
            uuid=(play_uuid or "").strip(),
            game_ref=game_ref if game_ref in games else None,
            played_at=played_at,
            players=tuple(players[s.player_ref].name for s in scores),
            reasons=tuple(reasons),
            ignored=ignored,
        )
    assert game_ref is not None
    notes, carried = _carried_note(
        comments, {players[s.player_ref].name: s.player_ref for s in scores}
    )
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
        notes=notes,
        carried=carried,
    )


def _carried_note(comments: str, refs: Mapping[str, int]) -> tuple[str, Carried | None]:
    """The comments without Catleague's own line, and what that line carried; a line that
    is not well formed, or names someone not in the play, stays a comment.

    >>> _carried_note('Close!\\nCatleague: {"players": {"Mia": {"fed_cats": 5}}}', {"Mia": 1})
    ('Close!', Carried(edition='', results={1: {'fed_cats': 5}}, details={}))
    """
    kept = []
    found = None
    for line in comments.split("\n"):
        carried = _carried(line.removeprefix(CARRIED_NOTE), refs)
        if line.startswith(CARRIED_NOTE) and carried is not None and found is None:
            found = carried
        else:
            kept.append(line)
    return "\n".join(kept), found


def _carried(text: str, refs: Mapping[str, int]) -> Carried | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) - {"edition", "players", "details"}:
        return None
    edition, by_name, details = (
        data.get("edition", ""),
        data.get("players", {}),
        data.get("details", {}),
    )
    if not isinstance(edition, str) or not isinstance(by_name, dict) or not _fields(details):
        return None
    if any(name not in refs or not _fields(fields) for name, fields in by_name.items()):
        return None
    return Carried(
        edition=edition,
        results={refs[name]: dict(fields) for name, fields in by_name.items()},
        details=dict(details),
    )


def _fields(value: Any) -> bool:
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, (int, str, bool)) for k, v in value.items()
    )
