"""Drawing the tables of a game night: pure code, no ORM (the club-night pages call it).

A night has rounds; each round the people present are seated at tables whose sizes the game
allows, as even as possible (11 people at Cat Lady, 2 to 4 a table: 4 + 4 + 3; never a table
of one). The first round groups people by rating or at random, as the organiser chooses;
later rounds seat the fewest pairs possible who already shared a table tonight (a round
without any such pair whenever one exists), and among those seatings the Swiss-style one:
people with similar points tonight together. OR-Tools' CP-SAT solver finds it
(:mod:`league.nights.tablemates`), within a fixed amount of the solver's work and under a
second per draw; if that runs out before the solver has proved its seating the best, the
draw says so. Who starts rotates: at each table the one
who has started least tonight starts. Someone arriving or leaving between rounds is simply
in or out of the next round's list.

Every draw says how it was made (:attr:`Draw.explanation`), for the organiser's page.

>>> people = [Entrant(i, f"P{i}", rating=1500 - 10 * i) for i in range(11)]
>>> draw = draw_round(entrants=people, min_size=2, max_size=4, round_number=1, seed=7)
>>> [len(table.players) for table in draw.tables]
[4, 4, 3]
>>> draw.sitting_out
[]
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from league.nights import tablemates


@dataclass(frozen=True)
class Entrant:
    """Someone present for this round, with what the night knows of them so far."""

    id: Hashable
    name: str
    rating: float = 1500.0
    points: float = 0.0  # tonight's points so far
    starts: int = 0  # how often they started a game tonight
    sat_out: int = 0  # rounds they sat out tonight


@dataclass(frozen=True)
class Table:
    players: tuple[Hashable, ...]  # seat order: the starter first
    starter: Hashable


@dataclass
class Draw:
    tables: list[Table]
    sitting_out: list[Hashable]
    repeats: int  # pairs at one table who already shared one tonight
    explanation: list[str] = field(default_factory=list)


class DrawError(ValueError):
    """The draw cannot be made (no table size allowed, nobody present...)."""


def table_sizes(count: int, min_size: int, max_size: int) -> list[int]:
    """Table sizes for ``count`` people, as even as possible, largest first; everyone seated
    when the sizes allow it, else as many as can be (the rest sit out).

    >>> table_sizes(11, 2, 4), table_sizes(6, 2, 4), table_sizes(5, 4, 4), table_sizes(1, 2, 4)
    ([4, 4, 3], [3, 3], [4], [])
    >>> table_sizes(13, 3, 5)
    [5, 4, 4]
    """
    if not 1 <= min_size <= max_size:
        raise DrawError(f"table sizes {min_size} to {max_size} make no sense")
    for seated in range(count, min_size - 1, -1):
        tables = math.ceil(seated / max_size)
        base, extra = divmod(seated, tables)
        if base >= min_size:
            return [base + 1] * extra + [base] * (tables - extra)
    return []


def draw_round(
    *,
    entrants: Sequence[Entrant],
    min_size: int,
    max_size: int,
    round_number: int,
    met: Iterable[tuple[Hashable, Hashable]] = (),
    by_rating: bool = True,
    seed: int = 0,
) -> Draw:
    """Seat ``entrants`` for round ``round_number`` (1 = the night's first).

    ``met``: pairs who already shared a table tonight. ``by_rating``: the first round groups
    people of similar rating (else it is random, from ``seed``). Raises :class:`DrawError`
    when nobody can be seated at all.
    """
    if len({e.id for e in entrants}) != len(entrants):
        raise DrawError("someone is listed twice")
    sizes = table_sizes(len(entrants), min_size, max_size)
    if not sizes:
        raise DrawError(f"{len(entrants)} present: a table needs at least {min_size}")
    rng = random.Random(f"{seed}/{round_number}")
    explanation = []
    if round_number == 1 and not by_rating:
        order = list(entrants)
        rng.shuffle(order)
        explanation.append("First round: seats drawn at random.")
    elif round_number == 1:
        order = sorted(entrants, key=lambda e: (-e.rating, str(e.name)))
        explanation.append(
            "First round: people of similar rating sit together (ordered by rating)."
        )
    else:
        order = sorted(entrants, key=lambda e: (-e.points, -e.rating, str(e.name)))
        explanation.append(
            f"Round {round_number}: Swiss-style, people with similar points "
            "tonight sit together (ordered by points, then rating); people who "
            "already shared a table tonight are kept apart where possible."
        )
    # When the numbers force someone out: those who sat out least tonight, from the end of
    # the order (the lowest rating or points).
    out_count = len(order) - sum(sizes)
    leaving = sorted(reversed(order), key=lambda e: e.sat_out)[:out_count]
    sitting_out = [e.id for e in leaving]
    order = [e for e in order if e.id not in set(sitting_out)]
    explanation.append(
        f"{len(entrants)} present; tables of {' + '.join(map(str, sizes))} "
        f"(the game seats {min_size} to {max_size})"
        + (f"; sitting out: {', '.join(_names(entrants, sitting_out))}." if sitting_out else ".")
    )
    met_pairs = {frozenset(pair) for pair in met}
    position = {e.id: index for index, e in enumerate(order)}
    groups, proven = _seat(order, sizes, met_pairs, position)
    repeats = sum(_repeats(group, met_pairs) for group in groups)
    tables = [_with_starter(group, order) for group in groups]
    if round_number > 1:
        explanation.append(_again(repeats, proven))
    for number, table in enumerate(tables, start=1):
        starter = next(e for e in order if e.id == table.starter)
        explanation.append(
            f"Table {number}: {', '.join(_names(entrants, table.players))}; "
            f"{starter.name} starts ({_times(starter.starts)} tonight so far)."
        )
    return Draw(tables=tables, sitting_out=sitting_out, repeats=repeats, explanation=explanation)


def _names(entrants: Sequence[Entrant], ids: Iterable[Hashable]) -> list[str]:
    by_id = {e.id: e.name for e in entrants}
    return [by_id[i] for i in ids]


def _again(repeats: int, proven: bool) -> str:
    if repeats == 0:
        return "No one meets anyone again."
    pairs = "1 pair meets" if repeats == 1 else f"{repeats} pairs meet"
    if proven:
        return f"{pairs} again: the fewest possible."
    return f"{pairs} again: the fewest found in the time allowed (fewer may be possible)."


def _times(count: int) -> str:
    return {0: "has not started", 1: "started once"}.get(count, f"started {count} times")


def _repeats(group: Sequence[Entrant], met: set[frozenset]) -> int:
    return sum(frozenset((a.id, b.id)) in met for a, b in itertools.combinations(group, 2))


def _seat(
    order: list[Entrant], sizes: list[int], met: set[frozenset], position: dict[Hashable, int]
) -> tuple[list[list[Entrant]], bool]:
    """The tables, and whether no seating has fewer repeats (False: the solver ran out of
    work or time before it could tell)."""
    # Tables in the order's sequence: the best draw when nobody has met anyone.
    cut = list(itertools.accumulate(sizes))
    plain = [order[a:b] for a, b in zip([0, *cut[:-1]], cut, strict=True)]
    if not any(_repeats(group, met) for group in plain):
        return plain, True
    pairs = [
        (position[a], position[b])
        for a, b in (tuple(pair) for pair in met if len(pair) == 2)
        if a in position and b in position
    ]
    tables, proven = tablemates.seat(len(order), sizes, pairs)
    groups = [[order[p] for p in sorted(table)] for table in tables]
    return sorted(groups, key=lambda g: position[g[0].id]), proven


def _with_starter(group: list[Entrant], order: list[Entrant]) -> Table:
    """The one who has started least tonight starts (ties: the better placed); the rest follow
    in the order's sequence."""
    rank = {e.id: index for index, e in enumerate(order)}
    starter = min(group, key=lambda e: (e.starts, rank[e.id]))
    others = sorted((e for e in group if e.id != starter.id), key=lambda e: rank[e.id])
    return Table(players=(starter.id, *(e.id for e in others)), starter=starter.id)
