"""The review of a person's moves after a live game: what the house MCTS would have played at
each of them, and the win chance it gives every candidate (pure: no Django).

It runs only on a finished match's log. At each of the seat's moves it rebuilds the position
from the log and searches from **that seat's observation** (the house MCTS samples the hidden
cards as it does in play: :mod:`engine.forward`), never from the true state: the review knows
what the person knew then, not what the end of the game revealed. Each move gets the same
budget (``iterations`` playouts, ``time_limit_s`` at most) and its own generator seeded from
the review's seed and the step, so a review is the same every time unless the time limit cut a
search short (then ``cut_short`` says so). Every move is also labelled in the words the table
offered it in (:func:`arena.words.move_label`: cards by their printed names).

>>> import engine
>>> from engine.strategies import get
>>> from engine.strategies.match import play_match
>>> game = engine.load_game(options={"players": 2})
>>> final = play_match(game, [get("random"), get("random")], seed=4)
>>> review = review_seat(engine.make_log(game, 4, final.history), seat=0, iterations=8)
>>> move = review["moves"][0]
>>> final.history[move["step"]] == game.parse_action(move["played"]), len(move["candidates"]) > 1
(True, True)
>>> move["played"], move["played_label"] != move["played"]  # the engine's text, the table's
('take row 1', True)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from typing import Any

import engine
from arena.words import move_label
from engine.strategies import Evaluator, evaluator

__all__ = ["FLAG_LOSS", "REVIEW_SCHEMA", "review_move", "review_seat"]

# 2: every move and candidate also has its label in people's words.
REVIEW_SCHEMA = 2
# A move that gives away this much win chance against the MCTS's choice is flagged.
FLAG_LOSS = 0.15


def review_seat(
    engine_log: Mapping[str, Any],
    *,
    seat: int,
    iterations: int = 300,
    time_limit_s: float | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """The review of ``seat``'s moves in the finished game ``engine_log`` (an engine match
    log: game, version, options, seed, actions).

    Every move with a choice gets ``{"step", "played", "best", "played_label", "best_label",
    "candidates", "loss", "flagged", "cut_short"}``; ``candidates`` are ``{"action", "text",
    "label", "win", "visits"}``, best first (``text`` is the engine's short form, ``label``
    the table's words for the move in the position it was chosen in). Raises
    :class:`engine.EngineError` if the log does not replay or the game has no house MCTS.
    """
    game = engine.load_game(
        engine_log["game"], version=engine_log["version"], options=engine_log["options"]
    )
    search = evaluator(engine_log["game"], iterations=iterations, time_limit=time_limit_s)
    state = game.new_initial_state(engine_log["seed"])
    moves = []
    for step, raw in enumerate(engine_log["actions"]):
        action = game.action_from_json(raw)
        legal = state.legal_actions()
        if state.current_player == seat and len(legal) > 1:
            rng = random.Random(f"catleague-review:{seed}:{seat}:{step}")
            words = functools.partial(move_label, game, state)
            judged = review_move(state.observation(seat), legal, action, search, rng, label=words)
            moves.append({"step": step, **judged})
        state = state.apply(action)
    return {
        "schema": REVIEW_SCHEMA,
        "seat": seat,
        "iterations": iterations,
        "time_limit_s": time_limit_s,
        "seed": seed,
        "flag_loss": FLAG_LOSS,
        "moves": moves,
    }


def review_move(
    observation: dict[str, Any],
    legal_actions: list[engine.Action],
    played: engine.Action,
    search: Evaluator,
    rng: random.Random,
    *,
    label: Callable[[engine.Action], str] = str,
) -> dict[str, Any]:
    """One move judged from the mover's ``observation``: ``{"played", "best", "played_label",
    "best_label", "loss", "flagged", "cut_short", "candidates"}`` (see :func:`review_seat`);
    ``label`` says a legal move in people's words (the engine's short text without it)."""
    values, cut = search.evaluate(observation, legal_actions, rng, played=played)
    # The MCTS's choice: the best win chance, the most searched among equals (its selection
    # spends its playouts on the moves that look best).
    ranked = sorted(values, key=lambda v: (-v.win_chance, -v.visits))
    best = ranked[0]
    mine = next(v for v in values if v.action == played)
    loss = max(0.0, best.win_chance - mine.win_chance)
    return {
        "played": str(played),
        "best": str(best.action),
        "played_label": label(played),
        "best_label": label(best.action),
        "loss": round(loss, 3),
        "flagged": loss >= FLAG_LOSS,
        "cut_short": cut,
        "candidates": [
            {
                "action": v.action.to_json(),
                "text": str(v.action),
                "label": label(v.action),
                "win": round(v.win_chance, 3),
                "visits": v.visits,
            }
            for v in ranked
        ],
    }
