"""What `league.interop.reading` read from a BG Stats file, kept compactly between the
import's preview and the import itself (in the session) and read back. Pure code, no ORM."""

import dataclasses
import datetime as dt
import json
from typing import Any

from league.interop.reading import DATE_FORMAT, Export, UnreadPlay, parse_export


def to_snapshot(export: Export) -> dict[str, Any]:
    """The export in BG Stats' format (only the fields read), and the plays that could not be
    read with their reasons.

    >>> export = parse_export(
    ...     '{"players": [{"id": 1, "name": "Ada"}], "games": [{"id": 9, "name": "Cat Lady"}],'
    ...     ' "plays": [{"uuid": "p", "playDate": "2026-11-20 19:30:00", "gameRefId": 9,'
    ...     ' "playerScores": [{"playerRefId": 1, "score": "31"}]}, {"uuid": "q"}]}')
    >>> again = from_snapshot(json.loads(json.dumps(to_snapshot(export))))
    >>> again == export, again.plays[0].scores[0].score, again.unread[0].index
    (True, 31, 1)
    """
    file = {
        "players": [
            {"id": p.id, "uuid": p.uuid, "name": p.name, "isAnonymous": p.anonymous}
            for p in export.players.values()
        ],
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
    unread = [
        {
            "index": u.index,
            "uuid": u.uuid,
            "gameRefId": u.game_ref,
            "playDate": u.played_at.strftime(DATE_FORMAT) if u.played_at else None,
            "players": list(u.players),
            "reasons": list(u.reasons),
            "ignored": u.ignored,
        }
        for u in export.unread
    ]
    return {"file": file, "indexes": [p.index for p in export.plays], "unread": unread}


def from_snapshot(data: dict[str, Any]) -> Export:
    """The export `to_snapshot` kept, each play at its place in the original file."""
    export = parse_export(json.dumps(data["file"]))
    plays = [
        dataclasses.replace(play, index=index)
        for play, index in zip(export.plays, data["indexes"], strict=True)
    ]
    unread = [
        UnreadPlay(
            index=u["index"],
            uuid=u["uuid"],
            game_ref=u["gameRefId"],
            played_at=dt.datetime.strptime(u["playDate"], DATE_FORMAT) if u["playDate"] else None,
            players=tuple(u["players"]),
            reasons=tuple(u["reasons"]),
            ignored=u["ignored"],
        )
        for u in data["unread"]
    ]
    return dataclasses.replace(export, plays=plays, unread=unread)
