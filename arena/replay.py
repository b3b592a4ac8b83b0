"""Turn a stored arena match log into what the replay viewer shows. Pure: no Django, no I/O.

:func:`build_replay` takes a match log (schema ``catleague.match-log/1``) and returns a JSON
object: the move list and result, which every log has, and — when this engine can replay the
logged game and rules version — one frame per position, from the deal to the end. Each frame
holds what every seat's engine observation shows (the parts all seats share once, and each
seat's differences), the hidden part only the full view shows, and the running scores.

The viewer picks its drawing code by the ``renderer`` name, which is the game's name when a
frame builder is registered for it in :data:`FRAME_BUILDERS`. A log of any other game (or of
a rules version this engine no longer has) still gets its move list and result, with
``problem`` saying why there are no frames.

Bot stderr is never copied into a replay: the page that embeds it is public.

>>> from arena.runner import run_match
>>> replay = build_replay(run_match(seed=3, bots=["random", "greedy"]))
>>> replay["renderer"], len(replay["frames"]) == len(replay["moves"]) + 1
('cat-lady', True)
>>> sorted(replay["frames"][0]["hidden"])
['next_cards', 'removed', 'strays_face_down']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine
from engine.errors import EngineError

__all__ = ["FRAME_BUILDERS", "REPLAY_SCHEMA", "build_replay", "move_text"]

REPLAY_SCHEMA = "catleague.replay/1"

# Observation keys that never change within a match: sent once in "meta", not per frame.
_CONSTANT_KEYS = ("schema", "game", "version", "edition", "data_version", "options", "players")
# How many of the next deck cards the full view shows (the whole deck would bloat the page).
NEXT_CARDS_SHOWN = 9

FrameBuilder = Callable[[Any, Sequence[Any]], dict[str, Any]]


def build_replay(log: Mapping[str, Any]) -> dict[str, Any]:
    """The replay of a match log: ``meta``, ``players``, ``moves``, ``frames``, ``result``.

    Never raises for a log that cannot be replayed: ``frames`` is then None and ``problem``
    says why (unknown game, rules or card-data version this engine lacks, a log that does not
    replay). Raises :class:`ValueError` only for something that is not a match log at all.
    """
    if not isinstance(log, Mapping) or not isinstance(log.get("steps"), list):
        raise ValueError("not an arena match log: it has no list of steps")
    game_name = str(log.get("game", ""))
    players = [
        {"seat": p.get("seat", i), "bot": p.get("bot", f"seat {i}"), "kind": p.get("kind", "")}
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
    builder = FRAME_BUILDERS.get(game_name)
    game, actions, problem = _replayable(log)
    replay["moves"] = _moves(log, game, actions)
    if game is None:
        replay["problem"] = problem
        return replay
    if builder is None:
        replay["problem"] = f"This site has no replay viewer for {game_name!r} yet."
        return replay
    states = [game.new_initial_state(int(log["engine_log"]["seed"]))]
    for action in actions:
        states.append(states[-1].apply(action))
    built = builder(game, states)
    replay.update(renderer=game_name, meta=built["meta"], frames=built["frames"])
    return replay


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


def _replayable(log: Mapping[str, Any]) -> tuple[Any, list[Any], str]:
    """(game, actions, "") when the engine replays the log's engine part, else (None, [], why)."""
    engine_log = log.get("engine_log")
    if not isinstance(engine_log, Mapping):
        return None, [], "This match log has no engine log to replay."
    try:
        engine.replay(engine_log)  # checks rules and card-data versions, turns and result
        game = engine.load_game(
            engine_log["game"], version=engine_log["version"], options=engine_log["options"]
        )
        actions = [game.action_from_json(a) for a in engine_log["actions"]]
    except EngineError as exc:
        return None, [], f"This match cannot be replayed here: {exc}"
    return game, actions, ""


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


