"""Reads of a game night: its rounds and tables, tonight's points and standings.

Tonight's points: at each finished table a player scores the share of their tablemates they
finished ahead of (a tie counts half), so winning a table is worth 1 whatever its size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from league.models import Game, GameNight, NightRound, NightSeat, NightTable, Participant, Player


@dataclass
class NightScore:
    player_id: int
    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    starts: int = 0
    sat_out: int = 0
    present: bool = False
    position: int = 0


@dataclass(frozen=True)
class TableView:
    table: NightTable
    seats: list[NightSeat]
    # Finishing order with tonight's points, once the table's game is entered.
    results: list[tuple[Participant, float]] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.table.game_id is not None


@dataclass(frozen=True)
class RoundView:
    round: NightRound
    tables: list[TableView]
    sitting_out: list[Player]

    @property
    def finished(self) -> bool:
        return all(t.finished for t in self.tables)

    @property
    def has_results(self) -> bool:
        return any(t.finished for t in self.tables)


@dataclass(frozen=True)
class NightView:
    night: GameNight
    rounds: list[RoundView]
    standings: list[NightScore]
    met: set[frozenset[int]]  # pairs who shared a table tonight

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @property
    def latest(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def complete(self) -> bool:
        """Every round drawn and every table's result in."""
        return len(self.rounds) >= self.night.rounds and all(r.finished for r in self.rounds)

    @property
    def may_undo(self) -> bool:
        return self.latest is not None and not self.latest.has_results

    @property
    def waiting(self) -> int:
        """How many of tonight's games wait for confirmation (an organiser confirms them all)."""
        return sum(
            1
            for r in self.rounds
            for t in r.tables
            if t.table.game is not None and t.table.game.status == Game.Status.PENDING
        )

    @property
    def may_draw(self) -> bool:
        return self.next_round <= self.night.rounds and all(r.finished for r in self.rounds)


def table_points(participants: list[Participant]) -> dict[int, float]:
    """Each player's share of the tablemates they finished ahead of (ties count half)."""
    others = len(participants) - 1
    if others < 1:
        return {p.player_id: 0.0 for p in participants}
    return {
        p.player_id: sum(
            1.0 if p.rank < o.rank else 0.5 if p.rank == o.rank else 0.0
            for o in participants
            if o is not p
        )
        / others
        for p in participants
    }


def night_view(*, night: GameNight) -> NightView:
    seats = NightSeat.objects.select_related("player").order_by("seat")
    participants = Participant.objects.select_related("player").order_by("rank", "seat")
    tables = NightTable.objects.select_related("game").prefetch_related(
        Prefetch("seats", queryset=seats),
        Prefetch("game__participants", queryset=participants),
    )
    rounds = list(
        night.night_rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=tables.order_by("number")), "sitting_out"
        )
    )
    attendees = list(night.attendees.select_related("player"))
    scores: dict[int, NightScore] = {
        a.player_id: NightScore(a.player_id, a.player.name, present=a.present) for a in attendees
    }
    met: set[frozenset[int]] = set()
    round_views = []
    for night_round in rounds:
        table_views = []
        for table in night_round.tables.all():
            table_seats = list(table.seats.all())
            ids = [s.player_id for s in table_seats]
            met |= {frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :]}
            for s in table_seats:
                score = scores.setdefault(s.player_id, NightScore(s.player_id, s.player.name))
                score.starts += s.seat == 1
            results: list[tuple[Participant, float]] = []
            if table.game is not None:
                played = list(table.game.participants.all())
                points = table_points(played)
                for p in played:
                    score = scores.setdefault(p.player_id, NightScore(p.player_id, p.player.name))
                    score.points += points[p.player_id]
                    score.games += 1
                    score.wins += p.rank == 1
                results = [(p, points[p.player_id]) for p in played]
            table_views.append(TableView(table=table, seats=table_seats, results=results))
        sitting_out = list(night_round.sitting_out.all())
        for player in sitting_out:
            scores.setdefault(player.pk, NightScore(player.pk, player.name)).sat_out += 1
        round_views.append(
            RoundView(round=night_round, tables=table_views, sitting_out=sitting_out)
        )
    standings = sorted(scores.values(), key=lambda s: (-s.points, -s.wins, s.name))
    for index, score in enumerate(standings):
        tied = index and (score.points, score.wins) == (
            standings[index - 1].points,
            standings[index - 1].wins,
        )
        score.position = standings[index - 1].position if tied else index + 1
    return NightView(night=night, rounds=round_views, standings=standings, met=met)


def nights_of(*, league) -> list[GameNight]:
    return list(league.nights.order_by("-played_on", "-id"))
