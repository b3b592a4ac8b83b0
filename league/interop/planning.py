"""Which plays of a BG Stats export become league games. Pure code, no ORM.

How a play becomes a league game:

- Its game is matched by BoardGameGeek id where the id is known here (Cat Lady is
  boardgamegeek.com/boardgame/228504), otherwise by name (BG Stats' own or BGG's). Plays of
  other games, and of known games this league does not record, are listed as skipped.
- ``score`` is the game's headline number (Cat Lady's total VP, Cantankerous Cats' Mischief
  points, Maple St.'s cats collected). BG Stats holds nothing else of a result, so a Cat Lady
  tie on VP (which needs fed cats to break) or a Maple St. game (which needs turns taken) is
  refused with the reason, by the same `league.catalogue.check_results` the result form uses,
  unless the play comes from a Catleague export, which carries them (`reading.Carried`, with
  the edition and game-level fields such as the solitaire cat player's VP).
- Ranks follow the game's rules; BG Stats' winners and ranks, where given, must agree with
  them, or the play is refused with the difference. Cantankerous Cats' winner is BG Stats'
  winner; a winner below 9 Mischief points can only have won by a Feral victory.
- Seats: Catleague's seat 1 is the player who started. Players sit in BG Stats' seat order
  where it is given (else in the file's order), turned so that the start player is seat 1.
- ``playDate`` gives the date and the time of day; midnight exactly means no time (what the
  export writes for a game logged without one). The location's name is the place;
  ``comments`` are the notes. An ``ignored`` play is skipped.
- A play the file cannot give (`reading.UnreadPlay`: a calculated score, one player twice...)
  is refused with its reasons when it is, or may be, a play of this league's game; another
  game's is counted with that game's skipped plays.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from league.catalogue import ResultError, check_results, get_game
from league.interop.reading import (
    BGG_IDS,
    BOX_OF_TREATS_NAMES,
    GAME_NAMES,
    BGGame,
    BGPlay,
    BGScore,
    Carried,
    Export,
)


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
    details: dict[str, Any] = field(default_factory=dict)  # game-level result fields


@dataclass(frozen=True)
class RefusedPlay:
    """A play of this league's game that is not imported, and why."""

    index: int  # its place in the file
    uuid: str
    played_at: dt.datetime | None
    players: tuple[str, ...]  # BG Stats names, in the file's order
    reasons: tuple[str, ...]

    @classmethod
    def of(cls, export: Export, play: BGPlay, reasons: Sequence[str]) -> RefusedPlay:
        return cls(
            index=play.index,
            uuid=play.uuid,
            played_at=play.played_at,
            players=tuple(export.players[s.player_ref].name for s in play.scores),
            reasons=tuple(reasons),
        )


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
    for unread in export.unread:
        game = export.games.get(unread.game_ref) if unread.game_ref is not None else None
        if game is not None and known_game(game) != game_key:
            label = game.name or game.bgg_name
            plan.skipped_games[label] = plan.skipped_games.get(label, 0) + 1
        elif unread.ignored:
            plan.ignored += 1
        else:
            plan.refused.append(
                RefusedPlay(
                    index=unread.index,
                    uuid=unread.uuid,
                    played_at=unread.played_at,
                    players=unread.players,
                    reasons=unread.reasons,
                )
            )
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
    plan.refused.sort(key=lambda refused: refused.index)
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


def _results(game_key: str, seated: Sequence[BGScore], carried: Carried) -> list[dict[str, Any]]:
    """Each seat's result: BG Stats' score as the headline, with what our export carried."""
    results: list[dict[str, Any]] = []
    for s in seated:
        result = dict(carried.results.get(s.player_ref, {}))
        if game_key == "cat-lady":
            result["total_vp"] = s.score
        elif game_key == "cantankerous-cats":
            result["mischief_points"] = s.score
            result.pop("winner", None)
            if s.winner:
                result["winner"] = True
                if s.score is not None and "win_type" not in result:
                    result["win_type"] = "nine_mischief" if s.score >= 9 else "feral_victory"
        else:
            result["cats_collected"] = s.score
        results.append(result)
    return results


def _planned(
    export: Export, play: BGPlay, game_key: str, today: dt.date
) -> PlannedPlay | RefusedPlay:
    reasons: list[str] = []
    seated = _seat_order(play.scores)
    names = [export.players[s.player_ref].name for s in seated]
    carried = play.carried or Carried()
    edition = _edition(export, play, game_key, len(seated))
    if game_key == "cantankerous-cats" and any(
        s.winner and s.score is not None and s.score < 9 for s in seated
    ):
        edition = "standard"  # only the Standard game has a Feral victory
    edition = carried.edition or edition
    if play.played_at.date() > today:
        reasons.append(f"It is dated {play.played_at.date()}, in the future.")
    results = _results(game_key, seated, carried)
    checked = None
    try:
        checked = check_results(game_key, edition, results, carried.details)
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
        return RefusedPlay.of(export, play, reasons)
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
        details=checked.details,
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
