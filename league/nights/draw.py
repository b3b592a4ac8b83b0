"""Drawing the tables of a game night: pure code, no ORM (the club-night pages call it).

A night has rounds; each round the people present are seated at tables whose sizes the game
allows, as even as possible (11 people at Cat Lady, 2 to 4 a table: 4 + 4 + 3; never a table
of one). The first round groups people by rating or at random, as the organiser chooses;
later rounds seat the fewest pairs possible who already shared a table tonight (a round
without any such pair whenever one exists), and among those seatings the Swiss-style one:
people with similar points tonight together. OR-Tools' CP-SAT solver finds it, within a
budget of under a second per draw (``SOLVE_SECONDS``); if that runs out before the solver
has proved its seating the best, the draw says so. Who starts rotates: at each table the one
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
import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from ortools.sat.python import cp_model

# Later rounds are seated by OR-Tools' CP-SAT solver in two solves (the fewest repeats, then
# the Swiss order), within SOLVE_SECONDS of wall-clock time per draw in all, of which the
# second solve is left at least SECOND_SECONDS. Each solve also stops after a fixed amount of
# work (the solver's deterministic time, the same on every machine), so that the same night
# gives the same draw unless the clock runs out first. On the 2-core server at load average
# 5, a unit of work took 1.5 to 4 s, so there the clock ends a hard search first and such a
# draw may differ from one run to the next; one the solver settles in time never does.
SOLVE_SECONDS = 0.8
SECOND_SECONDS = 0.15
FIRST_WORK = 0.35
SECOND_WORK = 0.1
SOLVER_SEED = 0


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
) -> tuple[list[list[Entrant]], bool]:
    """The tables, and whether no seating has fewer repeats (False: the solver ran out of
    time before it could tell)."""
    # Tables in the order's sequence: the best draw when nobody has met anyone.
    cut = list(itertools.accumulate(sizes))
    plain = [order[a:b] for a, b in zip([0, *cut[:-1]], cut, strict=True)]
    if not met or _cost(plain, met, position)[0] == 0:
        return plain, True
    return _solved(order, sizes, met, plain)


def _solved(
    order: list[Entrant], sizes: list[int], met: set[frozenset], plain: list[list[Entrant]]
) -> tuple[list[list[Entrant]], bool]:
    """The seating with the fewest repeats, then the nearest the order, by CP-SAT in two
    solves: the fewest repeats first (proved when the time allows), then, with no more
    repeats than that, everyone as near their place in the order as can be."""
    begun = time.perf_counter()
    people, tables = range(len(order)), range(len(sizes))
    index = {e.id: p for p, e in enumerate(order)}
    model = cp_model.CpModel()
    seat = [[model.new_bool_var(f"seat_{p}_{t}") for t in tables] for p in people]
    for p in people:
        model.add_exactly_one(seat[p])
    for t in tables:
        model.add(sum(seat[p][t] for p in people) == sizes[t])
    # Tables of one size are interchangeable: the one whose best-placed member is higher in
    # the order comes first, so the search sees each seating once. (Someone sits at such a
    # table only if someone placed higher sits at the table before it.)
    for t in tables[1:]:
        if sizes[t] == sizes[t - 1]:
            for p in people:
                model.add_bool_or([seat[p][t].Not(), *(seat[q][t - 1] for q in range(p))])
    # Only pairs who met need a variable: true if they share a table again.
    pairs = sorted(
        {
            (min(index[a], index[b]), max(index[a], index[b]))
            for a, b in (tuple(pair) for pair in met if len(pair) == 2)
            if a in index and b in index
        }
    )
    again = {}
    for a, b in pairs:
        again[a, b] = model.new_bool_var(f"again_{a}_{b}")
        for t in tables:
            model.add_bool_or([seat[a][t].Not(), seat[b][t].Not(), again[a, b]])
    # The same repeats counted by groups who all met one another (mostly earlier tables),
    # which lets the solver prove a minimum: k of a group at one table are at least
    # k(k-1)/2 repeats (the tangents below, exact at whole numbers), so 5 of them at 4
    # tables are at least one.
    for group in _cliques(len(order), pairs):
        if len(group) < 3:
            continue
        counts = []
        for t in tables:
            most = min(len(group), sizes[t])
            together = sum(seat[p][t] for p in group)
            count = model.new_int_var(0, most * (most - 1) // 2, f"group_{group[0]}_{t}")
            for k in range(1, most):
                model.add(count >= k * together - k * (k + 1) // 2)
            counts.append(count)
        model.add(sum(again[pair] for pair in itertools.combinations(group, 2)) >= sum(counts))
    repeats = sum(again.values())
    model.minimize(repeats)
    _hint(model, seat, plain, index)
    solver = _solver(begun, SOLVE_SECONDS - SECOND_SECONDS, FIRST_WORK)
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return plain, False  # nothing found in time (the plain draw is always a seating)
    proven = status == cp_model.OPTIMAL
    groups = _groups(solver, seat, order)
    # Second solve: no more repeats than found, and everyone as near the table the order
    # gives them (the plain draw's) as can be: the sum over people of how many tables away
    # from it they sit.
    model.add(repeats <= round(solver.objective_value))
    home = {e.id: t for t, group in enumerate(plain) for e in group}
    model.minimize(
        sum(abs(t - home[e.id]) * seat[p][t] for p, e in enumerate(order) for t in tables)
    )
    model.clear_hints()
    _hint(model, seat, groups, index)
    solver = _solver(begun, SOLVE_SECONDS, SECOND_WORK)
    if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        groups = _groups(solver, seat, order)
    return sorted(groups, key=lambda g: min(index[e.id] for e in g)), proven


def _solver(begun: float, until: float, work: float) -> cp_model.CpSolver:
    """A solver that stops ``until`` seconds after ``begun`` or after ``work``, whichever
    comes first; one search thread and a fixed seed, so the same night gives the same draw
    (whenever the work limit, not the clock, ends the search)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SOLVER_SEED
    solver.parameters.linearization_level = 2  # the group counts' bound, in the LP
    solver.parameters.max_time_in_seconds = max(until - (time.perf_counter() - begun), 0.01)
    solver.parameters.max_deterministic_time = work
    return solver


