"""The small vocabulary of card effects the Cantankerous Cats engine knows.

An Incident (Event or Frenzy) or Dog card's ``effect`` in a deck file is written in this
vocabulary, so a club can transcribe its own cards without touching code::

    {"target": "opponent",
     "steps": [{"do": "discard_random", "who": "target", "n": 1},
               {"do": "draw", "who": "self", "n": 1}]}

``target`` says which Cat the player picks when playing the card (null: no pick). Each
step is one primitive; ``who`` names the Cat(s) it acts on. Steps run in order.

>>> effect = parse_effect({"target": None, "steps": [{"do": "draw", "who": "self", "n": 2}]},
...                       where="card #1")
>>> effect.describe()
'you draw 2'
>>> parse_effect({"steps": [{"do": "explode"}]}, where="card #9")
Traceback (most recent call last):
...
engine.errors.CardDataError: card #9: effect step 1: unknown primitive 'explode'; the engine knows: adopt, cancel, discard_banked, discard_random, draw, gain_token, go_feral, lose_token, score, steal_banked, steal_random
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import CardDataError

__all__ = [
    "FERAL_OR_TOKEN_PRIMITIVES",
    "PRIMITIVES",
    "TARGETS",
    "WHO",
    "Effect",
    "Step",
    "parse_effect",
]

# Who the player may pick when playing the card.
TARGETS: dict[str, str] = {
    "opponent": "any other Cat",
    "any": "any Cat, yourself included",
    "domestic": "any Domestic Cat, yourself included",
    "domestic-opponent": "any other Domestic Cat",
    "feral": "any Feral Cat, yourself included",
    "feral-opponent": "any other Feral Cat",
}

# Whom a step acts on.
WHO: dict[str, str] = {
    "self": "the Cat who played the card",
    "target": "the Cat picked when playing it",
    "toy_holder": "the Cat holding the Cat Toy",
    "each_opponent": "every other Cat",
    "everyone": "every Cat",
}

# primitive -> (parameters it takes, what it does). ``n`` is a count, ``pick`` is
# "largest" or "smallest" (which banked Affection cards go first).
PRIMITIVES: dict[str, tuple[tuple[str, ...], str]] = {
    "draw": (("who", "n"), "draws n cards from the Food Bowl"),
    "discard_random": (("who", "n"), "puts n random cards from hand into the Litter Box"),
    "steal_random": (("n",), "you take n random cards from the target's hand"),
    "discard_banked": (
        ("who", "n", "pick"),
        "puts n banked Affection cards (largest or smallest first) into the Litter Box",
    ),
    "steal_banked": (
        ("n", "pick"),
        "you move n of the target's banked Affection cards into your own House/Territory",
    ),
    "score": (
        ("who", "n"),
        "gains n Mischief points (n may be negative; never below 0; never the winning point)",
    ),
    "gain_token": (("who", "n"), "takes n Pounce Tokens from the Token Bank (while any are left)"),
    "lose_token": (("who", "n"), "returns n Pounce Tokens to the Token Bank"),
    "go_feral": (("who",), "a Domestic Cat discards all banked Affection and becomes Feral"),
    "adopt": (("who",), "a Feral Cat becomes Domestic, keeping its banked Affection"),
    "cancel": (
        (),
        "the card this one answers (in a Pounce or a Counter) goes to the Litter Box "
        "without effect",
    ),
}

# Steps the Basic game ignores ("ignore all card text that refers to Feral Cats or Pounce
# Tokens").
FERAL_OR_TOKEN_PRIMITIVES = frozenset({"gain_token", "lose_token", "go_feral", "adopt"})

_PICKS = ("largest", "smallest")
_MAX_N = 20


@dataclass(frozen=True, slots=True)
class Step:
    """One primitive of an effect."""

    do: str
    who: str | None = None
    n: int | None = None
    pick: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        for key in PRIMITIVES[self.do][0]:
            out[key] = getattr(self, key)
        return out

    def describe(self) -> str:
        who = {
            "self": "you",
            "target": "the target",
            "toy_holder": "the Cat Toy holder",
            "each_opponent": "each opponent",
            "everyone": "everyone",
            None: "",
        }[self.who]
        n = self.n
        if self.do == "draw":
            return f"{who} draw{'' if who == 'you' else 's'} {n}"
        if self.do == "discard_random":
            return f"{who} discard{'' if who == 'you' else 's'} {n} at random"
        if self.do == "steal_random":
            return f"you take {n} random card{'s' if n != 1 else ''} from the target's hand"
        if self.do == "discard_banked":
            return (
                f"{who} lose{'' if who == 'you' else 's'} {n} banked Affection ({self.pick} first)"
            )
        if self.do == "steal_banked":
            return f"you take {n} of the target's banked Affection ({self.pick} first)"
        if self.do == "score":
            return f"{who} score{'' if who == 'you' else 's'} {n:+d} Mischief"
        if self.do == "gain_token":
            return (
                f"{who} gain{'' if who == 'you' else 's'} {n} Pounce Token{'s' if n != 1 else ''}"
            )
        if self.do == "lose_token":
            return (
                f"{who} lose{'' if who == 'you' else 's'} {n} Pounce Token{'s' if n != 1 else ''}"
            )
        if self.do == "go_feral":
            return f"{who} become{'' if who == 'you' else 's'} Feral"
        if self.do == "adopt":
            return f"{who} {'are' if who == 'you' else 'is'} adopted"
        return "cancel the card this answers"


@dataclass(frozen=True, slots=True)
class Effect:
    """A card's effect: an optional target pick, then steps in order."""

    target: str | None
    steps: tuple[Step, ...]

    def to_json(self) -> dict[str, Any]:
        return {"target": self.target, "steps": [s.to_json() for s in self.steps]}

    @property
    def cancels(self) -> bool:
        return any(step.do == "cancel" for step in self.steps)

    def describe(self) -> str:
        text = "; ".join(step.describe() for step in self.steps) or "no effect"
        if self.target is not None:
            text = f"pick {TARGETS[self.target]}: {text}"
        return text


