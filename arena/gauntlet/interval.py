"""The 95% Wilson score interval of a win rate, and what it says in words. Pure code.

>>> interval = wilson(5, 10)
>>> round(interval.low, 4), round(interval.high, 4)
(0.2366, 0.7634)
>>> verdict(wilson(2, 12), "v1")
'worse than v1: the interval’s upper end (45%) is below 50%'
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the normal quantile of 97.5%: a two-sided 95% interval


@dataclass(frozen=True)
class Interval:
    low: float
    high: float

    @property
    def not_worse(self) -> bool:
        """The win rate is not shown below 50%: the rule "promote when not worse"."""
        return self.high >= 0.5


def wilson(wins: float, games: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of ``wins`` in ``games`` (a tie counts half a win).

    Raises ValueError for no games or wins outside 0..games.
    """
    if games <= 0:
        raise ValueError("a win rate needs at least one game")
    if not 0 <= wins <= games:
        raise ValueError(f"{wins} wins in {games} games")
    rate = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games)) / denominator
    return Interval(low=max(0.0, centre - half), high=min(1.0, centre + half))


def verdict(interval: Interval, against: str) -> str:
    """The interval in words, against the opponent ``against``."""
    low, high = f"{interval.low:.0%}", f"{interval.high:.0%}"
    if interval.high < 0.5:
        return f"worse than {against}: the interval’s upper end ({high}) is below 50%"
    if interval.low > 0.5:
        return f"better than {against}: the interval’s lower end ({low}) is above 50%"
    return (
        f"not worse than {against}: the interval’s upper end ({high}) is at or above 50% "
        f"(and not shown better: its lower end is {low})"
    )
