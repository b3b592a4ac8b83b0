"""The ``greedy`` strategy for Cantankerous Cats: simple rules of thumb on the observation.

It looks at nothing a seat may not see (its observation: its own hand, the public table)
and never searches. In order of preference:

* **Domestic turn**: score the biggest Mischief card its banked Affection can pay for;
  else bank its largest Affection card; else play a useful Incident (draws, points, a
  steal, or hurting the leader); else buy a Pounce Token with its two least useful cards
  (holding fewer than two); else be a Picky Eater.
* **Feral turn**: bank Affection (adoption at four, the Feral victory at nine); attack the
  leading Domestic Cat that cannot pay for its Mischief card (it goes Feral); Incidents;
  else Picky Eater.
* **Pounce**: on a last-chance window, anything that may stop the win (a cancel, the
  costliest attack, lost Affection); otherwise only an attack its victim cannot pay for.
* **Counter**: cancel with a cancelling Incident; against an attack it cannot pay for,
  bank Affection from hand until it can.
* **Instant Actions**: always bank or score for free (unless the points would be wasted);
  play free Incidents that help.
* **First Bite**: the card whose rank best fits the Turn Indicator, least useful first.
"""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.cantankerous import actions

__all__ = ["GreedyStrategy"]

WIN = 9


class GreedyStrategy:
    """Rules of thumb, no search; deterministic for a given observation."""

    name = "greedy"

    def choose(
        self, observation: dict[str, Any], legal_actions: list[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        view = _View(observation)
        phase = observation["phase"]
        chooser = {
            "bet": self._bet,
            "keep": self._keep,
            "action": self._action,
            "discard": self._discard,
            "pounce": self._pounce,
            "counter": self._counter,
            "counter-bank": self._counter_bank,
            "instant": self._instant,
        }[phase]
        return chooser(view, legal_actions)

    # -- each decision ----------------------------------------------------------------------

    def _bet(self, v: _View, legal: list[Action]) -> Action:
        high = v.obs["turn_indicator"] == "high"
        return max(legal, key=lambda a: ((v.rank(a) if high else -v.rank(a)), -v.worth(_card(a))))

    def _keep(self, v: _View, legal: list[Action]) -> Action:
        return max(legal, key=lambda a: (v.hearts(_card(a)), v.worth(_card(a))))

    def _discard(self, v: _View, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: (v.worth(_card(a)), _card(a)))

    def _action(self, v: _View, legal: list[Action]) -> Action:
        me = v.me
        scores = [
            a for a in legal if isinstance(a, actions.Score) and v.cost(a.card) <= me["affection"]
        ]
        if scores:
            return max(scores, key=lambda a: (v.paws(a.card), -v.cost(a.card)))
        banks = [a for a in legal if isinstance(a, actions.Bank)]
        if me["status"] == "feral":
            attacks = [
                a
                for a in legal
                if isinstance(a, actions.Attack) and v.cats[a.target]["affection"] < v.cost(a.card)
            ]
            if banks and (not attacks or me["affection"] + v.hearts(banks[0].card) < 4):
                return max(banks, key=lambda a: v.hearts(a.card))
            if attacks:
                return max(attacks, key=lambda a: (v.cats[a.target]["mischief"], v.cost(a.card)))
        if banks:
            return max(banks, key=lambda a: v.hearts(a.card))
        plays = [(v.incident_value(a), a) for a in legal if isinstance(a, actions.Play)]
        plays = [(value, a) for value, a in plays if value > 0]
        if plays:
            return max(plays, key=lambda item: item[0])[1]
        buys = [a for a in legal if isinstance(a, actions.BuyToken)]
        if buys and me["tokens"] < 2:
            return min(buys, key=lambda a: sum(v.worth(c) for c in a.cards))
        return next(a for a in legal if isinstance(a, actions.PickyEater))

    def _pounce(self, v: _View, legal: list[Action]) -> Action:
        window = v.obs["window"]
        attacks = [a for a in legal if isinstance(a, actions.PounceAttack)]
        plays = [a for a in legal if isinstance(a, actions.PouncePlay)]
        if window.get("last_chance"):
            cancels = [a for a in plays if v.cancels(a.card)]
            if cancels:
                return cancels[0]
            if attacks:
                return max(attacks, key=lambda a: v.cost(a.card))
            hurting = [a for a in plays if v.incident_value(a) > 0 and a.target is not None]
            if hurting:
                return hurting[0]
            return legal[0]
        ruin = [
            a
            for a in attacks
            if v.cats[a.target]["affection"] < v.cost(a.card) and v.cats[a.target]["mischief"] >= 3
        ]
        if ruin:
            return max(ruin, key=lambda a: (v.cats[a.target]["mischief"], -v.paws(a.card)))
        return legal[0]

    def _counter(self, v: _View, legal: list[Action]) -> Action:
        cancels = [a for a in legal if isinstance(a, actions.CounterPlay) and v.cancels(a.card)]
        if cancels:
            return cancels[0]
        window = v.obs["window"]
        if window.get("as") == "attack":
            cost = v.cost(window["against_card"])
            banks = [a for a in legal if isinstance(a, actions.CounterBank)]
            if (
                v.me["affection"] < cost
                and banks
                and v.me["affection"] + sum(v.hearts(a.card) for a in banks) >= cost
            ):
                return max(banks, key=lambda a: v.hearts(a.card))
        return legal[0]

    def _counter_bank(self, v: _View, legal: list[Action]) -> Action:
        cost = v.cost(v.obs["window"]["against_card"]) if "against_card" in v.obs["window"] else 0
        banks = [a for a in legal if isinstance(a, actions.CounterBank)]
        if banks and v.me["affection"] < cost:
            return max(banks, key=lambda a: v.hearts(a.card))
        return next(a for a in legal if isinstance(a, actions.Done))

    def _instant(self, v: _View, legal: list[Action]) -> Action:
        best: Action = legal[0]
        best_value = 0.0
        for action in legal:
            if not isinstance(action, actions.Instant):
                continue
            kind = v.type(action.card)
            if kind == "affection":
                value = 1.0 + v.hearts(action.card)
            elif kind == "mischief":
                gain = v.paws(action.card)
                holder = v.obs["toy_holder"] == v.seat
                value = 0.0 if (not holder and v.me["mischief"] + gain >= WIN) else 2.0 + gain
            else:
                value = v.incident_value(action)
            if value > best_value:
                best, best_value = action, value
        return best


class _View:
    """Lookups on one observation."""

    def __init__(self, obs: dict[str, Any]) -> None:
        self.obs = obs
        self.seat: int = obs["seat"]
        self.cats: list[dict[str, Any]] = obs["cats"]
        self.me = self.cats[self.seat]
        self.cards: dict[str, dict[str, Any]] = obs["cards"]  # card number -> its JSON

    def _get(self, number: int) -> dict[str, Any]:
        return self.cards.get(str(number), {})

    def type(self, number: int) -> str:
        return str(self._get(number).get("type"))

    def rank(self, action: Action) -> int:
        return int(self._get(_card(action)).get("rank") or 0)

    def hearts(self, number: int) -> int:
        return int(self._get(number).get("hearts") or 0)

    def paws(self, number: int) -> int:
        return int(self._get(number).get("paws") or 0)

    def cost(self, number: int) -> int:
        return int(self._get(number).get("cost") or 0)

    def cancels(self, number: int) -> bool:
        effect = self._get(number).get("effect") or {}
        return any(step.get("do") == "cancel" for step in effect.get("steps", ()))

    def worth(self, number: int) -> float:
        """How much a card in hand is worth keeping (for discards, bets and purchases)."""
        card = self._get(number)
        kind = card.get("type")
        icon = 0.5 if card.get("instant") else 0.0
        if kind == "affection":
            return self.hearts(number) + icon
        if kind == "mischief":
            affordable = self.cost(number) <= self.me["affection"] + 4
            return self.paws(number) * (1.3 if affordable else 0.6) + icon
        return 1.5 + icon

    def leader(self) -> int:
        others = [c for c in self.cats if c["seat"] != self.seat]
        seat: int = max(others, key=lambda c: (c["mischief"], c["affection"]))["seat"]
        return seat

    def incident_value(self, action: Action) -> float:
        """A rough worth of playing an Incident now with its chosen target."""
        card = self._get(_card(action))
        effect = card.get("effect") or {}
        target = getattr(action, "target", None)
        value = 0.0
        for step in effect.get("steps", ()):
            do, who, n = step.get("do"), step.get("who"), step.get("n") or 0
            on_me = who == "self" or (who == "target" and target == self.seat)
            on_other = (
                who == "target" and target is not None and target != self.seat
            ) or who == "each_opponent"
            sign = 1.0 if on_me else -1.0 if on_other else 0.0
            leader_bonus = 0.5 if target == self.leader() else 0.0
            if do == "draw":
                value += 0.8 * n * sign
            elif do == "score":
                gain = n if self.me["mischief"] + n < WIN else 0
                value += 2.0 * gain * sign
            elif do in ("discard_random", "discard_banked"):
                value += (-sign) * (0.7 * n + leader_bonus) if sign else 0.0
            elif do in ("steal_random", "steal_banked"):
                value += 1.2 * n + leader_bonus
            elif do == "gain_token":
                value += 0.6 * n * sign
            elif do == "lose_token":
                value -= 0.6 * n * sign
            elif do == "go_feral":
                value += -3.0 * sign
            elif do == "adopt":
                value += 3.0 * sign if (on_me and self.me["status"] == "feral") else 0.0
        return value


def _card(action: Action) -> int:
    if isinstance(
        action,
        actions.Bet
        | actions.Keep
        | actions.Discard
        | actions.Bank
        | actions.Score
        | actions.Play
        | actions.Attack
        | actions.PounceAttack
        | actions.PouncePlay
        | actions.CounterBank
        | actions.CounterPlay
        | actions.Instant,
    ):
        return action.card
    raise ValueError(f"{action} names no card")
