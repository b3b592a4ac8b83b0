"""The outcome of a game of Cantankerous Cats.

Ranks follow the league's physical results for this game (league/catalogue.py): the winner
first, then by Mischief points, equal points sharing a rank (1, 2, 2, 4). A game stopped by
the engine's turn limit has no winner and is ranked by points alone.

>>> from engine import load_game
>>> from engine.strategies import get
>>> from engine.strategies.match import play_match
>>> game = load_game("cantankerous-cats", options={"players": 2})
>>> final = play_match(game, [get("greedy", game=game.name)] * 2, seed=3)
>>> result = final.result()
>>> sorted(result.to_json()["players"][0])
['affection', 'mischief_points', 'rank', 'seat', 'status', 'total', 'win_type', 'winner']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.cantankerous.game import State

__all__ = ["PlayerResult", "Result", "build_result"]


@dataclass(frozen=True)
class PlayerResult:
    """One Cat at the end. ``total`` is its Mischief points (the arena's score)."""

    seat: int
    total: int
    rank: int
    winner: bool
    win_type: str | None
    feral: bool
    affection: int

    def to_json(self) -> dict[str, Any]:
        # winner / win_type / mischief_points are the league's Cantankerous Cats result fields.
        return {
            "seat": self.seat,
            "winner": self.winner,
            "win_type": self.win_type,
            "mischief_points": self.total,
            "total": self.total,
            "rank": self.rank,
            "status": "feral" if self.feral else "domestic",
            "affection": self.affection,
        }


@dataclass(frozen=True)
class Result:
    players: tuple[PlayerResult, ...]
    winners: tuple[int, ...]  # the winner's seat, or () when the turn limit stopped it
    win_type: str | None  # "nine_mischief", "feral_victory" or None
    turns: int
    finished: bool  # False: stopped by the turn limit (or not over yet)
    deck: str
    data_version: str

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "cantankerous-cats",
            "deck": self.deck,
            "data_version": self.data_version,
            "players": [p.to_json() for p in self.players],
            "winner_seats": list(self.winners),
            "win_type": self.win_type,
            "turns": self.turns,
            "finished": self.finished,
        }


def build_result(state: State) -> Result:
    game = state.game
    n = game.num_players
    winner = state._winner if state._over else -1
    keys = [(seat == winner, state._points[seat]) for seat in range(n)]
    ranks = [1 + sum(other > key for other in keys) for key in keys]
    players = tuple(
        PlayerResult(
            seat=seat,
            total=state._points[seat],
            rank=ranks[seat],
            winner=seat == winner,
            win_type=state._win_type if seat == winner else None,
            feral=state._feral[seat],
            affection=state.affection(seat),
        )
        for seat in range(n)
    )
    return Result(
        players=players,
        winners=(winner,) if winner >= 0 else (),
        win_type=state._win_type if winner >= 0 else None,
        turns=state._turn,
        finished=winner >= 0,
        deck=game.deck.name,
        data_version=game.data_version,
    )