def parse_effect(raw: Any, *, where: str) -> Effect:
    """Read and check an effect written in the vocabulary; raises :class:`CardDataError`
    naming the card, the step and what is wrong."""
    if not isinstance(raw, Mapping):
        raise CardDataError(
            f"{where}: an effect is an object with 'target' and 'steps', not {type(raw).__name__}"
        )
    extra = sorted(set(raw) - {"target", "steps"})
    if extra:
        raise CardDataError(
            f"{where}: effect has unknown key(s) {', '.join(extra)} "
            "(an effect has 'target' and 'steps')"
        )
    target = raw.get("target")
    if target is not None and target not in TARGETS:
        raise CardDataError(
            f"{where}: effect target {target!r} is not one of "
            f"{', '.join(TARGETS)} (or null for no pick)"
        )
    steps_raw = raw.get("steps")
    if not isinstance(steps_raw, list):
        raise CardDataError(f"{where}: effect 'steps' must be a list of steps")
    steps = tuple(
        _parse_step(item, f"{where}: effect step {i}", target)
        for i, item in enumerate(steps_raw, start=1)
    )
    return Effect(target=target, steps=steps)


def _parse_step(raw: Any, where: str, target: str | None) -> Step:
    if not isinstance(raw, Mapping):
        raise CardDataError(f'{where}: a step is an object like {{"do": "draw", ...}}')
    do = raw.get("do")
    if do not in PRIMITIVES:
        raise CardDataError(
            f"{where}: unknown primitive {do!r}; the engine knows: {', '.join(sorted(PRIMITIVES))}"
        )
    params = PRIMITIVES[do][0]
    given = set(raw) - {"do"}
    missing = [p for p in params if p not in given]
    extra = sorted(given - set(params))
    if missing or extra:
        wanted = ", ".join(params) or "nothing else"
        problem = f"missing {', '.join(missing)}" if missing else f"unexpected {', '.join(extra)}"
        raise CardDataError(f"{where}: '{do}' takes {wanted} ({problem})")
    who = raw.get("who")
    if "who" in params:
        if who not in WHO:
            raise CardDataError(f"{where}: who {who!r} is not one of {', '.join(WHO)}")
        if who == "target" and target is None:
            raise CardDataError(f"{where}: acts on 'target' but the effect has no target pick")
    if do in ("steal_random", "steal_banked") and target is None:
        raise CardDataError(f"{where}: '{do}' takes from the target, so the effect needs a target")
    n = raw.get("n")
    if "n" in params:
        if not isinstance(n, int) or isinstance(n, bool):
            raise CardDataError(f"{where}: n must be a whole number, not {n!r}")
        low = -_MAX_N if do == "score" else 1
        if not low <= n <= _MAX_N or (do == "score" and n == 0):
            raise CardDataError(
                f"{where}: n={n} is out of range ({'-20..20, not 0' if do == 'score' else '1..20'})"
            )
    pick = raw.get("pick")
    if "pick" in params and pick not in _PICKS:
        raise CardDataError(f"{where}: pick must be 'largest' or 'smallest', not {pick!r}")
    return Step(do=do, who=who, n=n, pick=pick)