def _cliques(count: int, pairs: Iterable[tuple[int, int]]) -> list[list[int]]:
    """``pairs`` (of people ``0..count-1``) split into groups whose members all met one
    another, each pair in exactly one group: greedily, the largest group that can be found
    first (after a few rounds, mostly the earlier rounds' tables).

    >>> _cliques(5, {(0, 1), (0, 2), (1, 2), (2, 3), (3, 4)})
    [[0, 1, 2], [2, 3], [3, 4]]
    """
    near: list[set[int]] = [set() for _ in range(count)]
    for a, b in pairs:
        near[a].add(b)
        near[b].add(a)
    groups = []
    while any(near):
        best: list[int] = []
        for first in range(count):
            group, candidates = [first], set(near[first])
            while candidates:
                chosen = max(sorted(candidates), key=lambda c: len(near[c] & candidates))
                group.append(chosen)
                candidates &= near[chosen]
            if len(group) > len(best):
                best = group
        groups.append(sorted(best))
        for a, b in itertools.combinations(best, 2):
            near[a].discard(b)
            near[b].discard(a)
    return groups


def _hint(
    model: cp_model.CpModel,
    seat: list[list[cp_model.IntVar]],
    groups: list[list[Entrant]],
    index: dict[Hashable, int],
) -> None:
    """Start the search from ``groups`` (tables in the order of ``sizes``)."""
    ordered = sorted(groups, key=lambda g: (-len(g), min(index[e.id] for e in g)))
    table = {e.id: t for t, group in enumerate(ordered) for e in group}
    for e, p in index.items():
        for t, var in enumerate(seat[p]):
            model.add_hint(var, table[e] == t)


def _groups(
    solver: cp_model.CpSolver, seat: list[list[cp_model.IntVar]], order: list[Entrant]
) -> list[list[Entrant]]:
    tables = len(seat[0])
    return [
        [e for p, e in enumerate(order) if solver.boolean_value(seat[p][t])] for t in range(tables)
    ]


def _with_starter(group: list[Entrant], order: list[Entrant]) -> Table:
    """The one who has started least tonight starts (ties: the better placed); the rest follow
    in the order's sequence."""
    rank = {e.id: index for index, e in enumerate(order)}
    starter = min(group, key=lambda e: (e.starts, rank[e.id]))
    others = sorted((e for e in group if e.id != starter.id), key=lambda e: rank[e.id])
    return Table(players=(starter.id, *(e.id for e in others)), starter=starter.id)
