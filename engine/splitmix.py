"""The engine's one random generator: SplitMix64, seeded, the same on every Python.

Python's ``random`` module may change its algorithms between versions; match logs must
replay identically forever, so the engine carries its own generator. Both games draw from
it: Cat Lady through a :class:`SplitMix64` object while dealing, Cantankerous Cats keeping
the generator's state as an int inside its immutable states (:func:`below` returns the next
state with the draw).

>>> rng = SplitMix64(7)
>>> first = rng.below(10)
>>> below(7, 10)[1] == first
True
>>> items, same = list(range(9)), list(range(9))
>>> SplitMix64(1).shuffle(items)
>>> rng = SplitMix64(1)
>>> for i in range(8, 0, -1):  # the shuffle is exactly these draws
...     j = rng.below(i + 1)
...     same[i], same[j] = same[j], same[i]
>>> items == same, sorted(items) == list(range(9))
(True, True)
"""

from __future__ import annotations

__all__ = ["MASK64", "SplitMix64", "below", "next64"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def next64(state: int) -> tuple[int, int]:
    """The generator's next state and its 64-bit output."""
    state = (state + _GAMMA) & MASK64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """The next state and a uniform integer in ``[0, n)`` (rejection sampling, no modulo
    bias)."""
    limit = MASK64 - (MASK64 + 1) % n
    while True:
        state, value = next64(state)
        if value <= limit:
            return state, value % n


class SplitMix64:
    """The generator as an object, for a sequence of draws in one place (a deal)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state, value = next64(self.state)
        return value

    def below(self, n: int) -> int:
        self.state, value = below(self.state, n)
        return value

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place: the draws of :func:`below`, written out (every deal
        shuffles about a hundred cards)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = MASK64 - (MASK64 + 1) % n
            while True:
                state = (state + _GAMMA) & MASK64
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
                z ^= z >> 31
                if z <= limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self.state = state
