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

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import engine
from engine.errors import EngineError

__all__ = ["FRAME_BUILDERS", "REPLAY_SCHEMA", "build_replay", "expand_frames", "move_text",
           "seat_view"]

REPLAY_SCHEMA = "catleague.replay/1"

# Observation keys that never change within a match: sent once in "meta", not per frame.
_CONSTANT_KEYS = ("schema", "game", "version", "edition", "data_version", "options", "players")
# How many of the next deck cards the full view shows (the whole deck would bloat the page).
NEXT_CARDS_SHOWN = 9
# Time the running score of every position may take when a replay is built.
RUNNING_SCORE_BUDGET_S = 0.15

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
    game, actions, last, problem = _replayable(log)
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
    states[-1] = last  # the same position, with its result already scored
    built = builder(game, states)
    replay.update(renderer=game_name, meta=built["meta"], frames=_compact(built["frames"]))
    for move, text in zip(replay["moves"], built.get("move_texts", ()), strict=False):
        move["text"] = text  # a builder may word moves for people (seats counted from 1)
    return replay


def seat_view(game: Any, state: Any, seat: int) -> dict[str, Any] | None:
    """One position as ``seat`` sees it, drawn as the replay viewer draws a seat's own view
    (for a person at a live table): ``renderer``, ``meta``, ``view``, ``to_move``, ``scores``
    and ``events``. Nothing only another seat knows: where the seat's observation lists the
    cards it has seen, ``meta`` names only those. None for a game without a viewer."""
    builder = FRAME_BUILDERS.get(game.name)
    if builder is None:
        return None
    built = builder(game, [state])
    frame = built["frames"][0]
    meta = dict(built["meta"])
    seen = state.observation(seat).get("cards")
    if isinstance(seen, Mapping):
        meta["cards"] = {key: card for key, card in meta.get("cards", {}).items() if key in seen}
    return {
        "renderer": game.name, "meta": meta, "view": {**frame["public"], **frame["own"][seat]},
        "to_move": frame["to_move"], "scores": frame.get("scores"),
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
    running_scores = _running_scores_affordable(states)
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
            keys.update(tableau.get("boxes", []))
        if state is states[-1] and state.is_terminal():
            scores = [p.total for p in state.result().players]
        elif running_scores or state is states[-1]:
            scores = [p.total for p in state.score().players]
        else:
            scores = None
        frames.append(
            {
                "turn": state.turn,
                "phase": state.phase,
                "to_move": state.current_player,
                "public": shared,
                "own": own,
                "hidden": hidden,
                "scores": scores,
            }
        )
    by_key = {card.key: card for card in deck}
    # A key the deck does not hold (an expansion's extra card) is shown by its key, never
    # with made-up facts.
    cards = {
        key: _card_json(by_key[key]) if key in by_key else {"name": key, "kind": "other"}
        for key in sorted(keys)
    }
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
        "data_status": edition.status,
        "players": game.num_players,
        "cards": cards,
        "strays": strays,
        "toy_types": [list(t) for t in edition.toy_types],
        "food_tokens": list(game.food_tokens),
    }
    return {"meta": meta, "frames": frames}


def _running_scores_affordable(states: Sequence[Any]) -> bool:
    """Whether scoring every position fits RUNNING_SCORE_BUDGET_S. The position before the
    last holds (nearly) the most cards, so its scoring time bounds the others'. The base game
    scores a position in well under a millisecond; an expansion's general scorer can take
    tens of milliseconds, and then only the final position is scored (the viewer says so)."""
    if len(states) < 2:
        return True
    begun = time.perf_counter()
    states[-2].score()
    return (time.perf_counter() - begun) * len(states) <= RUNNING_SCORE_BUDGET_S


