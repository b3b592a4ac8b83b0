"""The rules of Cantankerous Cats (rules version 1) as a machine over :class:`State`.

A state holds a stack of *frames*: the work still to do (a turn's phases, a card waiting to
resolve, a Pounce window collecting decisions...). :func:`apply` checks the action, lets the
top frame take it, then runs frames until one needs a decision (or the game ends). The
manual's rules map onto frames like this:

* **First Bite** (``Bets``): every Cat bets one card, face down; the Turn Indicator says
  whether the highest or lowest rank wins. Ties bet again (see docs/cantankerous.md).
* **A Domestic turn**: ``TurnStart`` (adoption check, Meal Time draw), ``FeralKeep`` (a
  Feral keeps one of the cards drawn), ``PlayTime`` (exactly two actions), ``Grooming``
  (discard down or draw up to five), ``Nap`` (pass the Cat Toy).
* **A card placed on the table** becomes a *play*: ``PounceWindow`` (Standard game, cards
  the Cat Toy holder places on their turn), ``CounterWindow`` (the target of an attack or
  Pounce), ``Resolve``, then ``InstantWindow`` (Instant Actions triggered by its type).

Simultaneous decisions (First Bite bets, Pounce windows) are asked one seat at a time, but
nothing changes and nothing is shown until every seat has decided: the bet card and the
Pounce stay in hand, and observations do not show other seats' choices.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from itertools import combinations
from typing import TYPE_CHECKING, Any, NamedTuple

from engine import splitmix
from engine.actions import Action
from engine.cantankerous import actions
from engine.cantankerous.cards import CardType
from engine.cantankerous.effects import FERAL_OR_TOKEN_PRIMITIVES, PRIMITIVES, Step
from engine.errors import IllegalActionError

if TYPE_CHECKING:
    from engine.cantankerous.game import State

__all__ = ["HAND_LIMIT", "Frame", "PlayRecord", "apply", "legal_actions", "setup"]

HAND_LIMIT = 5
WINNING_POINTS = 9
FERAL_VICTORY_HEARTS = 9
ADOPTION_HEARTS = 4

WIN_MISCHIEF = "nine_mischief"
WIN_FERAL = "feral_victory"

# -- frames -------------------------------------------------------------------------------


class PlayRecord(NamedTuple):
    """A card on the table, from being placed until it resolves."""

    id: int
    seat: int
    card: int
    mode: str  # bank | score | incident | attack
    target: int | None
    origin: str  # action | instant | pounce | counter
    answers: int | None  # the play a Pounce or Counter answers (what "cancel" cancels)
    cancelled: bool = False


class Bets(NamedTuple):
    tag: str
    bettors: tuple[int, ...]
    bets: tuple[tuple[int, int], ...]  # (seat, card), hidden until every bettor has bet
    round: int


class TurnStart(NamedTuple):
    tag: str


class FeralKeep(NamedTuple):
    tag: str
    drawn: tuple[int, ...]


class PlayTime(NamedTuple):
    tag: str
    done: int


class Grooming(NamedTuple):
    tag: str


class Nap(NamedTuple):
    tag: str


class PounceWindow(NamedTuple):
    tag: str
    play: int
    seats: tuple[int, ...] | None  # who may Pounce (None: not yet worked out)
    choices: tuple[tuple[int, Action], ...]  # hidden until everyone has decided
    last_chance: bool


class PounceStart(NamedTuple):
    tag: str
    seat: int
    action: Action
    answers: int


class WindowEnd(NamedTuple):
    tag: str


class CounterWindow(NamedTuple):
    tag: str
    play: int


class CounterBanking(NamedTuple):
    tag: str
    play: int
    seat: int
    banked: tuple[int, ...]


class Resolve(NamedTuple):
    tag: str
    play: int


class InstantWindow(NamedTuple):
    tag: str
    trigger: CardType
    user: int
    order: tuple[int, ...] | None
    asked: int  # how many seats of ``order`` were asked (not ``index``: tuple.index exists)


Frame = (
    Bets
    | TurnStart
    | FeralKeep
    | PlayTime
    | Grooming
    | Nap
    | PounceWindow
    | PounceStart
    | WindowEnd
    | CounterWindow
    | CounterBanking
    | Resolve
    | InstantWindow
)

# -- randomness: engine.splitmix, its state kept in the (immutable) state -----------------


def _below(s: State, n: int) -> int:
    s._rng, value = splitmix.below(s._rng, n)
    return value


def _shuffle(s: State, items: list[int]) -> None:
    rng = splitmix.SplitMix64(s._rng)
    rng.shuffle(items)
    s._rng = rng.state


# -- setup ----------------------------------------------------------------------------------


def setup(s: State) -> State:
    """Deal a blank state (``game`` and ``seed`` set, nothing else): shuffle the Food Bowl,
    set the Turn Indicator and direction, deal the hands and the Pounce Tokens, and open the
    First Bite. The order of random draws (shuffle, indicator coin, direction coin) is part
    of the rules version."""
    game = s.game
    s._rng = s.seed & splitmix.MASK64
    bowl = list(game.in_play)
    _shuffle(s, bowl)
    indicator = game.options["turn_indicator"]
    s._high = _below(s, 2) == 0 if indicator == "flip" else indicator == "high"
    direction = game.options["direction"]
    if direction == "flip":
        s._dir = 1 if _below(s, 2) == 0 else -1
    else:
        s._dir = 1 if direction == "clockwise" else -1
    n = game.num_players
    s._hands = [[bowl.pop() for _ in range(game.start_hand)] for _ in range(n)]
    s._bowl = bowl
    s._litter = []
    s._houses = [[] for _ in range(n)]
    s._points = [0] * n
    s._feral = [False] * n
    s._tokens = [1 if game.standard else 0] * n
    s._bank = game.token_bank if game.standard else 0
    s._toy = -1
    s._turn = 0
    s._stack = [Bets("bets", tuple(range(n)), (), 1)]
    return start_from(s)


def start_from(s: State) -> State:
    """Clear the bookkeeping of a state whose table is set (by :func:`setup` or a hand-set
    position), then run the game up to its first decision."""
    s._plays = {}
    s._next_play = 0
    s._no_refill = [False] * s.game.num_players
    s._depth = 0
    s._decision = None
    s._winner = -1
    s._win_type = None
    s._over = False
    s._history = None
    s._result = None
    s._legal = None
    events: list[dict[str, Any]] = []
    s._events = events  # type: ignore[assignment]
    _run(s)
    s._events = tuple(events)
    return s


# -- the public functions -------------------------------------------------------------------


def legal_actions(s: State) -> list[Action]:
    """What the seat to decide may do; the first action is a safe default."""
    if s._decision is None:
        return []
    frame = s._stack[-1]
    seat = s._decision[1]
    g = s.game
    if isinstance(frame, Bets):
        return [g.bet_actions[c] for c in _sorted(s, s._hands[seat])]
    if isinstance(frame, FeralKeep):
        return [g.keep_actions[c] for c in _sorted(s, frame.drawn)]
    if isinstance(frame, PlayTime):
        return _actions(s, seat)
    if isinstance(frame, Grooming):
        return [g.discard_actions[c] for c in _sorted(s, s._hands[seat])]
    if isinstance(frame, PounceWindow):
        return [actions.Pass(), *_pounces(s, seat)]
    if isinstance(frame, CounterWindow):
        return [actions.Pass(), *_counters(s, seat, s._plays[frame.play])]
    if isinstance(frame, CounterBanking):
        return [
            actions.Done(),
            *(
                g.counter_bank_actions[c]
                for c in _sorted(s, s._hands[seat])
                if g.types[c] is CardType.AFFECTION
            ),
        ]
    if isinstance(frame, InstantWindow):
        return [actions.Pass(), *_instants(s, seat, frame.trigger)]
    raise AssertionError(f"no decision in frame {frame!r}")


def apply(s: State, action: Action) -> State:
    """The state after ``action``; raises :class:`IllegalActionError` saying why not."""
    legal = s.legal_actions()
    if action not in legal:
        raise IllegalActionError(_why_illegal(s, action, legal))
    new = _clone(s, action)
    events: list[dict[str, Any]] = []
    new._events = events  # type: ignore[assignment]
    _decide(new, action)
    _run(new)
    new._events = tuple(events)
    return new


# -- running frames -------------------------------------------------------------------------


def _run(s: State) -> None:
    while not s._over:
        frame = s._stack[-1]
        if _HANDLERS[frame.tag](s, frame):
            return
    s._decision = None


def _wait(s: State, kind: str, seat: int) -> bool:
    s._decision = (kind, seat)
    return True


def _replace_top(s: State, frame: Frame) -> None:
    s._stack[-1] = frame


def _on_bets(s: State, f: Bets) -> bool:
    decided = {seat for seat, _ in f.bets}
    for seat in f.bettors:
        if seat not in decided:
            return _wait(s, "bet", seat)
    s._stack.pop()
    g = s.game
    ranks = {}
    for seat, card in f.bets:
        s._hands[seat].remove(card)
        s._litter.append(card)
        ranks[seat] = g.cards[card].rank or 0
    best = max(ranks.values()) if s._high else min(ranks.values())
    tied = [seat for seat in f.bettors if ranks[seat] == best]
    shown = ", ".join(
        f"seat {seat} {g.cards[card].label} (rank {ranks[seat]})" for seat, card in f.bets
    )
    _event(
        s,
        "bets-revealed",
        text=f"First Bite bets ({'high' if s._high else 'low'} rank wins): {shown}",
        bets={str(seat): g.numbers[card] for seat, card in f.bets},
    )
    if len(tied) > 1:
        again = tuple(seat for seat in tied if s._hands[seat])
        if len(again) > 1:
            _event(
                s,
                "bets-tied",
                text=f"tie between seats {_seats(tied)}: they bet again",
                seats=list(again),
            )
            s._stack.append(Bets("bets", again, (), f.round + 1))
            return False
        # Nobody (or one Cat) can bet again: the only one left, else a coin among the tied.
        winner = again[0] if again else tied[_below(s, len(tied))]
    else:
        winner = tied[0]
    s._toy = winner
    s._turn = 1
    _event(s, "first-bite", seat=winner, text=f"seat {winner} takes the First Bite and the Cat Toy")
    s._stack.append(TurnStart("turn-start"))
    return False


def _on_turn_start(s: State, f: TurnStart) -> bool:
    s._stack.pop()
    g = s.game
    if s._turn > g.turn_limit:
        _end(s, -1, None, f"the turn limit ({g.turn_limit}) is reached: the game stops unfinished")
        return False
    seat = s._toy
    if g.standard and s._feral[seat] and _hearts(s, seat) >= ADOPTION_HEARTS:
        s._feral[seat] = False
        _event(
            s,
            "adopted",
            seat=seat,
            text=f"seat {seat} has {_hearts(s, seat)} Affection at "
            "the start of its turn: adopted, Domestic again",
        )
    drawn = _draw(s, seat, g.meal_draw)
    _event(
        s,
        "meal-time",
        seat=seat,
        count=len(drawn),
        text=f"turn {s._turn}: seat {seat} takes the Cat Toy and draws {len(drawn)}",
    )
    s._stack.append(PlayTime("play-time", 0))
    if s._feral[seat] and len(drawn) > 1:
        s._stack.append(FeralKeep("feral-keep", tuple(drawn)))
    return False


def _on_feral_keep(s: State, f: FeralKeep) -> bool:
    return _wait(s, "keep", s._toy)


def _on_play_time(s: State, f: PlayTime) -> bool:
    if f.done >= 2:
        s._stack.pop()
        s._stack.append(Nap("nap"))
        s._stack.append(Grooming("grooming"))
        return False
    return _wait(s, "action", s._toy)


def _on_grooming(s: State, f: Grooming) -> bool:
    seat = s._toy
    hand = s._hands[seat]
    if len(hand) > HAND_LIMIT:
        return _wait(s, "discard", seat)
    s._stack.pop()
    if len(hand) < HAND_LIMIT:
        if s._no_refill[seat]:
            _event(
                s,
                "no-refill",
                seat=seat,
                text=f"seat {seat} Pounced or Countered this turn: no draw up at Grooming Time",
            )
        else:
            drawn = _draw(s, seat, HAND_LIMIT - len(hand))
            _event(
                s,
                "grooming",
                seat=seat,
                count=len(drawn),
                text=f"seat {seat} draws {len(drawn)} up to {len(s._hands[seat])}",
            )
    return False


def _on_nap(s: State, f: Nap) -> bool:
    s._stack.pop()
    old = s._toy
    s._toy = (old + s._dir) % s.game.num_players
    s._turn += 1
    s._no_refill = [False] * s.game.num_players
    _event(s, "nap", seat=old, text=f"seat {old} naps and passes the Cat Toy to seat {s._toy}")
    s._stack.append(TurnStart("turn-start"))
    return False


def _on_pounce_window(s: State, f: PounceWindow) -> bool:
    seats = f.seats
    if seats is None:
        seats = tuple(seat for seat in _order(s, s._toy)[1:] if _pounces(s, seat))
        if not seats:
            s._stack.pop()
            return False
        f = f._replace(seats=seats)
        _replace_top(s, f)
        play = s._plays[f.play]
        _event(
            s,
            "pounce-window",
            seats=list(seats),
            last_chance=f.last_chance,
            card=s.game.numbers[play.card],
            text=("LAST CHANCE: " if f.last_chance else "")
            + f"Pounce window after seat {play.seat}'s {s.game.cards[play.card].label}: "
            f"seats {_seats(seats)} decide",
        )
    decided = {seat for seat, _ in f.choices}
    for seat in seats:
        if seat not in decided:
            return _wait(s, "pounce", seat)
    s._stack.pop()
    pounces = [(seat, action) for seat, action in f.choices if not isinstance(action, actions.Pass)]
    _event(
        s,
        "pounces-revealed",
        choices={str(seat): str(action) for seat, action in f.choices},
        text="Pounces revealed: "
        + ", ".join(f"seat {seat} {action}" for seat, action in f.choices),
    )
    if pounces:
        s._depth += 1
        s._stack.append(WindowEnd("window-end"))
        for seat, action in reversed(pounces):
            s._stack.append(PounceStart("pounce-start", seat, action, f.play))
    return False


def _on_pounce_start(s: State, f: PounceStart) -> bool:
    s._stack.pop()
    g = s.game
    action = f.action
    assert isinstance(action, actions.PounceAttack | actions.PouncePlay)
    # The Pounce was decided before earlier Pounces resolved: it may no longer be possible.
    if s._tokens[f.seat] < 1 or action not in _pounces(s, f.seat):
        _event(
            s,
            "pounce-withdrawn",
            seat=f.seat,
            action=str(action),  # for the people's words (engine.cantankerous.words)
            text=f"seat {f.seat}'s Pounce ({action}) is no longer possible: withdrawn, "
            "card and token kept",
        )
        return False
    s._tokens[f.seat] -= 1
    s._bank += 1
    s._no_refill[f.seat] = True
    mode = "attack" if isinstance(action, actions.PounceAttack) else "incident"
    _start_play(s, f.seat, g.index_of[action.card], mode, action.target, "pounce", f.answers)
    return False


def _on_window_end(s: State, f: WindowEnd) -> bool:
    s._stack.pop()
    s._depth -= 1
    return False


def _on_counter_window(s: State, f: CounterWindow) -> bool:
    play = s._plays[f.play]
    target = _counter_target(s, play)
    if target is None or not _counters(s, target, play):
        s._stack.pop()
        return False
    return _wait(s, "counter", target)


def _on_counter_banking(s: State, f: CounterBanking) -> bool:
    return _wait(s, "counter-bank", f.seat)


def _on_resolve(s: State, f: Resolve) -> bool:
    s._stack.pop()
    g = s.game
    play = s._plays.pop(f.play)
    seat, card = play.seat, play.card
    label = g.cards[card].label
    if play.cancelled:
        s._litter.append(card)
        _card_event(
            s, "cancelled", seat, card, text=f"seat {seat}'s {label} is cancelled: no effect"
        )
        return False
    if play.mode == "bank":
        s._houses[seat].append(card)
        _card_event(
            s, "banked", seat, card, text=f"seat {seat} banks {label}: {_hearts(s, seat)} Affection"
        )
        if (
            g.standard
            and s._feral[seat]
            and seat == s._toy
            and play.origin in ("action", "instant")
            and _hearts(s, seat) >= FERAL_VICTORY_HEARTS
        ):
            _end(
                s,
                seat,
                WIN_FERAL,
                f"seat {seat}, a Feral Cat holding the Cat Toy, has banked "
                f"{_hearts(s, seat)} Affection: Feral victory",
            )
    elif play.mode == "score":
        s._litter.append(card)
        if s._feral[seat]:
            _card_event(
                s, "no-score", seat, card, text=f"seat {seat} is Feral and cannot score {label}"
            )
        elif play.origin != "instant" and not _pay(s, seat, g.costs[card]):
            _fail_to_pay(s, seat, label)
        else:
            paws = g.paws[card]
            if seat == s._toy and play.origin in ("action", "instant"):
                s._points[seat] += paws
                _card_event(
                    s,
                    "scored",
                    seat,
                    card,
                    points=paws,
                    text=f"seat {seat} scores {label}: +{paws}, {s._points[seat]} Mischief",
                )
                if s._points[seat] >= WINNING_POINTS:
                    _end(
                        s,
                        seat,
                        WIN_MISCHIEF,
                        f"seat {seat} scores its ninth Mischief point "
                        "in its House holding the Cat Toy: victory",
                    )
            else:
                _gain_points(s, seat, paws, f"{label} (Instant Action)")
    elif play.mode == "attack":
        target = play.target
        assert target is not None
        s._litter.append(card)
        if s._feral[target]:
            _event(
                s,
                "attack-fizzles",
                seat=seat,
                target=target,
                text=f"seat {target} is Feral now: seat {seat}'s attack has no effect",
            )
        elif not _pay(s, target, g.costs[card]):
            _fail_to_pay(s, target, f"seat {seat}'s attack with {label}")
        else:
            _gain_points(
                s,
                target,
                g.paws[card] // 2,
                f"half of {label} after paying for seat {seat}'s attack",
            )
    else:
        _run_effect(s, play)
        s._litter.append(card)
    return False


def _on_instant_window(s: State, f: InstantWindow) -> bool:
    if f.order is None:
        f = f._replace(order=tuple(_order(s, f.user)))
        _replace_top(s, f)
    assert f.order is not None
    # Count the seats asked locally: the frame is rewritten only when it waits (it is
    # popped otherwise), as rebuilding it for every seat passed over cost more than asking.
    asked = f.asked
    while asked < len(f.order):
        seat = f.order[asked]
        if _instants(s, seat, f.trigger):
            if asked != f.asked:
                _replace_top(s, f._replace(asked=asked))
            return _wait(s, "instant", seat)
        asked += 1
    s._stack.pop()
    return False


_HANDLERS: dict[str, Any] = {
    "bets": _on_bets,
    "turn-start": _on_turn_start,
    "feral-keep": _on_feral_keep,
    "play-time": _on_play_time,
    "grooming": _on_grooming,
    "nap": _on_nap,
    "pounce-window": _on_pounce_window,
    "pounce-start": _on_pounce_start,
    "window-end": _on_window_end,
    "counter-window": _on_counter_window,
    "counter-banking": _on_counter_banking,
    "resolve": _on_resolve,
    "instant-window": _on_instant_window,
}


# -- taking decisions -----------------------------------------------------------------------


def _decide(s: State, action: Action) -> None:
    """Record the decision of the seat the top frame waits for, by the frame's handler
    (:data:`_DECISION_HANDLERS`, as :data:`_HANDLERS` runs frames)."""
    frame = s._stack[-1]
    card = s.game.index_of.get(getattr(action, "card", -1), -1)
    _DECISION_HANDLERS[frame.tag](s, frame, s.current_player, action, card)


# One handler per frame that waits for a decision: (state, the frame, the deciding seat,
# the action, the index of the card it names or -1).


def _decide_bet(s: State, frame: Bets, seat: int, action: Action, card: int) -> None:
    _replace_top(s, frame._replace(bets=(*frame.bets, (seat, card))))
    _event(s, "bet-placed", seat=seat, text=f"seat {seat} bets a card face down")


def _decide_feral_keep(s: State, frame: FeralKeep, seat: int, action: Action, card: int) -> None:
    g = s.game
    s._stack.pop()
    thrown = [c for c in frame.drawn if c != card]
    for c in thrown:
        s._hands[seat].remove(c)
        s._litter.append(c)
    _event(
        s,
        "feral-keep",
        seat=seat,
        cards=[g.numbers[c] for c in thrown],
        text=f"seat {seat} (Feral) keeps one card and puts "
        f"{', '.join(g.cards[c].label for c in thrown)} in the Litter Box",
    )


def _decide_play_time(s: State, frame: PlayTime, seat: int, action: Action, card: int) -> None:
    _replace_top(s, frame._replace(done=frame.done + 1))
    _take_action(s, seat, action, card)


def _decide_grooming(s: State, frame: Grooming, seat: int, action: Action, card: int) -> None:
    g = s.game
    s._hands[seat].remove(card)
    s._litter.append(card)
    _card_event(
        s,
        "discard",
        seat,
        card,
        text=f"seat {seat} discards {g.cards[card].label} at Grooming Time",
    )


def _decide_pounce(s: State, frame: PounceWindow, seat: int, action: Action, card: int) -> None:
    _replace_top(s, frame._replace(choices=(*frame.choices, (seat, action))))
    _event(s, "pounce-decided", seat=seat, text=f"seat {seat} has decided")


def _decide_counter(s: State, frame: CounterWindow, seat: int, action: Action, card: int) -> None:
    g = s.game
    s._stack.pop()
    if isinstance(action, actions.Pass):
        _event(s, "no-counter", seat=seat, text=f"seat {seat} does not Counter")
        return
    s._tokens[seat] -= 1
    s._bank += 1
    s._no_refill[seat] = True
    if isinstance(action, actions.CounterBank):
        s._hands[seat].remove(card)
        s._houses[seat].append(card)
        _card_event(
            s, "counter-bank", seat, card, text=f"seat {seat} Counters: banks {g.cards[card].label}"
        )
        s._stack.append(CounterBanking("counter-banking", frame.play, seat, (card,)))
    else:
        assert isinstance(action, actions.CounterPlay)
        _card_event(
            s, "counter-play", seat, card, text=f"seat {seat} Counters with {g.cards[card].label}"
        )
        _start_play(s, seat, card, "incident", action.target, "counter", frame.play)


def _decide_counter_banking(
    s: State, frame: CounterBanking, seat: int, action: Action, card: int
) -> None:
    g = s.game
    if isinstance(action, actions.Done):
        s._stack.pop()
        s._stack.append(InstantWindow("instant-window", CardType.AFFECTION, seat, None, 0))
        return
    s._hands[seat].remove(card)
    s._houses[seat].append(card)
    _replace_top(s, frame._replace(banked=(*frame.banked, card)))
    _card_event(s, "counter-bank", seat, card, text=f"seat {seat} also banks {g.cards[card].label}")


def _decide_instant(s: State, frame: InstantWindow, seat: int, action: Action, card: int) -> None:
    g = s.game
    _replace_top(s, frame._replace(asked=frame.asked + 1))
    if not isinstance(action, actions.Instant):
        return
    kind = g.types[card]
    mode = (
        "bank"
        if kind is CardType.AFFECTION
        else "score"
        if kind is CardType.MISCHIEF
        else "incident"
    )
    _card_event(
        s, "instant", seat, card, text=f"Instant Action: seat {seat} uses {g.cards[card].label}"
    )
    _start_play(s, seat, card, mode, action.target, "instant", None)


# Only frames that wait for a seat are here: legal_actions() offers no decision elsewhere.
_DECISION_HANDLERS: dict[str, Callable[..., None]] = {
    "bets": _decide_bet,
    "feral-keep": _decide_feral_keep,
    "play-time": _decide_play_time,
    "grooming": _decide_grooming,
    "pounce-window": _decide_pounce,
    "counter-window": _decide_counter,
    "counter-banking": _decide_counter_banking,
    "instant-window": _decide_instant,
}


def _take_action(s: State, seat: int, action: Action, card: int) -> None:
    g = s.game
    if isinstance(action, actions.PickyEater):
        hand = s._hands[seat]
        count = len(hand)
        shown = ", ".join(g.cards[c].label for c in hand) or "no cards"
        s._litter.extend(hand)
        hand.clear()
        _draw(s, seat, count)
        _event(
            s,
            "picky-eater",
            seat=seat,
            count=count,
            text=f"seat {seat} is a Picky Eater: discards {shown} and draws {count}",
        )
    elif isinstance(action, actions.BuyToken):
        for number in action.cards:
            c = g.index_of[number]
            s._hands[seat].remove(c)
            s._litter.append(c)
        s._bank -= 1
        s._tokens[seat] += 1
        _event(
            s,
            "buy-token",
            seat=seat,
            cards=list(action.cards),
            text=f"seat {seat} buys a Pounce Token with "
            f"{', '.join(g.cards[g.index_of[n]].label for n in action.cards)}",
        )
    elif isinstance(action, actions.Bank):
        _start_play(s, seat, card, "bank", None, "action", None)
    elif isinstance(action, actions.Score):
        _start_play(s, seat, card, "score", None, "action", None)
    elif isinstance(action, actions.Play):
        _start_play(s, seat, card, "incident", action.target, "action", None)
    else:
        assert isinstance(action, actions.Attack)
        _start_play(s, seat, card, "attack", action.target, "action", None)


def _start_play(
    s: State, seat: int, card: int, mode: str, target: int | None, origin: str, answers: int | None
) -> None:
    """Put ``card`` on the table and queue what follows: a Pounce window (the Cat Toy
    holder's own cards), a Counter window (attacks and Pounces), its resolution, and the
    Instant Actions its type triggers."""
    g = s.game
    pid = s._next_play
    s._next_play += 1
    s._hands[seat].remove(card)
    play = PlayRecord(pid, seat, card, mode, target, origin, answers)
    s._plays[pid] = play
    verb = {
        "bank": "banks",
        "score": "plays to score",
        "incident": "plays",
        "attack": "attacks with",
    }[mode]
    on = "" if target is None else f" (target: seat {target})"
    _card_event(
        s,
        "play",
        seat,
        card,
        mode=mode,
        origin=origin,
        target=target,
        text=f"seat {seat} {verb} {g.cards[card].label}{on}"
        + ("" if origin == "action" else f" [{origin}]"),
    )
    kind = g.types[card]
    assert kind is not None
    s._stack.append(InstantWindow("instant-window", kind, seat, None, 0))
    s._stack.append(Resolve("resolve", pid))
    if mode == "attack" or origin == "pounce":
        s._stack.append(CounterWindow("counter-window", pid))
    if origin in ("action", "instant") and seat == s._toy and g.standard:
        winning = _would_win(s, play)
        # Cards placed while a Pounce window resolves open no window of their own, except
        # a winning card: every Cat gets its last chance.
        if s._depth == 0 or winning:
            s._stack.append(PounceWindow("pounce-window", pid, None, (), winning))


def _would_win(s: State, play: PlayRecord) -> bool:
    g = s.game
    if play.seat != s._toy or play.origin not in ("action", "instant"):
        return False
    if play.mode == "score":
        return (
            not s._feral[play.seat] and s._points[play.seat] + g.paws[play.card] >= WINNING_POINTS
        )
    if play.mode == "bank":
        return (
            g.standard
            and s._feral[play.seat]
            and _hearts(s, play.seat) + g.hearts[play.card] >= FERAL_VICTORY_HEARTS
        )
    return False


# -- what a seat may do ---------------------------------------------------------------------


def _sorted(s: State, cards: Any) -> list[int]:
    numbers = s.game.numbers
    return sorted(cards, key=lambda c: numbers[c])


def _order(s: State, first: int) -> list[int]:
    """Every seat in the direction of play, starting with ``first``."""
    n = s.game.num_players
    return [(first + s._dir * i) % n for i in range(n)]


def _targets(s: State, seat: int, spec: str | None) -> list[int | None]:
    if spec is None:
        return [None]
    out: list[int | None] = []
    for t in _order(s, seat):
        if spec.endswith("opponent") and t == seat:
            continue
        if spec.startswith("domestic") and s._feral[t]:
            continue
        if spec.startswith("feral") and not s._feral[t]:
            continue
        out.append(t)
    return out


def _played_for_effect(s: State, card: int, *, pounce_or_counter: bool) -> bool:
    kind = s.game.types[card]
    if kind is not None and kind.is_incident:
        return True
    return kind is CardType.DOG and (pounce_or_counter or s.game.dog_as_incident)


def _actions(s: State, seat: int) -> list[Action]:
    g = s.game
    hand = _sorted(s, s._hands[seat])
    feral = s._feral[seat]
    out: list[Action] = [actions.PickyEater()]
    for c in hand:
        kind = g.types[c]
        number = g.numbers[c]
        if kind is CardType.AFFECTION:
            out.append(g.bank_actions[c])
        elif kind is CardType.MISCHIEF:
            if not feral:
                out.append(g.score_actions[c])
            elif g.standard:
                out.extend(
                    actions.Attack(number, t)
                    for t in _order(s, seat)
                    if t != seat and not s._feral[t]
                )
        elif _played_for_effect(s, c, pounce_or_counter=False):
            effect = g.cards[c].effect
            assert effect is not None
            out.extend(actions.Play(number, t) for t in _targets(s, seat, effect.target))
    if g.standard and s._bank > 0:
        price = 3 if feral else 2
        if len(hand) >= price:
            numbers = [g.numbers[c] for c in hand]
            out.extend(_buy_token(combo) for combo in combinations(numbers, price))
    return out


@functools.lru_cache(maxsize=65536)
def _buy_token(cards: tuple[int, ...]) -> actions.BuyToken:
    return actions.BuyToken(cards)


def _pounces(s: State, seat: int) -> list[Action]:
    """The Pounces ``seat`` could make now (not counting ``pass``)."""
    g = s.game
    toy = s._toy
    if not g.standard or seat == toy or s._tokens[seat] < 1:
        return []
    types = g.types
    # Only Mischief and effect cards pounce; a window asks every seat, so settle the usual
    # "nothing to pounce with" before working out victims and sorting the hand.
    cards = [
        c
        for c in s._hands[seat]
        if types[c] is CardType.MISCHIEF or _played_for_effect(s, c, pounce_or_counter=True)
    ]
    if not cards:
        return []
    feral = s._feral[seat]
    # "You may only Pounce on the Cat who is holding the Cat Toy unless you are FERAL."
    victims = (
        [t for t in _order(s, seat) if t != seat and not s._feral[t]]
        if feral
        else [toy]
        if not s._feral[toy]
        else []
    )
    out: list[Action] = []
    for c in _sorted(s, cards):
        kind = types[c]
        number = g.numbers[c]
        if kind is CardType.MISCHIEF:
            out.extend(actions.PounceAttack(number, t) for t in victims)
        elif _played_for_effect(s, c, pounce_or_counter=True):
            effect = g.cards[c].effect
            assert effect is not None
            targets = _targets(s, seat, effect.target)
            if effect.target is not None and not feral:
                targets = [t for t in targets if t == toy]
            out.extend(actions.PouncePlay(number, t) for t in targets)
    return out


def _counter_target(s: State, play: PlayRecord) -> int | None:
    """Who may Counter ``play``: the Cat attacked, or the Cat a Pounce falls on."""
    if not s.game.standard:
        return None
    if play.mode == "attack":
        target = play.target
    elif play.origin == "pounce":
        target = play.target if play.target is not None else s._toy
    else:
        return None
    if target is None or target == play.seat or s._tokens[target] < 1:
        return None
    return target


def _counters(s: State, seat: int, play: PlayRecord) -> list[Action]:
    if _counter_target(s, play) != seat:
        return []
    g = s.game
    out: list[Action] = []
    hand = _sorted(s, s._hands[seat])
    if play.mode == "attack":
        out.extend(g.counter_bank_actions[c] for c in hand if g.types[c] is CardType.AFFECTION)
    for c in hand:
        if _played_for_effect(s, c, pounce_or_counter=True):
            effect = g.cards[c].effect
            assert effect is not None
            out.extend(
                actions.CounterPlay(g.numbers[c], t) for t in _targets(s, seat, effect.target)
            )
    return out


def _instants(s: State, seat: int, trigger: CardType) -> list[Action]:
    g = s.game
    icons = g.icons
    out: list[Action] = []
    # Most hands hold no card with this icon: filter before sorting (windows open often).
    for c in _sorted(s, [c for c in s._hands[seat] if icons[c] is trigger]):
        kind = g.types[c]
        number = g.numbers[c]
        if kind is CardType.AFFECTION:
            out.append(actions.Instant(number, None))
        elif kind is CardType.MISCHIEF:
            if not s._feral[seat]:
                out.append(actions.Instant(number, None))
        elif _played_for_effect(s, c, pounce_or_counter=False):
            effect = g.cards[c].effect
            assert effect is not None
            out.extend(actions.Instant(number, t) for t in _targets(s, seat, effect.target))
    return out


_DECISION_TEXT = {
    "bet": "bet a card for the First Bite",
    "keep": "keep one of the cards drawn at Meal Time (Feral)",
    "action": "take an action",
    "discard": "discard down to five cards at Grooming Time",
    "pounce": "decide whether to Pounce",
    "counter": "decide whether to Counter",
    "counter-bank": "bank more Affection for the Counter, or say done",
    "instant": "decide whether to use an Instant Action",
}


def _why_illegal(s: State, action: Action, legal: list[Action]) -> str:
    if s._decision is None:
        return f"{action}: the game is over"
    kind, seat = s._decision
    card = getattr(action, "card", None)
    g = s.game
    head = f"{action} is not legal now: seat {seat} must {_DECISION_TEXT[kind]}"
    if card is not None and card not in g.index_of:
        return f"{head}; there is no card #{card} in this deck"
    if card is not None and g.index_of[card] not in s._hands[seat]:
        return f"{head}; card #{card} is not in seat {seat}'s hand"
    allowed = sorted({type(a).type for a in legal})
    return f"{head} (allowed kinds of action: {', '.join(allowed)})"


# -- helpers that change the state ----------------------------------------------------------


def _event(s: State, kind: str, *, text: str, **fields: Any) -> None:
    event = {"type": kind, **fields, "text": text}
    s._events.append(event)  # type: ignore[attr-defined]


def _card_event(s: State, kind: str, seat: int, card: int, *, text: str, **fields: Any) -> None:
    """An event about one face-up card (an id), which the log names by its printed number."""
    _event(s, kind, seat=seat, card=s.game.numbers[card], text=text, **fields)


def _to_litter(s: State, kind: str, seat: int, cards: list[int], text: str) -> None:
    """Put ``cards`` (already out of ``seat``'s hand or house) in the Litter Box, face up: the
    event names them after ``text``."""
    s._litter.extend(cards)
    _event(s, kind, seat=seat, cards=_numbers(s, cards), text=f"{text} {_labels(s, cards)}")


def _numbers(s: State, cards: list[int]) -> list[int]:
    """The printed numbers of ``cards`` (card ids), as events name them."""
    numbers = s.game.numbers
    return [numbers[c] for c in cards]


def _labels(s: State, cards: list[int]) -> str:
    """``cards`` (card ids) by their labels, or "nothing"."""
    return ", ".join(s.game.cards[c].label for c in cards) or "nothing"


def _seats(seats: Any) -> str:
    return ", ".join(str(seat) for seat in seats)


def _hearts(s: State, seat: int) -> int:
    hearts = s.game.hearts
    return sum(hearts[c] for c in s._houses[seat])


def _draw(s: State, seat: int, n: int) -> list[int]:
    """Draw ``n`` cards (fewer if the Food Bowl and Litter Box both run out). The Litter
    Box is reshuffled into the Food Bowl only when a card must be drawn from an empty bowl."""
    drawn: list[int] = []
    for _ in range(n):
        if not s._bowl:
            if not s._litter:
                break
            s._bowl = s._litter
            s._litter = []
            _shuffle(s, s._bowl)
            _event(
                s,
                "reshuffle",
                count=len(s._bowl),
                text=f"the Food Bowl is empty: the Litter Box ({len(s._bowl)} cards) is "
                "shuffled into a new Food Bowl",
            )
        drawn.append(s._bowl.pop())
    s._hands[seat].extend(drawn)
    return drawn


def _pay(s: State, seat: int, cost: int) -> bool:
    """Pay ``cost`` from banked Affection. Cards do not make change, so the engine pays with
    the set of cards that wastes least (then the fewest cards). False if it cannot pay."""
    if cost <= 0:
        return True
    hearts = s.game.hearts
    house = s._houses[seat]
    if sum(hearts[c] for c in house) < cost:
        return False
    # sum -> (cards used, positions) for the best way to reach that sum
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for pos, c in enumerate(house):
        for total, (count, used) in list(best.items()):
            new_total = min(total + hearts[c], cost + 10_000)
            candidate = (count + 1, (*used, pos))
            if new_total not in best or candidate[0] < best[new_total][0]:
                best[new_total] = candidate
    total = min(t for t in best if t >= cost)
    paying = set(best[total][1])
    paid = [c for pos, c in enumerate(house) if pos in paying]
    s._houses[seat] = [c for pos, c in enumerate(house) if pos not in paying]
    s._litter.extend(paid)
    _event(
        s,
        "paid",
        seat=seat,
        cards=[s.game.numbers[c] for c in paid],
        text=f"seat {seat} pays {cost} with "
        f"{', '.join(s.game.cards[c].label for c in paid)} ({total} hearts)",
    )
    return True


def _fail_to_pay(s: State, seat: int, what: str) -> None:
    lost = s._houses[seat]
    s._litter.extend(lost)
    s._houses[seat] = []
    if s.game.standard and not s._feral[seat]:
        s._feral[seat] = True
        _event(
            s,
            "feral",
            seat=seat,
            text=f"seat {seat} cannot pay for {what}: loses all "
            f"{len(lost)} banked Affection cards and becomes Feral",
        )
    else:
        _event(
            s,
            "lost-affection",
            seat=seat,
            text=f"seat {seat} cannot pay for {what}: loses all {len(lost)} banked Affection cards",
        )


def _gain_points(s: State, seat: int, n: int, why: str) -> None:
    """Mischief points from anything but the winning play: never below 0, and points that
    would reach nine are not scored (the manual's Counter rule, applied to all of them)."""
    if s._feral[seat]:
        _event(s, "no-score", seat=seat, text=f"seat {seat} is Feral: no points for {why}")
        return
    new = max(0, s._points[seat] + n)
    if new >= WINNING_POINTS:
        _event(
            s,
            "no-win",
            seat=seat,
            text=f"seat {seat} would reach {new} with {why}, but the winning point must "
            "be a Mischief card it plays holding the Cat Toy: scores 0",
        )
        return
    s._points[seat] = new
    _event(
        s,
        "points",
        seat=seat,
        points=n,
        text=f"seat {seat} scores {n:+d} for {why}: {new} Mischief",
    )


def _end(s: State, winner: int, win_type: str | None, text: str) -> None:
    s._over = True
    s._winner = winner
    s._win_type = win_type
    s._stack.clear()
    # Cards still on the table (plays that will never resolve) go to the Litter Box.
    for play in s._plays.values():
        s._litter.append(play.card)
    s._plays.clear()
    _event(s, "game-over", seat=winner, win_type=win_type, text=text)


def _run_effect(s: State, play: PlayRecord) -> None:
    """The steps of the played card's effect, in order, each by its primitive's handler
    (:data:`_EFFECT_HANDLERS`); a step that ends the game ends the effect."""
    g = s.game
    card = g.cards[play.card]
    assert card.effect is not None
    for step in card.effect.steps:
        if s._over:
            return
        if not g.standard and step.do in FERAL_OR_TOKEN_PRIMITIVES:
            continue  # the Basic game ignores card text about Ferals and Pounce Tokens
        who = _who(s, play, step.who)
        _EFFECT_HANDLERS[step.do](s, play, step, who, step.n or 0, card.label)


# One handler per effect primitive (engine.cantankerous.effects.PRIMITIVES says what each
# does): (state, the play, the step, the seats it names, its count, the card's label).


def _effect_draw(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        got = _draw(s, seat, n)
        _event(
            s,
            "effect-draw",
            seat=seat,
            count=len(got),
            text=f"{label}: seat {seat} draws {len(got)}",
        )


def _effect_discard_random(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        thrown = [_take_random(s, s._hands[seat]) for _ in range(min(n, len(s._hands[seat])))]
        _to_litter(s, "effect-discard", seat, thrown, f"{label}: seat {seat} discards")


def _effect_steal_random(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    if play.target is None:
        return
    victim = s._hands[play.target]
    taken = [_take_random(s, victim) for _ in range(min(n, len(victim)))]
    s._hands[play.seat].extend(taken)
    _event(
        s,
        "effect-steal",
        seat=play.seat,
        target=play.target,
        count=len(taken),
        text=f"{label}: seat {play.seat} takes {len(taken)} card(s) from seat {play.target}'s hand",
    )


def _effect_discard_banked(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        lost = _take_banked(s, seat, n, step.pick or "largest")
        _to_litter(s, "effect-lose-affection", seat, lost, f"{label}: seat {seat} loses")


def _effect_steal_banked(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    if play.target is None:
        return
    taken = _take_banked(s, play.target, n, step.pick or "largest")
    s._houses[play.seat].extend(taken)
    _event(
        s,
        "effect-take-affection",
        seat=play.seat,
        target=play.target,
        cards=_numbers(s, taken),
        text=f"{label}: seat {play.seat} takes {_labels(s, taken)} from seat {play.target}",
    )


def _effect_score(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        _gain_points(s, seat, n, label)


def _effect_gain_token(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        gained = min(n, s._bank)
        s._bank -= gained
        s._tokens[seat] += gained
        _event(
            s,
            "effect-token",
            seat=seat,
            count=gained,
            text=f"{label}: seat {seat} gains {gained} Pounce Token(s)",
        )


def _effect_lose_token(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        lost = min(n, s._tokens[seat])
        s._tokens[seat] -= lost
        s._bank += lost
        _event(
            s,
            "effect-token",
            seat=seat,
            count=-lost,
            text=f"{label}: seat {seat} returns {lost} Pounce Token(s)",
        )


def _effect_go_feral(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        if not s._feral[seat]:
            s._litter.extend(s._houses[seat])
            s._houses[seat] = []
            s._feral[seat] = True
            _event(
                s,
                "feral",
                seat=seat,
                text=f"{label}: seat {seat} loses its banked Affection and becomes Feral",
            )


def _effect_adopt(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    for seat in who:
        if s._feral[seat]:
            s._feral[seat] = False
            _event(s, "adopted", seat=seat, text=f"{label}: seat {seat} is adopted")


def _effect_cancel(
    s: State, play: PlayRecord, step: Step, who: list[int], n: int, label: str
) -> None:
    answered = s._plays.get(play.answers) if play.answers is not None else None
    if answered is not None:
        g = s.game
        s._plays[answered.id] = answered._replace(cancelled=True)
        _card_event(
            s,
            "cancel",
            play.seat,
            answered.card,
            text=f"{label}: seat {answered.seat}'s {g.cards[answered.card].label} is cancelled",
        )


_EffectHandler = Callable[["State", PlayRecord, Step, list[int], int, str], None]

_EFFECT_HANDLERS: dict[str, _EffectHandler] = {
    "draw": _effect_draw,
    "discard_random": _effect_discard_random,
    "steal_random": _effect_steal_random,
    "discard_banked": _effect_discard_banked,
    "steal_banked": _effect_steal_banked,
    "score": _effect_score,
    "gain_token": _effect_gain_token,
    "lose_token": _effect_lose_token,
    "go_feral": _effect_go_feral,
    "adopt": _effect_adopt,
    "cancel": _effect_cancel,
}
# Every primitive a deck file may use has its handler (checked when the module loads).
assert _EFFECT_HANDLERS.keys() == PRIMITIVES.keys()


def _who(s: State, play: PlayRecord, who: str | None) -> list[int]:
    if who == "self":
        return [play.seat]
    if who == "target":
        return [] if play.target is None else [play.target]
    if who == "toy_holder":
        return [s._toy]
    order = _order(s, play.seat)
    return order[1:] if who == "each_opponent" else order


def _take_random(s: State, cards: list[int]) -> int:
    return cards.pop(_below(s, len(cards)))


def _take_banked(s: State, seat: int, n: int, pick: str) -> list[int]:
    hearts = s.game.hearts
    house = s._houses[seat]
    ranked = sorted(
        range(len(house)),
        key=lambda pos: (-hearts[house[pos]] if pick == "largest" else hearts[house[pos]], pos),
    )
    chosen = set(ranked[:n])
    taken = [house[pos] for pos in sorted(chosen)]
    s._houses[seat] = [c for pos, c in enumerate(house) if pos not in chosen]
    return taken


def _clone(s: State, action: Action) -> State:
    new = object.__new__(type(s))  # the state's own class: the rules never import it
    new.game = s.game
    new.seed = s.seed
    new._rng = s._rng
    new._bowl = s._bowl[:]
    new._litter = s._litter[:]
    new._hands = [hand[:] for hand in s._hands]
    new._houses = [house[:] for house in s._houses]
    new._points = s._points[:]
    new._feral = s._feral[:]
    new._tokens = s._tokens[:]
    new._bank = s._bank
    new._toy = s._toy
    new._turn = s._turn
    new._dir = s._dir
    new._high = s._high
    new._stack = s._stack[:]
    new._plays = dict(s._plays)
    new._next_play = s._next_play
    new._no_refill = s._no_refill[:]
    new._depth = s._depth
    new._decision = s._decision
    new._winner = s._winner
    new._win_type = s._win_type
    new._over = s._over
    new._history = (s._history, action)
    new._result = None
    new._legal = None
    return new
