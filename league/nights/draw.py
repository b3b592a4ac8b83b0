"""Drawing the tables of a game night: pure code, no ORM (the club-night pages call it).

A night has rounds; each round the people present are seated at tables whose sizes the game
allows, as even as possible (11 people at Cat Lady, 2 to 4 a table: 4 + 4 + 3; never a table
of one). The first round groups people by rating or at random, as the organiser chooses;
later rounds are Swiss-style: people with similar points tonight sit together, while people
who already shared a table tonight are kept apart as far as the numbers allow. Who starts
rotates: at each table the one who has started least tonight starts. Someone arriving or
leaving between rounds is simply in or out of the next round's list.

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

# Up to this many people the best draw is found by searching every seating; above it, a
# greedy draw improved by swaps (a club night rarely has more than a few tables).
EXHAUSTIVE_UP_TO = 12
SWAP_PASSES = 20


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
    groups = _seat(order, sizes, met_pairs, position)
    repeats = sum(_repeats(group, met_pairs) for group in groups)
    tables = [_with_starter(group, order) for group in groups]
    if round_number > 1:
        best = "the fewest possible" if len(order) <= EXHAUSTIVE_UP_TO else "after a search"
        explanation.append(f"{repeats} pair(s) share a table again ({best}).")
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


def _times(count: int) -> str:
    return {0: "has not started", 1: "started once"}.get(count, f"started {count} times")


def _repeats(group: Sequence[Entrant], met: set[frozenset]) -> int:
    return sum(frozenset((a.id, b.id)) in met for a, b in itertools.combinations(group, 2))


def _spread(group: Sequence[Entrant], position: dict[Hashable, int]) -> int:
    """How far apart in the order a table's people are (0 for neighbours in the standings)."""
    places = [position[e.id] for e in group]
    return max(places) - min(places) - (len(places) - 1)


def _cost(
    groups: Sequence[Sequence[Entrant]], met: set[frozenset], position: dict[Hashable, int]
) -> tuple[int, int]:
    """Repeated tablemates first, then how far from the standings the tables stray."""
    return (sum(_repeats(g, met) for g in groups), sum(_spread(g, position) for g in groups))


def _seat(
    order: list[Entrant], sizes: list[int], met: set[frozenset], position: dict[Hashable, int]
) -> list[list[Entrant]]:
    # Tables in the order's sequence: the best draw when nobody has met anyone.
    cut = list(itertools.accumulate(sizes))
    plain = [order[a:b] for a, b in zip([0, *cut[:-1]], cut, strict=True)]
    if not met or _cost(plain, met, position)[0] == 0:
        return plain
    if len(order) <= EXHAUSTIVE_UP_TO:
        return _best_seating(order, sizes, met, position)
    return _improved_by_swaps(plain, met, position)


def _best_seating(
    order: list[Entrant], sizes: list[int], met: set[frozenset], position: dict[Hashable, int]
) -> list[list[Entrant]]:
    """Every seating (the first remaining person joins each possible table), the cheapest
    kept; branches already dearer than the best found are cut."""
    best: list[list[list[Entrant]]] = []
    best_cost = [(math.inf, math.inf)]

    def search(
        remaining: list[Entrant],
        sizes_left: list[int],
        groups: list[list[Entrant]],
        cost: tuple[int, int],
    ) -> None:
        if cost >= best_cost[0]:
            return
        if not remaining:
            best_cost[0] = cost
            best[:] = [[list(g) for g in groups]]
            return
        first, rest = remaining[0], remaining[1:]
        for size in sorted(set(sizes_left), reverse=True):
            left = list(sizes_left)
            left.remove(size)
            for others in itertools.combinations(rest, size - 1):
                group = [first, *others]
                step = (_repeats(group, met), _spread(group, position))
                taken = {e.id for e in others}
                search(
                    [e for e in rest if e.id not in taken],
                    left,
                    [*groups, group],
                    (cost[0] + step[0], cost[1] + step[1]),
                )

    search(order, sizes, [], (0, 0))
    return best[0]


def _improved_by_swaps(
    groups: list[list[Entrant]], met: set[frozenset], position: dict[Hashable, int]
) -> list[list[Entrant]]:
    """Swap two people at different tables while that lowers the cost."""
    groups = [list(g) for g in groups]
    current = _cost(groups, met, position)
    for _ in range(SWAP_PASSES):
        improved = False
        for a, b in itertools.combinations(range(len(groups)), 2):
            for i in range(len(groups[a])):
                for j in range(len(groups[b])):
                    groups[a][i], groups[b][j] = groups[b][j], groups[a][i]
                    cost = _cost(groups, met, position)
                    if cost < current:
                        current, improved = cost, True
                    else:
                        groups[a][i], groups[b][j] = groups[b][j], groups[a][i]
        if not improved:
            break
    return groups


def _with_starter(group: list[Entrant], order: list[Entrant]) -> Table:
    """The one who has started least tonight starts (ties: the better placed); the rest follow
    in the order's sequence."""
    rank = {e.id: index for index, e in enumerate(order)}
    starter = min(group, key=lambda e: (e.starts, rank[e.id]))
    others = sorted((e for e in group if e.id != starter.id), key=lambda e: rank[e.id])
    return Table(players=(starter.id, *(e.id for e in others)), starter=starter.id)