def _cat_lady_hidden(state: Any) -> dict[str, Any]:
    """What no seat's observation contains, from the state's full view (for finished
    matches only): the deck's next cards, the cards removed unseen at the deal and the
    strays never dealt face up."""
    full = state.full_view()
    return {
        "next_cards": full["deck"][:NEXT_CARDS_SHOWN],
        "removed": full["removed"],
        "strays_face_down": full["strays_face_down"],
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


# --- Cantankerous Cats ------------------------------------------------------------------------

# Observation keys constant through a Cantankerous Cats match: sent once in "meta".
_CC_CONSTANT = ("deck", "variant", "turn_indicator", "direction")
# How many of the Food Bowl's next cards the full view shows.
NEXT_BOWL_CARDS_SHOWN = 6


def _cantankerous_frames(game: Any, states: Sequence[Any]) -> dict[str, Any]:
    """Frames of a Cantankerous Cats match. ``public`` is what every seat sees (every Cat's
    status, points, House, tokens and hand size; the table; the Litter Box; the pending
    decision's public side) and ``own[seat]`` what only that seat sees (its hand, its bet or
    Pounce choice before the reveal, a Feral's Meal Time draw, its legal moves). ``hidden``
    is the rest, for the full view: every hand, every pending bet and Pounce choice, the
    Food Bowl's next cards. ``events`` are what the move made happen, as the table saw it."""
    seats = range(game.num_players)
    frames = []
    numbers: set[int] = set()
    for state in states:
        observations = [state.observation(seat) for seat in seats]
        for obs in observations:
            numbers.update(int(n) for n in obs.pop("cards"))
        shared, own = _split_views(observations)
        for key in ("current_player", "phase", "turn", *_CC_CONSTANT):
            shared.pop(key, None)
            for mine in own:
                mine.pop(key, None)
        litter = shared.pop("litter_box", [])
        shared["litter_box"] = {"count": len(litter), "top": litter[-1] if litter else None}
        numbers.update(litter[-1:])
        full = state.full_view()
        hidden = {
            "hands": full["hands"],
            "window": full["window"],
            "bowl_next": full["bowl"][:NEXT_BOWL_CARDS_SHOWN],
        }
        numbers.update(n for hand in full["hands"] for n in hand)
        numbers.update(hidden["bowl_next"])
        frames.append(
            {
                "turn": state.turn,
                "phase": state.phase,
                "to_move": state.current_player,
                "public": shared,
                "own": own,
                "hidden": hidden,
                "scores": list(state.points),
                "events": [event["text"] for event in state.events],
            }
        )
    first = states[0].observation(0)
    move_texts = [_cc_people_text(str(state.history[-1])) for state in states[1:]]
    for frame in frames:  # every text a person reads counts seats from 1, as the viewer does
        frame["events"] = [_cc_people_text(text) for text in frame["events"]]
        choices = (frame["hidden"]["window"] or {}).get("choices")
        if choices:
            frame["hidden"]["window"]["choices"] = {
                seat: _cc_people_text(text) for seat, text in choices.items()
            }
        for own in frame["own"]:
            if own.get("legal_actions"):
                own["legal_actions"] = [_cc_people_text(text) for text in own["legal_actions"]]
            if (own.get("window") or {}).get("my_choice"):
                own["window"]["my_choice"] = _cc_people_text(own["window"]["my_choice"])
    meta = {
        "deck": first["deck"],
        "variant": first["variant"],
        "turn_indicator": first["turn_indicator"],
        "direction": first["direction"],
        "players": game.num_players,
        "cards": {str(n): game.deck.card(n).summary() for n in sorted(numbers)},
    }
    return {"meta": meta, "frames": frames, "move_texts": move_texts}


_CC_SEATS = re.compile(r"\b([Ss])eats? (\d+(?:, \d+)*)")
_CC_ATTACK = re.compile(r"\battack (\d+) with\b")
_CC_ON = re.compile(r" on (\d+)\b")


def _cc_people_text(text: str) -> str:
    """Engine texts count seats from 0 (bots index them); the viewer says "Seat 1" for seat 0.

    >>> _cc_people_text("seat 0 banks #6: seats 1, 2 decide")
    'Seat 1 banks #6: Seats 2, 3 decide'
    >>> _cc_people_text("pounce attack 0 with 70"), _cc_people_text("play 71 on 2")
    ('pounce attack Seat 1 with 70', 'play 71 on Seat 3')
    >>> _cc_people_text("Pounces revealed: seat 1 pounce attack 0 with 21, seat 2 pass")
    'Pounces revealed: Seat 2 pounce attack Seat 1 with 21, Seat 3 pass'
    """

    def seats(found: re.Match[str]) -> str:
        numbers = [str(int(n) + 1) for n in found.group(2).split(", ")]
        return f"{'Seats' if len(numbers) > 1 else 'Seat'} {', '.join(numbers)}"

    text = _CC_SEATS.sub(seats, text)
    text = _CC_ATTACK.sub(lambda m: f"attack Seat {int(m.group(1)) + 1} with", text)
    return _CC_ON.sub(lambda m: f" on Seat {int(m.group(1)) + 1}", text)


FRAME_BUILDERS: dict[str, FrameBuilder] = {
    "cat-lady": _cat_lady_frames,
    "cantankerous-cats": _cantankerous_frames,
}
"""Game name -> frame builder. A game added to the engine registers its builder here, and its
drawing code in static/js/replay.js under the same name."""
