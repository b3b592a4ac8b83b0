"""What one seat may know about a Cantankerous Cats state (JSON), and the full view.

Public: every Cat's status (Domestic/Feral), Mischief points, banked Affection cards,
Pounce Tokens and hand size; the Cat Toy holder, the Turn Indicator, the direction of play,
the Token Bank, the Food Bowl's size, the Litter Box (face up), the cards on the table and
the window being decided. Private: your own hand, your own First Bite bet or Pounce choice
until they are revealed, and the cards you drew as a Feral at Meal Time.

Never shown to a seat: other hands, the Food Bowl's order, the random generator's state,
and other seats' bets or Pounce choices before the reveal (their bet card and Pounce card
stay in their hand until then, so hand sizes and token counts give nothing away).

``position`` repeats the public part in the engine's own terms (card indices, the stack of
decisions in progress) with the hidden parts left out, so that
:func:`engine.cantankerous.position.sample_state` can rebuild a full state from an
observation alone; bots read the other keys.

>>> from engine import load_game
>>> state = load_game("cantankerous-cats", options={"players": 2}).new_initial_state(4)
>>> obs = state.observation(1)
>>> obs["phase"], len(obs["hand"]), obs["cats"][0]["hand_size"], obs["food_bowl"]
('bet', 6, 6, 72)
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Any

from engine.actions import Action
from engine.cantankerous.rules import (
    Bets,
    CounterBanking,
    CounterWindow,
    FeralKeep,
    Frame,
    InstantWindow,
    PlayRecord,
    PlayTime,
    PounceWindow,
)
from engine.errors import EngineError

if TYPE_CHECKING:
    from engine.cantankerous.game import State

__all__ = ["OBSERVATION_SCHEMA", "full_view", "observe"]

OBSERVATION_SCHEMA = "catleague.cantankerous-observation/1"


def observe(state: State, seat: int) -> dict[str, Any]:
    """The JSON observation of ``seat``. Raises :class:`EngineError` for a seat that is not
    in the game."""
    game = state.game
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.num_players:
        raise EngineError(f"seat must be 0..{game.num_players - 1}, not {seat!r}")
    view = _public(state)
    numbers = game.numbers
    hand = sorted(numbers[c] for c in state._hands[seat])
    view["seat"] = seat
    view["hand"] = hand
    window = view["window"]
    frame = state._stack[-1] if state._stack else None
    if isinstance(frame, Bets):
        mine = [numbers[card] for s, card in frame.bets if s == seat]
        window["my_bet"] = mine[0] if mine else None
    elif isinstance(frame, PounceWindow) and frame.seats is not None:
        mine_actions = [str(a) for s, a in frame.choices if s == seat]
        window["my_choice"] = mine_actions[0] if mine_actions else None
    elif isinstance(frame, FeralKeep) and seat == state._toy:
        window["drawn"] = sorted(numbers[c] for c in frame.drawn)
    to_move = state.current_player == seat
    view["legal_actions"] = [str(a) for a in state.legal_actions()] if to_move else []
    view["cards"] = _card_details(state, hand, view)
    view["position"] = _position(state, seat)
    return view


def full_view(state: State) -> dict[str, Any]:
    """Everything except the random generator: every hand, the pending bets and Pounce
    choices, a Feral's Meal Time draw, and the Food Bowl's order (``bowl``, the next card
    first). For replay viewers of finished matches; never for a bot."""
    game = state.game
    numbers = game.numbers
    view = _public(state)
    view["seat"] = None
    view["hands"] = [sorted(numbers[c] for c in hand) for hand in state._hands]
    window = view["window"]
    frame = state._stack[-1] if state._stack else None
    if isinstance(frame, Bets):
        window["bets"] = {str(s): numbers[card] for s, card in frame.bets}
    elif isinstance(frame, PounceWindow) and frame.seats is not None:
        window["choices"] = {str(s): str(a) for s, a in frame.choices}
    elif isinstance(frame, FeralKeep):
        window["drawn"] = sorted(numbers[c] for c in frame.drawn)
    view["bowl"] = [numbers[c] for c in reversed(state._bowl)]
    view["legal_actions"] = [str(a) for a in state.legal_actions()]
    every_hand = [n for hand in view["hands"] for n in hand]
    view["cards"] = _card_details(state, every_hand, view)
    return view


def _public(state: State) -> dict[str, Any]:
    game = state.game
    numbers = game.numbers
    cats = []
    for seat in range(game.num_players):
        cats.append(
            {
                "seat": seat,
                "status": "feral" if state._feral[seat] else "domestic",
                "mischief": state._points[seat],
                "affection": state.affection(seat),
                "house": [numbers[c] for c in state._houses[seat]],
                "tokens": state._tokens[seat],
                "hand_size": len(state._hands[seat]),
            }
        )
    table = [
        {
            "play": play.id,
            "seat": play.seat,
            "card": numbers[play.card],
            "as": play.mode,
            "origin": play.origin,
            "target": play.target,
            "answers": play.answers,
            "cancelled": play.cancelled,
        }
        for play in state._plays.values()
    ]
    view: dict[str, Any] = {
        "schema": OBSERVATION_SCHEMA,
        "game": game.name,
        "version": game.version,
        "options": dict(game.options),
        "deck": {
            "key": game.deck.key,
            "name": game.deck.name,
            "demo": game.deck.demo,
            "data_version": game.data_version,
        },
        "players": game.num_players,
        "variant": game.variant,
        "current_player": state.current_player,
        "phase": state.phase,
        "turn": state._turn,
        "toy_holder": state._toy,
        "turn_indicator": "high" if state._high else "low",
        "direction": "clockwise" if state._dir == 1 else "counter-clockwise",
        "food_bowl": len(state._bowl),
        "litter_box": [numbers[c] for c in state._litter],
        "token_bank": state._bank,
        "cats": cats,
        "table": table,
        "window": _window(state),
        "result": state.result().to_json() if state._over else None,
    }
    return view


def _window(state: State) -> dict[str, Any] | None:
    """The public side of the decision in progress."""
    if not state._stack:
        return None
    frame = state._stack[-1]
    numbers = state.game.numbers
    if isinstance(frame, Bets):
        return {
            "kind": "first-bite",
            "round": frame.round,
            "bettors": list(frame.bettors),
            "placed": [seat for seat, _ in frame.bets],
        }
    if isinstance(frame, PounceWindow):
        play = state._plays[frame.play]
        return {
            "kind": "pounce",
            "after_play": frame.play,
            "after_card": numbers[play.card],
            "after_seat": play.seat,
            "last_chance": frame.last_chance,
            "seats": list(frame.seats or ()),
            "decided": [seat for seat, _ in frame.choices],
        }
    if isinstance(frame, CounterWindow):
        play = state._plays[frame.play]
        return {
            "kind": "counter",
            "against_play": frame.play,
            "against_card": numbers[play.card],
            "by_seat": play.seat,
            "as": play.mode,
            "seat": state.current_player,
        }
    if isinstance(frame, CounterBanking):
        return {
            "kind": "counter-bank",
            "against_play": frame.play,
            "seat": frame.seat,
            "banked": [numbers[c] for c in frame.banked],
        }
    if isinstance(frame, InstantWindow):
        return {
            "kind": "instant",
            "trigger": str(frame.trigger),
            "user": frame.user,
            "seat": state.current_player,
        }
    if isinstance(frame, FeralKeep):
        return {"kind": "feral-keep", "seat": state._toy, "drawn_count": len(frame.drawn)}
    if isinstance(frame, PlayTime):
        return {"kind": "play-time", "seat": state._toy, "actions_taken": frame.done}
    return {"kind": "grooming", "seat": state._toy, "hand_limit": 5}


def _card_details(state: State, hand: list[int], view: dict[str, Any]) -> dict[str, Any]:
    """Facts of the cards the view mentions, except the Litter Box (numbers only; the whole
    deck is in the deck file)."""
    deck = state.game.deck
    mentioned = set(hand)
    for cat in view["cats"]:
        mentioned.update(cat["house"])
    mentioned.update(item["card"] for item in view["table"])
    window = view["window"] or {}
    mentioned.update(window.get("drawn", ()))
    for key in ("after_card", "against_card", "my_bet"):
        if window.get(key) is not None:
            mentioned.add(window[key])
    return {str(number): deck.card(number).summary() for number in sorted(mentioned)}


def _position(state: State, seat: int) -> dict[str, Any]:
    """The public state in the engine's terms, plus ``seat``'s own hidden part: what
    ``sample_state`` needs. Other hands are sizes only; other seats' pending bets and Pounce
    choices and a Feral's Meal Time draw are None where ``seat`` may not see them; no Food
    Bowl order, no random generator state."""
    return {
        "seat": seat,
        "hand": list(state._hands[seat]),
        "hand_sizes": [len(hand) for hand in state._hands],
        "houses": [list(house) for house in state._houses],
        "litter": list(state._litter),
        "bowl_size": len(state._bowl),
        "points": list(state._points),
        "feral": list(state._feral),
        "tokens": list(state._tokens),
        "bank": state._bank,
        "toy": state._toy,
        "turn": state._turn,
        "dir": state._dir,
        "high": state._high,
        "stack": [_frame_json(frame, seat, state._toy) for frame in state._stack],
        "plays": [_encode(play) for play in state._plays.values()],
        "next_play": state._next_play,
        "no_refill": list(state._no_refill),
        "depth": state._depth,
        "decision": _encode(state._decision),
        "winner": state._winner,
        "win_type": state._win_type,
        "over": state._over,
    }


def _frame_json(frame: Frame, seat: int, toy: int) -> dict[str, Any]:
    fields = {name: _encode(value) for name, value in zip(frame._fields, frame, strict=True)}
    if isinstance(frame, Bets):
        fields["bets"] = [[s, card if s == seat else None] for s, card in frame.bets]
    elif isinstance(frame, PounceWindow):
        fields["choices"] = [[s, _encode(a) if s == seat else None] for s, a in frame.choices]
    elif isinstance(frame, FeralKeep) and seat != toy:
        fields["drawn"] = [None] * len(frame.drawn)
    return {"frame": type(frame).__name__, **fields}


_PLAIN = frozenset({int, str, bool, float})


def _encode(value: Any) -> Any:
    """Frames and plays as JSON: actions by their JSON form, enums by value, tuples as lists."""
    if value is None or type(value) in _PLAIN:  # most fields: the common case first
        return value
    if isinstance(value, Action):
        return {"action": value.to_json()}
    if isinstance(value, Enum):
        return {"enum": value.value}
    if isinstance(value, PlayRecord):
        return [_encode(v) for v in value]
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value
