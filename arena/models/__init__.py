"""Arena data: bots and their immutable versions, ladders, tournaments, matches and their
seats, live tables, gauntlets, in one module per topic, all of the one "arena" app.

Every write goes through the rooms' services (`arena.<room>.services`); the runner
(`arena.runner`) knows nothing of these.
"""

from arena.models.bots import Bot, BotVersion, Ladder, LadderEntry, Tournament, house_label
from arena.models.gauntlet import Gauntlet, GauntletMatch
from arena.models.live import LiveInvitation, LiveSeat, MatchWatch, MoveReview, PlayRating
from arena.models.matches import Match, MatchQuerySet, MatchSeat, WorkerBeat

__all__ = [
    "Bot",
    "BotVersion",
    "Gauntlet",
    "GauntletMatch",
    "Ladder",
    "LadderEntry",
    "LiveInvitation",
    "LiveSeat",
    "Match",
    "MatchQuerySet",
    "MatchSeat",
    "MatchWatch",
    "MoveReview",
    "PlayRating",
    "Tournament",
    "WorkerBeat",
    "house_label",
]
