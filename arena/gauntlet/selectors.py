"""What a gauntlet page reads: per opponent, the games played so far, the wins (finishing ahead
of that opponent; a tie counts half), the win rate and its 95% Wilson interval, in words."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch

from arena.gauntlet.interval import Interval, verdict, wilson
from arena.models import Bot, Gauntlet, GauntletMatch, Match, MatchSeat, house_label
from engine.strategies import names as strategy_names

Opponent = GauntletMatch.Opponent
SEATINGS = 2  # each deal from both seats: head to head
# The house bots a gauntlet can meet, strongest first: it meets the two strongest its game has
# (Cat Lady: mcts and greedy; Cantankerous Cats, which has no mcts: greedy and random).
HOUSE_BY_STRENGTH = (Opponent.MCTS, Opponent.GREEDY, Opponent.RANDOM)
HOUSE_OPPONENTS = 2


def gauntlet_opponents(game: str) -> list[str]:
    """Who a gauntlet in ``game`` plays, in the order its page shows them: the replaced version,
    then the house bots.

    >>> gauntlet_opponents("cat-lady"), gauntlet_opponents("cantankerous-cats")
    (['replaced', 'greedy', 'mcts'], ['replaced', 'greedy', 'random'])
    """
    offered = set(strategy_names(game))
    house = [o for o in HOUSE_BY_STRENGTH if o in offered][:HOUSE_OPPONENTS]
    return [o for o in Opponent.values if o == Opponent.REPLACED or o in house]


@dataclass(frozen=True)
class OpponentTally:
    opponent: str  # GauntletMatch.Opponent
    label: str  # "v3", "house:greedy", "house:mcts · medium"
    total: int  # the matches the gauntlet plays against it
    played: int  # finished: the ones counted
    failed: int  # the arena could not play them: never counted, never a loss
    wins: float
    interval: Interval | None

    @property
    def rate(self) -> float | None:
        return self.wins / self.played if self.played else None

    @property
    def bar(self) -> tuple[float, float] | None:
        """Where the interval lies on a 0-100% bar: its left end and its width, in percent."""
        if self.interval is None:
            return None
        return 100 * self.interval.low, 100 * (self.interval.high - self.interval.low)

    @property
    def verdict(self) -> str:
        if self.interval is None:
            return "No games counted yet."
        return verdict(self.interval, self.label)


def opponent_label(gauntlet: Gauntlet, opponent: str) -> str:
    if opponent == Opponent.REPLACED:
        return f"v{gauntlet.replaces.number}"
    if opponent == Opponent.MCTS:
        return house_label("mcts", gauntlet.mcts_strength)
    return house_label(opponent, "")


def _score(match: Match, version_id: int) -> float:
    """1 if the version finished ahead of its opponent, ½ for a tie, 0 behind."""
    seats = list(match.seats.all())
    mine = next(s for s in seats if s.version_id == version_id)
    other = next(s for s in seats if s.pk != mine.pk)
    assert mine.rank is not None and other.rank is not None  # recorded matches are ranked
    if mine.rank == other.rank:
        return 0.5
    return 1.0 if mine.rank < other.rank else 0.0


def gauntlet_tallies(gauntlet: Gauntlet) -> list[OpponentTally]:
    """One tally per opponent, in the order the page shows them (the replaced version first)."""
    games = GauntletMatch.objects.filter(gauntlet=gauntlet).select_related("match")
    games = games.prefetch_related(
        Prefetch("match__seats", queryset=MatchSeat.objects.order_by("seat"))
    ).defer("match__log", "match__limits")
    total: dict[str, int] = defaultdict(int)
    played: dict[str, int] = defaultdict(int)
    failed: dict[str, int] = defaultdict(int)
    wins: dict[str, float] = defaultdict(float)
    for game in games:
        total[game.opponent] += 1
        if game.match.status == Match.Status.FINISHED:
            played[game.opponent] += 1
            wins[game.opponent] += _score(game.match, gauntlet.version_id)
        elif game.match.status == Match.Status.FAILED:
            failed[game.opponent] += 1
    return [
        OpponentTally(
            opponent=opponent,
            label=opponent_label(gauntlet, opponent),
            # Deals are queued a few at a time: the total is what the gauntlet will play, all
            # of its deals unless the owner kept the old version (no deal is queued after).
            total=total[opponent]
            if gauntlet.decision == Gauntlet.Decision.KEPT
            else gauntlet.deals * SEATINGS,
            played=played[opponent],
            failed=failed[opponent],
            wins=wins[opponent],
            interval=wilson(wins[opponent], played[opponent]) if played[opponent] else None,
        )
        for opponent in gauntlet_opponents(gauntlet.version.bot.game)
    ]


def against_replaced(tallies: list[OpponentTally]) -> OpponentTally:
    return next(t for t in tallies if t.opponent == Opponent.REPLACED)


def gauntlet_of(bot_name: str, number: int) -> Gauntlet | None:
    return (
        Gauntlet.objects.select_related("version__bot__owner", "replaces", "decided_by")
        .filter(version__bot__name=bot_name, version__number=number)
        .first()
    )


def bot_gauntlets(bot: Bot) -> list[Gauntlet]:
    """The bot's gauntlets, newest first, for its page's links."""
    return list(Gauntlet.objects.filter(version__bot=bot).select_related("version", "replaces"))


def open_matches(gauntlet: Gauntlet) -> int:
    return Match.objects.filter(
        gauntlet_game__gauntlet=gauntlet, status__in=Match.OPEN_STATUSES
    ).count()


def open_deal_count(gauntlet: Gauntlet) -> int:
    """The deals with a match still to play."""
    return (
        GauntletMatch.objects.filter(gauntlet=gauntlet, match__status__in=Match.OPEN_STATUSES)
        .values("deal")
        .distinct()
        .count()
    )
