"""League data: players, leagues and their members, seasons, games played and ratings, and game
nights, in one module per room (`clubs`, `results`, `nights`), all of the one "league" app.

Models hold data and simple invariants; every write goes through a room's services
(`league.clubs.services`, `league.results.services`, `league.nights.services`).
"""

from league.models.clubs import (
    AuditEntry,
    Invitation,
    League,
    LeagueQuerySet,
    Membership,
    Player,
    Season,
)
from league.models.nights import (
    GameNight,
    NightAttendee,
    NightRound,
    NightSeat,
    NightTable,
)
from league.models.results import (
    Game,
    GameConfirmation,
    GameDispute,
    GameQuerySet,
    Participant,
    PlayerRating,
    play_order,
)

__all__ = [
    "Player",
    "LeagueQuerySet",
    "League",
    "Membership",
    "Season",
    "AuditEntry",
    "Invitation",
    "GameQuerySet",
    "play_order",
    "Game",
    "Participant",
    "PlayerRating",
    "GameConfirmation",
    "GameDispute",
    "GameNight",
    "NightAttendee",
    "NightRound",
    "NightTable",
    "NightSeat",
]
