"""The decisive move of a lost match, from its stored log. Pure: no Django, no I/O.

The decisive move is the move after which the loser's score gap to the eventual winner grew
the most (the earliest such move on a tie). The gap after each move comes from replaying the
engine log and scoring every position as if the game ended there (the final position with
its real result, feeding included). A seat that forfeited lost at the fault that made it
forfeit instead: from that move on it ranked below every seat that played on, whatever the
scores said.

Moves are numbered from 1, as in the replay's move list; move ``n`` leads to frame ``n``.

>>> decisive_move([[0, 0], [0, 3], [1, 3], [1, 10], [9, 10]], seat=0, winner=1)
3
>>> decisive_move([[0, 0], [2, 0]], seat=0, winner=1) is None
True
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

import engine
from engine.errors import EngineError

__all__ = ["SCORING_BUDGET_S", "decisive_move", "decisive_move_of", "running_scores"]

# Scoring every position of a base-game match takes tens of milliseconds; an expansion's
# general scorer can take far longer, and a page waits for this: past the budget, no answer.
SCORING_BUDGET_S = 2.0


def running_scores(
    log: Mapping[str, Any], *, budget_s: float = SCORING_BUDGET_S
) -> list[list[int]] | None:
    """Every seat's score at the deal and after each move (``len(actions) + 1`` rows), or None
    when this engine cannot replay the log (another game, rules or card-data version) or the
    scoring takes longer than ``budget_s``."""
    engine_log = log.get("engine_log")
    if not isinstance(engine_log, Mapping):
        return None
    deadline = time.perf_counter() + budget_s
    try:
        game = engine.load_game(
            engine_log["game"], version=engine_log["version"], options=engine_log["options"]
        )
        if engine_log.get("data_version") != game.data_version:
            return None
        state = game.new_initial_state(int(engine_log["seed"]))
        scores = [[p.total for p in state.score().players]]
        for action in engine_log["actions"]:
            state = state.apply(game.action_from_json(action))
            scored = state.result() if state.is_terminal() else state.score()
            scores.append([p.total for p in scored.players])
            if time.perf_counter() > deadline:
                return None
    except (EngineError, KeyError, TypeError, ValueError):
        return None
    return scores


def decisive_move(scores: Sequence[Sequence[int]], *, seat: int, winner: int) -> int | None:
    """The move (from 1) after which ``winner``'s lead over ``seat`` grew the most; None when
    it never grew."""
    best, best_growth = None, 0
    for move in range(1, len(scores)):
        before = scores[move - 1][winner] - scores[move - 1][seat]
        after = scores[move][winner] - scores[move][seat]
        if after - before > best_growth:
            best, best_growth = move, after - before
    return best


def decisive_move_of(log: Mapping[str, Any], *, seat: int) -> int | None:
    """The decisive move of ``seat``'s loss in the match of ``log`` (see the module's
    docstring); None when there is none to show (a win, a start-up forfeit, a log this engine
    cannot score)."""
    result = log.get("result") or {}
    ranks: list[int] = result.get("ranks") or []
    if seat >= len(ranks) or ranks[seat] == 1:
        return None
    if seat in (log.get("forfeited") or []):
        faults = (log.get("faults") or [])[seat] if seat < len(log.get("faults") or []) else []
        at = [fault.get("step") for fault in faults if fault.get("step") is not None]
        return at[-1] + 1 if at else None
    winner = _winner(result)
    scores = running_scores(log)
    if winner is None or scores is None:
        return None
    return decisive_move(scores, seat=seat, winner=winner)


def _winner(result: Mapping[str, Any]) -> int | None:
    """The eventual winner: the first placed seat with the highest score."""
    ranks = result.get("ranks") or []
    totals = result.get("scores") or []
    first = [s for s, rank in enumerate(ranks) if rank == 1 and s < len(totals)]
    return max(first, key=lambda s: totals[s]) if first else None
