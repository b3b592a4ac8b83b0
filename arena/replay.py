"""Turn a stored arena match log into what the replay viewer shows. Pure: no Django, no I/O.

:func:`build_replay` takes a match log (schema ``catleague.match-log/1``) and returns a JSON
object: the move list and result, which every log has, and — when this engine can replay the
logged game and rules version — one frame per position, from the deal to the end. Each frame
holds what every seat's engine observation shows (the parts all seats share once, and each
seat's differences), the hidden part only the full view shows, and the running scores.

Each game's spec builds its own frames (``engine.<game>.frames``) and names the viewer's
drawing code (``renderer``). A log of a game this engine does not know (or of a rules
version it no longer has) still gets its move list and result, with ``problem`` saying why
there are no frames.

Bot stderr is never copied into a replay: the page that embeds it is public.

>>> from arena.runner import run_match
>>> replay = build_replay(run_match(seed=3, bots=["random", "greedy"]))
>>> replay["renderer"], len(replay["frames"]) == len(replay["moves"]) + 1
('cat-lady', True)
>>> sorted(replay["frames"][0]["hidden"])
['next_cards', 'removed', 'strays_face_down']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import engine
from arena.words import move_words
from engine.errors import EngineError

__all__ = ["REPLAY_SCHEMA", "build_replay", "expand_frames", "move_text", "seat_view"]

REPLAY_SCHEMA = "catleague.replay/1"


def build_replay(log: Mapping[str, Any]) -> dict[str, Any]:
    """The replay of a match log: ``meta``, ``players``, ``moves``, ``frames``, ``result``.

    Each move keeps the engine's short ``text`` (bots and the board code read it) and has a
    ``label`` in the live table's words, every card by its printed name, with the ``rule`` it
    follows (:mod:`arena.words`); a log the engine cannot replay has its text as the label.
    Each frame's ``legal_moves`` are the seat to move's legal moves in the same words.

    Never raises for a log that cannot be replayed: ``frames`` is then None and ``problem``
    says why (unknown game, rules or card-data version this engine lacks, a log that does not
    replay). Raises :class:`ValueError` only for something that is not a match log at all.
    """
    if not isinstance(log, Mapping) or not isinstance(log.get("steps"), list):
        raise ValueError("not an arena match log: it has no list of steps")
    game_name = str(log.get("game", ""))
    players = [
        {"seat": p.get("seat", i), "bot": p.get("bot", f"seat {i + 1}"), "kind": p.get("kind", "")}
        for i, p in enumerate(log.get("players") or [])
    ]
    replay: dict[str, Any] = {
        "schema": REPLAY_SCHEMA,
        "game": game_name,
        "version": str(log.get("version", "")),
        "renderer": None,
        "meta": {},
        "players": players,
        "moves": [],
        "frames": None,
        "result": _result(log),
        "problem": "",
    }
    game, actions, last, problem = _replayable(log)
    replay["moves"] = _moves(log, game, actions)
    if game is None:
        replay["problem"] = problem
        return replay
    spec = engine.game_spec(game.name)
    states = [game.new_initial_state(int(log["engine_log"]["seed"]))]
    for action in actions:
        states.append(states[-1].apply(action))
    states[-1] = last  # the same position, with its result already scored
    built = spec.replay_frames(game, states)
    _legal_moves_in_words(game, states, built["frames"])
    replay.update(renderer=spec.renderer, meta=built["meta"], frames=_compact(built["frames"]))
    for move, text in zip(replay["moves"], built.get("move_texts", ()), strict=False):
        move["text"] = text  # a builder may word moves for people (seats counted from 1)
    for move, before, action in zip(replay["moves"], states, actions, strict=False):
        # The table's words: served only once the match is over, so in full (every bet named).
        words = move_words(game, before, action)
        move["label"], move["rule"] = str(words["label"]), str(words["rule"])
    return replay


def seat_view(game: engine.Game, state: engine.GameState, seat: int) -> dict[str, Any]:
    """One position as ``seat`` sees it, drawn as the replay viewer draws a seat's own view
    (for a person at a live table): ``renderer``, ``meta``, ``view``, ``to_move``, ``scores``
    and ``events``. Nothing only another seat knows: where the seat's observation lists the
    cards it has seen, ``meta`` names only those."""
    spec = engine.game_spec(game.name)
    built = spec.replay_frames(game, [state])
    frame = built["frames"][0]
    meta = dict(built["meta"])
    seen = state.observation(seat).get("cards")
    if isinstance(seen, Mapping):
        meta["cards"] = {key: card for key, card in meta.get("cards", {}).items() if key in seen}
    return {
        "renderer": spec.renderer,
        "meta": meta,
        "view": {**frame["public"], **frame["own"][seat]},
        "to_move": frame["to_move"],
        "scores": frame.get("scores"),
        "events": frame.get("events", []),
    }


def move_text(action: Mapping[str, Any]) -> str:
    """A readable form of an action's JSON when no engine can read it.

    >>> move_text({"type": "take", "line": "row 2"})
    'take row 2'
    >>> move_text({"type": "end-turn"})
    'end-turn'
    """
    if not isinstance(action, Mapping):
        return str(action)
    parts = [str(action.get("type", "?"))]
    parts += [str(value) for key, value in action.items() if key != "type"]
    return " ".join(parts)


# --- internals -----------------------------------------------------------------------------


def _replayable(log: Mapping[str, Any]) -> tuple[Any, list[Any], Any, str]:
    """(game, actions, last state, "") when the engine replays the log's engine part, else
    (None, [], None, why). The last state comes from :func:`engine.replay`, which checked it
    against the log and has its result computed already."""
    engine_log = log.get("engine_log")
    if not isinstance(engine_log, Mapping):
        return None, [], None, "This match log has no engine log to replay."
    try:
        last = engine.replay(engine_log)  # checks rules and data versions, turns and result
        game = engine.load_game(
            engine_log["game"], version=engine_log["version"], options=engine_log["options"]
        )
        actions = [game.action_from_json(a) for a in engine_log["actions"]]
    except EngineError as exc:
        return None, [], None, f"This match cannot be replayed here: {exc}"
    return game, actions, last, ""


def _legal_moves_in_words(
    game: engine.Game, states: Sequence[engine.GameState], frames: Sequence[dict[str, Any]]
) -> None:
    """Each frame's ``legal_moves``: the legal moves of the seat to move, which its view lists
    in the engine's short texts (bots read those; each view stays its seat's observation),
    in the table's words, every card by printed name, for the "Legal moves now" line."""
    for state, built in zip(states, frames, strict=True):
        legal = [] if state.is_terminal() else state.legal_actions()
        built["legal_moves"] = [str(move_words(game, state, action)["label"]) for action in legal]


