"""Cantankerous Cats states not dealt from a seed: sampled from what one seat knows (for
searching bots), or set up by hand (for tests, puzzles and teaching).

>>> from engine import load_game
>>> game = load_game("cantankerous-cats", options={"players": 2})
>>> state = state_from_position(game, {"hands": [[43, 1], [2]], "houses": [[30], []],
...                                    "toy": 0, "bowl": [5, 6, 7]})
>>> state.phase, state.current_player, state.hand(0)
('action', 0, (1, 43))
>>> [str(a) for a in state.legal_actions()][:3]
['picky-eater', 'bank 1', 'score 43']
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cantankerous import rules
from engine.cantankerous.actions import Pass
from engine.cantankerous.cards import CardType
from engine.cantankerous.game import Game, State
from engine.cantankerous.rules import Bets, PlayRecord, PlayTime, TurnStart, start_from
from engine.errors import EngineError

__all__ = ["sample_state", "state_from_position"]

_FRAMES: dict[str, Any] = {
    frame.__name__: frame
    for frame in (
        rules.Bets,
        rules.TurnStart,
        rules.FeralKeep,
        rules.PlayTime,
        rules.Grooming,
        rules.Nap,
        rules.PounceWindow,
        rules.PounceStart,
        rules.WindowEnd,
        rules.CounterWindow,
        rules.CounterBanking,
        rules.Resolve,
        rules.InstantWindow,
    )
}


def sample_state(game: Game, observation: Mapping[str, Any], rng: random.Random) -> State:
    """A full state consistent with everything ``observation``'s seat knows, the rest drawn
    at random: the cards it has not seen are shuffled into the other hands (by their sizes)
    and the Food Bowl; another seat's pending First Bite bet is a random card of its sampled
    hand, its pending Pounce choice a random one of its legal choices there, a Feral's Meal
    Time draw random cards of its hand; the random generator gets a random state.

    >>> import random
    >>> from engine import load_game
    >>> game = load_game("cantankerous-cats", options={"players": 3})
    >>> state = game.new_initial_state(5)
    >>> guess = sample_state(game, state.observation(1), random.Random(2))
    >>> guess.observation(1) == state.observation(1)
    True

    Raises :class:`EngineError` for an observation of another game or one whose cards do
    not add up.
    """
    if observation.get("game") != game.name or "position" not in observation:
        raise EngineError("sample_state needs this game's observation, with its 'position'")
    pos = observation["position"]
    seat = int(pos["seat"])
    n = game.num_players
    s = State.__new__(State)
    s.game = game
    s.seed = -1  # never dealt from a seed
    s._rng = rng.getrandbits(64)
    s._houses = [list(house) for house in pos["houses"]]
    s._litter = list(pos["litter"])
    s._points = list(pos["points"])
    s._feral = list(pos["feral"])
    s._tokens = list(pos["tokens"])
    s._bank = pos["bank"]
    s._toy = pos["toy"]
    s._turn = pos["turn"]
    s._dir = pos["dir"]
    s._high = pos["high"]
    s._plays = {}
    for raw in pos["plays"]:
        play = PlayRecord(*(_decode(game, v) for v in raw))
        s._plays[play.id] = play
    s._next_play = pos["next_play"]
    s._no_refill = list(pos["no_refill"])
    s._depth = pos["depth"]
    s._decision = _decode(game, pos["decision"])
    s._winner = pos["winner"]
    s._win_type = pos["win_type"]
    s._over = pos["over"]
    s._history = None
    s._events = ()
    s._result = None
    s._legal = None

    # Every card in play is in exactly one place; the ones this seat has not seen are in the
    # other hands and the Food Bowl.
    seen = set(pos["hand"]) | set(s._litter) | {c for house in s._houses for c in house}
    seen |= {play.card for play in s._plays.values()}
    unseen = [card for card in game.in_play if card not in seen]
    sizes = pos["hand_sizes"]
    if len(unseen) != sum(sizes) - len(pos["hand"]) + pos["bowl_size"]:
        raise EngineError("the observation's unseen cards do not add up to the hands and bowl")
    rng.shuffle(unseen)
    s._hands = []
    for other in range(n):
        if other == seat:
            s._hands.append(list(pos["hand"]))
        else:
            s._hands.append([unseen.pop() for _ in range(sizes[other])])
    s._bowl = unseen
    s._stack = []
    for raw in pos["stack"]:
        s._stack.append(_sampled_frame(s, raw, rng))
    return s


def _sampled_frame(s: State, raw: Mapping[str, Any], rng: random.Random) -> Any:
    """A frame of the decision stack, with what the seat could not see drawn at random."""
    frame = _FRAMES[raw["frame"]]
    fields = {name: _decode(s.game, raw[name]) for name in frame._fields}
    if frame is rules.Bets:
        fields["bets"] = tuple(
            (bettor, card if card is not None else rng.choice(s._hands[bettor]))
            for bettor, card in fields["bets"]
        )
    elif frame is rules.FeralKeep and None in fields["drawn"]:
        fields["drawn"] = tuple(rng.sample(s._hands[s._toy], len(fields["drawn"])))
    elif frame is rules.PounceWindow:
        fields["choices"] = tuple(
            (chooser, action if action is not None else rng.choice(_pounce_choices(s, chooser)))
            for chooser, action in fields["choices"]
        )
    return frame(**fields)


def _pounce_choices(s: State, seat: int) -> list[Any]:
    """What ``seat`` could have chosen in the Pounce window (the rules' own list)."""
    return [Pass(), *rules._pounces(s, seat)]


def _decode(game: Game, value: Any) -> Any:
    """The inverse of the observation's encoding: lists back to tuples, actions, enums."""
    if isinstance(value, list):
        return tuple(_decode(game, v) for v in value)
    if isinstance(value, dict):
        if "action" in value:
            return game.action_from_json(value["action"])
        if "enum" in value:
            return CardType(value["enum"])
    return value


_KEYS = {
    "hands",
    "houses",
    "points",
    "feral",
    "tokens",
    "token_bank",
    "toy",
    "turn",
    "litter",
    "bowl",
    "phase",
    "actions_taken",
    "rng",
    "turn_indicator",
    "direction",
}


def state_from_position(game: Game, position: Mapping[str, Any]) -> State:
    """A state built from ``position`` (all keys optional):

    * ``hands``, ``houses``: per seat, card numbers (default: empty);
    * ``points``, ``feral``, ``tokens``: per seat (default 0 / False / 1 in the Standard
      game, 0 in the Basic game); ``token_bank`` (default: the game's);
    * ``toy`` (seat holding the Cat Toy, default 0), ``turn`` (default 1);
    * ``litter``: card numbers in the Litter Box; ``bowl``: card numbers drawn first, in
      order; every other card of the game goes below them in data order;
    * ``phase``: ``"action"`` (default: Play Time, with ``actions_taken`` 0 or 1),
      ``"turn-start"`` (Meal Time still to come) or ``"bets"`` (First Bite, every seat bets);
    * ``turn_indicator`` ``"high"``/``"low"`` (default high), ``direction`` ``1``/``-1``;
    * ``rng``: the random generator's state (default 0).

    Raises :class:`EngineError` for an unknown key, a card that does not exist or is not in
    this game, or a card placed twice.
    """
    unknown = sorted(set(position) - _KEYS)
    if unknown:
        raise EngineError(f"unknown position key(s): {', '.join(unknown)}")
    n = game.num_players
    in_play = set(game.in_play)
    used: set[int] = set()

    def cards(numbers: Sequence[int], where: str) -> list[int]:
        out = []
        for number in numbers:
            index = game.index_of.get(number)
            if index is None or index not in in_play:
                raise EngineError(f"{where}: card #{number} is not in this game")
            if index in used:
                raise EngineError(f"{where}: card #{number} is placed twice")
            used.add(index)
            out.append(index)
        return out

    def per_seat(key: str, default: Any) -> list[Any]:
        values = list(position.get(key, [default] * n))
        if len(values) != n:
            raise EngineError(f"'{key}' needs one entry per seat ({n})")
        return values

    s = State.__new__(State)
    s.game = game
    s.seed = -1  # never dealt from a seed
    s._rng = int(position.get("rng", 0))
    s._hands = [cards(hand, f"hand {seat}") for seat, hand in enumerate(per_seat("hands", []))]
    s._houses = [cards(h, f"house {seat}") for seat, h in enumerate(per_seat("houses", []))]
    s._litter = cards(position.get("litter", []), "litter")
    top = cards(position.get("bowl", []), "bowl")
    rest = [c for c in game.in_play if c not in used]
    s._bowl = rest[::-1] + top[::-1]  # the end of the list is the top of the Food Bowl
    s._points = [int(p) for p in per_seat("points", 0)]
    s._feral = [bool(f) for f in per_seat("feral", False)]
    s._tokens = [int(t) for t in per_seat("tokens", 1 if game.standard else 0)]
    s._bank = int(position.get("token_bank", game.token_bank if game.standard else 0))
    s._toy = int(position.get("toy", 0))
    s._turn = int(position.get("turn", 1))
    s._dir = int(position.get("direction", 1))
    s._high = position.get("turn_indicator", "high") == "high"
    phase = position.get("phase", "action")
    if phase == "action":
        s._stack = [PlayTime("play-time", int(position.get("actions_taken", 0)))]
    elif phase == "turn-start":
        s._stack = [TurnStart("turn-start")]
    elif phase == "bets":
        s._toy = -1
        s._turn = 0
        s._stack = [Bets("bets", tuple(range(n)), (), 1)]
    else:
        raise EngineError(f"phase must be action, turn-start or bets, not {phase!r}")
    return start_from(s)
