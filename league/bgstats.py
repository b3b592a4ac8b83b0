"""BG Stats files in and out: read a BG Stats export, plan which plays become league games, and
write a league's games in BG Stats' format. Pure code, no ORM (`league.bgstats_import` reads
and writes the database).

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

How a play becomes a league game:

- Its game is matched by BoardGameGeek id where the id is known here (Cat Lady is
  boardgamegeek.com/boardgame/228504), otherwise by name (BG Stats' own or BGG's). Plays of
  other games, and of known games this league does not record, are listed as skipped.
- ``score`` is the game's headline number (Cat Lady's total VP, Cantankerous Cats' Mischief
  points, Maple St.'s cats collected). BG Stats holds nothing else of a result, so a Cat Lady
  tie on VP (which needs fed cats to break) or a Maple St. game (which needs turns taken) is
  refused with the reason, by the same `league.catalogue.check_results` the result form uses.
- Ranks follow the game's rules; BG Stats' winners and ranks, where given, must agree with
  them, or the play is refused with the difference. Cantankerous Cats' winner is BG Stats'
  winner; a winner below 9 Mischief points can only have won by a Feral victory.
- Seats: Catleague's seat 1 is the player who started. Players sit in BG Stats' seat order
  where it is given (else in the file's order), turned so that the start player is seat 1.
- ``playDate`` gives the date and the time of day; midnight exactly means no time (what the
  export writes for a game logged without one). The location's name is the place;
  ``comments`` are the notes. An ``ignored`` play is skipped.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import unicodedata
import uuid as uuid_module
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from league.catalogue import ResultError, check_results, get_game

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


# --- planning an import -----------------------------------------------------------------------


def _plain(name: str) -> str:
    """A game name compared loosely: case, accents and punctuation ignored.

    >>> _plain("Cat Ladies of Maple St.")
    'cat ladies of maple st'
    """
    folded = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return " ".join(re.sub(r"[^a-z0-9: ]+", " ", folded.lower()).split()).strip(" :")


def known_game(game: BGGame) -> str | None:
    """The catalogue key of a BG Stats game, or None for a game Catleague does not know."""
    if game.bgg_id in BGG_IDS:
        return BGG_IDS[game.bgg_id]
    for name in (game.name, game.bgg_name):
        key = GAME_NAMES.get(_plain(name).replace(":", ""))
        if key is not None:
            return key
    return None


@dataclass(frozen=True)
class PlannedSeat:
    player_ref: int
    seat: int
    result: dict[str, Any]
    rank: int


@dataclass(frozen=True)
class PlannedPlay:
    """A play that can become a league game (if its players are mapped)."""

    play: BGPlay
    edition: str
    played_on: dt.date
    played_time: dt.time | None
    place: str
    seats: tuple[PlannedSeat, ...]  # seat order


@dataclass(frozen=True)
class RefusedPlay:
    play: BGPlay
    reasons: tuple[str, ...]


@dataclass
class Plan:
    game_key: str
    plays: list[PlannedPlay] = field(default_factory=list)
    refused: list[RefusedPlay] = field(default_factory=list)
    # BG Stats game name -> plays skipped (games Catleague or this league does not record).
    skipped_games: dict[str, int] = field(default_factory=dict)
    ignored: int = 0

    def player_refs(self) -> list[int]:
        """The BG Stats players of the plays to import, in order of first appearance."""
        seen: dict[int, None] = {}
        for planned in self.plays:
            for seat in planned.seats:
                seen.setdefault(seat.player_ref, None)
        return list(seen)


def plan_import(export: Export, *, game_key: str, today: dt.date) -> Plan:
    """Which plays of `export` would become games of a league recording `game_key`, and why
    the others would not."""
    plan = Plan(game_key=game_key)
    for play in export.plays:
        game = export.games[play.game_ref]
        if known_game(game) != game_key:
            label = game.name or game.bgg_name
            plan.skipped_games[label] = plan.skipped_games.get(label, 0) + 1
            continue
        if play.ignored:
            plan.ignored += 1
            continue
        planned = _planned(export, play, game_key, today)
        if isinstance(planned, RefusedPlay):
            plan.refused.append(planned)
        else:
            plan.plays.append(planned)
    return plan


def _edition(export: Export, play: BGPlay, game_key: str, players: int) -> str:
    if game_key == "cat-lady":
        if players == 1:
            return "solitaire"
        names = {
            _plain(export.games[ref].name) for ref in play.expansion_refs if ref in export.games
        }
        if names & BOX_OF_TREATS_NAMES:
            return "box-of-treats"
        return "base"
    return get_game(game_key).editions[0].key


def _seat_order(scores: Sequence[BGScore]) -> list[BGScore]:
    ordered = sorted(
        range(len(scores)),
        key=lambda i: (scores[i].seat_order == 0, scores[i].seat_order, i),
    )
    seated = [scores[i] for i in ordered]
    starter = next((i for i, s in enumerate(seated) if s.start_player), 0)
    return seated[starter:] + seated[:starter]


def _results(game_key: str, seated: Sequence[BGScore]) -> list[dict[str, Any]]:
    if game_key == "cat-lady":
        return [{"total_vp": s.score} for s in seated]
    if game_key == "cantankerous-cats":
        results: list[dict[str, Any]] = []
        for s in seated:
            result: dict[str, Any] = {"mischief_points": s.score}
            if s.winner:
                result["winner"] = True
                if s.score is not None:
                    result["win_type"] = "nine_mischief" if s.score >= 9 else "feral_victory"
            results.append(result)
        return results
    return [{"cats_collected": s.score} for s in seated]


def _planned(
    export: Export, play: BGPlay, game_key: str, today: dt.date
) -> PlannedPlay | RefusedPlay:
    reasons: list[str] = []
    seated = _seat_order(play.scores)
    names = [export.players[s.player_ref].name for s in seated]
    edition = _edition(export, play, game_key, len(seated))
    if game_key == "cantankerous-cats" and any(
        s.winner and s.score is not None and s.score < 9 for s in seated
    ):
        edition = "standard"  # only the Standard game has a Feral victory
    if play.played_at.date() > today:
        reasons.append(f"It is dated {play.played_at.date()}, in the future.")
    results = _results(game_key, seated)
    checked = None
    try:
        checked = check_results(game_key, edition, results)
    except ResultError as exc:
        # The same problem of several players (both sides of a tie) is said once, with names.
        whose: dict[str, list[str]] = {}
        for path, messages in exc.errors.items():
            parts = path.split(".")
            for message in messages:
                people = whose.setdefault(message, [])
                if len(parts) > 2 and parts[0] == "participants" and parts[1].isdigit():
                    people.append(names[int(parts[1])])
        reasons.extend(
            f"{', '.join(people)}: {message}" if people else message
            for message, people in whose.items()
        )
    if checked is not None:
        reasons.extend(_disagreements(seated, checked.ranks, names))
    if reasons:
        return RefusedPlay(play=play, reasons=tuple(reasons))
    assert checked is not None
    time = play.played_at.time()
    return PlannedPlay(
        play=play,
        edition=edition,
        played_on=play.played_at.date(),
        played_time=None if time == dt.time(0) else time.replace(microsecond=0),
        place=export.locations.get(play.location_ref, "") if play.location_ref is not None else "",
        seats=tuple(
            PlannedSeat(player_ref=s.player_ref, seat=i + 1, result=result, rank=rank)
            for i, (s, result, rank) in enumerate(
                zip(seated, checked.results, checked.ranks, strict=True)
            )
        ),
    )


def _disagreements(seated: Sequence[BGScore], ranks: Sequence[int], names: list[str]) -> list[str]:
    """Where BG Stats' winners or ranks differ from the ranks the game's rules give."""
    problems = []
    winners = {names[i] for i, s in enumerate(seated) if s.winner}
    ruled = {names[i] for i, r in enumerate(ranks) if r == 1}
    if winners and winners != ruled:
        problems.append(
            f"BG Stats marks {', '.join(sorted(winners))} as winning, but by the game's rules "
            f"{', '.join(sorted(ruled))} won."
        )
    given = [(names[i], s.rank, ranks[i]) for i, s in enumerate(seated) if s.rank]
    for name, theirs, ours in given:
        if theirs != ours:
            problems.append(f"BG Stats ranks {name} {theirs}, the game's rules rank them {ours}.")
    return problems


# --- writing an export ------------------------------------------------------------------------


@dataclass(frozen=True)
class ExportSeat:
    player_id: int
    player_name: str
    seat: int
    rank: int
    score: int


@dataclass(frozen=True)
class ExportGame:
    id: int
    uuid: str  # empty: one is made from the league and the game's id
    played_on: dt.date
    played_time: dt.time | None
    place: str
    notes: str
    edition: str
    seats: Sequence[ExportSeat]


_NAMESPACE = uuid_module.uuid5(uuid_module.NAMESPACE_URL, "https://catleague.invalid/bgstats")


def _uuid(*parts: object) -> str:
    return str(uuid_module.uuid5(_NAMESPACE, "/".join(str(p) for p in parts))).upper()


def write_export(*, league_slug: str, game_key: str, games: Sequence[ExportGame]) -> dict[str, Any]:
    """A league's games as a BG Stats file (the fields listed in the module docstring).

    Ids are numbered here; uuids are stable for the same league and game, so importing the
    file twice (here or in BG Stats) finds the plays it already has.
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
                "comments": game.notes,
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