def _moves(log: Mapping[str, Any], game: Any, actions: Sequence[Any]) -> list[dict[str, Any]]:
    moves = []
    for number, step in enumerate(log["steps"], start=1):
        if number <= len(actions):
            text = str(actions[number - 1])
        else:
            text = move_text(step.get("action", {}))
        moves.append(
            {
                "n": number,
                "seat": step.get("seat"),
                "text": text,
                "label": text,  # the engine's words replace it when it replays the log
                "rule": "",
                "ms": step.get("ms"),
                "status": step.get("status", "ok"),
            }
        )
    return moves


def _result(log: Mapping[str, Any]) -> dict[str, Any]:
    result = log.get("result") or {}
    return {
        "scores": result.get("scores", []),
        "ranks": result.get("ranks", []),
        "winners": result.get("winners", []),
        "forfeited": log.get("forfeited", []),
        "score_sheet": result.get("score_sheet"),
        "faults": [len(f) for f in log.get("faults", [])],
    }


def _changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The keys of ``after`` whose values differ from ``before``; a changed ``tableaux`` list
    is sent as {seat: tableau} for the seats that changed. A position differs from the one
    before by one move, so this keeps a replay's frames small."""
    changed: dict[str, Any] = {}
    for key, value in after.items():
        if (
            key == "tableaux"
            and isinstance(before.get(key), list)
            and len(before[key]) == len(value)
        ):
            seats = {
                str(i): t
                for i, (t, old) in enumerate(zip(value, before[key], strict=True))
                if t != old
            }
            if seats:
                changed[key] = seats
        elif before.get(key, _MISSING) != value:
            changed[key] = value
    return changed


_MISSING = object()


def _compact(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each frame's ``public`` cut to what changed since the frame before (every builder's
    frames; :func:`expand_frames` and the viewer make them whole again)."""
    previous: Mapping[str, Any] = {}
    compact = []
    for frame in frames:
        compact.append({**frame, "public": _changes(previous, frame["public"])})
        previous = frame["public"]
    return compact


def expand_frames(replay: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The frames with each ``public`` made whole again, as static/js/replay.js does: frame 0
    holds everything, each later frame only what changed (tableaux by seat).

    >>> expand_frames({"frames": [{"public": {"a": 1, "tableaux": [{"x": 1}, {"x": 2}]}},
    ...                           {"public": {"tableaux": {"1": {"x": 3}}}}]})[1]["public"]
    {'a': 1, 'tableaux': [{'x': 1}, {'x': 3}]}
    """
    whole: dict[str, Any] = {}
    frames = []
    for frame in replay["frames"]:
        whole = dict(whole)
        for key, value in frame["public"].items():
            if key == "tableaux" and isinstance(value, dict):
                tableaux = list(whole[key])
                for seat, tableau in value.items():
                    tableaux[int(seat)] = tableau
                whole[key] = tableaux
            else:
                whole[key] = value
        frames.append({**frame, "public": whole})
    return frames