def _split_views(
    observations: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """What every seat's observation shares, and per seat what differs from it."""
    first = observations[0]
    shared = {
        key: value
        for key, value in first.items()
        if key not in _CONSTANT_KEYS
        and key != "seat"
        and all(obs.get(key) == value for obs in observations[1:])
    }
    own = [
        {
            key: value
            for key, value in obs.items()
            if key not in shared and key not in _CONSTANT_KEYS and key != "seat"
        }
        for obs in observations
    ]
    return shared, own


# --- Cat Lady --------------------------------------------------------------------------------


def _cat_lady_frames(game: Any, states: Sequence[Any]) -> dict[str, Any]:
    edition = game.edition
    deck = edition.deck
    seats = range(game.num_players)
    frames = []
    keys: set[str] = set()
    for state in states:
        observations = [state.observation(seat) for seat in seats]
        shared, own = _split_views(observations)
        for key in ("current_player", "phase", "turn"):
            shared.pop(key, None)  # the frame says these once
        for tableau in shared.get("tableaux", []):
            # The card catalogue names every key, and hand cards say their kind and toy.
            for derived in ("cat_names", "toys", "costumes", "catnip"):
                tableau.pop(derived, None)
        hidden = _cat_lady_hidden(state)
        keys.update(k for k in shared.get("grid", []) if k)
        keys.update(hidden["next_cards"])
        keys.update(hidden["removed"])
        keys.update(shared.get("unseen", {}))
        keys.update(shared.get("discard", {}))
        for tableau in shared.get("tableaux", []):
            keys.update(tableau["cats"])
            keys.update(tableau["hand"])
        score = state.score()
        frames.append(
            {
                "turn": state.turn,
                "phase": state.phase,
                "to_move": state.current_player,
                "public": shared,
                "own": own,
                "hidden": hidden,
                "scores": [p.total for p in score.players],
            }
        )
    by_key = {card.key: card for card in deck}
    cards = {key: _card_json(by_key[key]) for key in sorted(keys)}
    strays = {
        s.name: {
            "colours": sorted(str(c) for c in s.colours),
            "needs": dict(s.needs),
            "vp": s.vp,
            "ability": s.ability,
            "note": s.note,
        }
        for s in edition.strays
    }
    meta = {
        "edition": edition.name,
        "edition_label": edition.label,
        "data_version": edition.version,
        "data_status": getattr(edition, "status", ""),
        "players": game.num_players,
        "cards": cards,
        "strays": strays,
        "toy_types": [list(t) for t in edition.toy_types],
        "food_tokens": list(engine.FOOD_TOKENS),
    }
    return {"meta": meta, "frames": frames}


def _cat_lady_hidden(state: Any) -> dict[str, Any]:
    """What no seat's observation contains: the deck's order, the cards removed unseen at the
    deal and the strays never dealt face up. The engine has no public accessor for these (bots
    must never see them), so the replay reads the state's own fields here, and only here."""
    deck = state.game.edition.deck
    strays = state.game.edition.strays
    upcoming = state._deck[state._pos : state._pos + NEXT_CARDS_SHOWN]
    return {
        "next_cards": [deck[card].key for card in upcoming],
        "removed": sorted(deck[card].key for card in state._removed),
        "strays_face_down": [strays[s].name for s in state._strays_hidden],
    }


def _card_json(card: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"name": card.name, "kind": str(card.kind)}
    if card.cat is not None:
        data["colours"] = sorted(str(c) for c in card.cat.colours)
        data["vp"] = card.cat.vp
        data["needs"] = dict(card.cat.needs)
        data["ability"] = card.cat.ability
    if card.food:
        data["food"] = dict(card.food)
    if card.toy:
        data["toy"] = card.toy
    if card.provisional:
        data["provisional"] = True
    return data


FRAME_BUILDERS: dict[str, FrameBuilder] = {"cat-lady": _cat_lady_frames}
"""Game name -> frame builder. A game added to the engine registers its builder here, and its
drawing code in static/js/replay.js under the same name."""
