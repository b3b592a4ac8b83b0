"""Gauntlets: a new version of a bot that already has an active one plays, after validation,
``ARENA_GAUNTLET_DEALS`` deals with the seats rotated against the version it would replace and
its game's two strongest house bots (Cat Lady: ``greedy`` and ``mcts`` at ``MCTS_STRENGTH``;
Cantankerous Cats: ``greedy`` and ``random``), off the ladder; its owner then
promotes it or keeps the old one, or lets the rule "promote when not worse" decide.

Gauntlet matches are ordinary arena matches (``Match.Kind.GAUNTLET``) and change no rating. A
match the arena could not play (failed) is left out of the counts: never a loss. Ratings belong
to the version that plays: a promoted version gets its own ladder entries, from the start.

The deals are queued ``ARENA_GAUNTLET_DEALS_AT_ONCE`` at a time, the next as one is over, so a
new version's 72 matches never stand in the queue ahead of everyone's challenges and ladder
matches; once the owner keeps the old version, no further deal is queued.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from arena.common import SeatInput, match_create
from arena.gauntlet.selectors import (
    HOUSE_OPPONENTS,
    SEATINGS,
    against_replaced,
    gauntlet_opponents,
    gauntlet_tallies,
    open_deal_count,
    open_matches,
)
from arena.models import Bot, BotVersion, Gauntlet, GauntletMatch, Ladder, LadderEntry, Match

if TYPE_CHECKING:
    from django.contrib.auth.models import User

Opponent = GauntletMatch.Opponent

# House mcts plays at the live tables' "medium": 50 playouts a move (arena.live.strength).
MCTS_STRENGTH = "medium"


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The gauntlet's deals, all drawn from its own seed.

    >>> deal_seeds(7, 3) == deal_seeds(7, 3) != deal_seeds(8, 3)
    True
    """
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(deals)]


def matches_per_gauntlet(deals: int) -> int:
    """Deals x seat rotations x opponents (the replaced version and two house bots): 12 deals
    make 72 matches."""
    return deals * SEATINGS * (1 + HOUSE_OPPONENTS)


def _opponent_seat(opponent: str, replaces: BotVersion) -> SeatInput:
    if opponent == Opponent.REPLACED:
        return SeatInput(version=replaces)
    return SeatInput(builtin=opponent)


@transaction.atomic
def gauntlet_create(
    *, version: BotVersion, replaces: BotVersion, seed: int | None = None
) -> Gauntlet:
    """Put ``version`` on trial and queue its first deals (see the module's note)."""
    version.status = BotVersion.Status.TRIAL
    version.waiting_reason = ""
    version.save(update_fields=["status", "waiting_reason"])
    gauntlet = Gauntlet.objects.create(
        version=version,
        replaces=replaces,
        seed=random.SystemRandom().randrange(2**31) if seed is None else seed,
        deals=settings.ARENA_GAUNTLET_DEALS,
        mcts_strength=MCTS_STRENGTH,
    )
    _queue_next_deals(gauntlet)
    return gauntlet


def _queue_next_deals(gauntlet: Gauntlet) -> None:
    """Queue deals until ``ARENA_GAUNTLET_DEALS_AT_ONCE`` of them are open, or every deal is
    queued, or the owner kept the old version."""
    if gauntlet.decision == Gauntlet.Decision.KEPT:
        return
    queued = GauntletMatch.objects.filter(gauntlet=gauntlet).aggregate(last=Max("deal"))["last"]
    next_deal = 0 if queued is None else queued + 1
    open_deals = open_deal_count(gauntlet)
    seeds = deal_seeds(gauntlet.seed, gauntlet.deals)
    while next_deal < gauntlet.deals and open_deals < settings.ARENA_GAUNTLET_DEALS_AT_ONCE:
        _queue_deal(gauntlet, next_deal, seeds[next_deal])
        next_deal += 1
        open_deals += 1


def _queue_deal(gauntlet: Gauntlet, deal: int, deal_seed: int) -> None:
    """The deal's six matches: each opponent, from both seats, in one duplicate set (none of
    them shows the deal before all of them are over)."""
    mine = SeatInput(version=gauntlet.version)
    for opponent in gauntlet_opponents(gauntlet.version.bot.game):
        theirs = _opponent_seat(opponent, gauntlet.replaces)
        for seats in ([mine, theirs], [theirs, mine]):
            match = match_create(
                kind=Match.Kind.GAUNTLET,
                seats=seats,
                seed=deal_seed,
                duplicate_set=f"gauntlet-{gauntlet.pk}-deal-{deal}",
                game=gauntlet.version.bot.game,
            )
            if opponent == Opponent.MCTS:
                match.seats.filter(builtin="mcts").update(strength=MCTS_STRENGTH)
            GauntletMatch.objects.create(
                gauntlet=gauntlet, match=match, opponent=opponent, deal=deal
            )


def _pending(gauntlet: Gauntlet, by: User) -> Gauntlet:
    """The gauntlet, locked, if ``by`` owns its bot (else PermissionDenied) and it is still
    undecided (else a ValidationError)."""
    gauntlet = _locked(gauntlet)
    if gauntlet.version.bot.owner_id != by.pk:
        raise PermissionDenied("Only the bot's owner decides what its gauntlet leads to.")
    if gauntlet.decision != Gauntlet.Decision.PENDING:
        raise ValidationError(
            {"decision": [f"This gauntlet is decided already: {gauntlet.get_decision_display()}."]}
        )
    return gauntlet


def _locked(gauntlet: Gauntlet) -> Gauntlet:
    return (
        Gauntlet.objects.select_for_update(of=("self",))
        .select_related("version__bot", "replaces")
        .get(pk=gauntlet.pk)
    )


def _decide(gauntlet: Gauntlet, decision: str, by: User | None, note: str = "") -> None:
    gauntlet.decision = decision
    gauntlet.decided_by = by
    gauntlet.decided_at = timezone.now()
    gauntlet.decision_note = note
    gauntlet.save(update_fields=["decision", "decided_by", "decided_at", "decision_note"])


def _promote(gauntlet: Gauntlet) -> None:
    """The version becomes its bot's active one, with ladder entries of its own (each version
    keeps its own rating); the version active until now retires."""
    version = gauntlet.version
    bot = Bot.objects.select_for_update().get(pk=version.bot_id)
    if bot.active_version_id and bot.active_version_id != version.pk:
        BotVersion.objects.filter(pk=bot.active_version_id).update(status=BotVersion.Status.RETIRED)
    version.status = BotVersion.Status.ACTIVE
    version.save(update_fields=["status"])
    bot.active_version = version
    bot.save(update_fields=["active_version"])
    for ladder in Ladder.objects.filter(game=bot.game, active=True):
        LadderEntry.objects.get_or_create(ladder=ladder, version=version)


@transaction.atomic
def gauntlet_promote(*, gauntlet: Gauntlet, by: User) -> Gauntlet:
    """The owner puts the new version on the ladder now, finished or not."""
    gauntlet = _pending(gauntlet, by)
    _promote(gauntlet)
    _decide(gauntlet, Gauntlet.Decision.PROMOTED, by)
    return gauntlet


@transaction.atomic
def gauntlet_keep(*, gauntlet: Gauntlet, by: User) -> Gauntlet:
    """The owner keeps the old version on the ladder; the new one retires without playing."""
    gauntlet = _pending(gauntlet, by)
    BotVersion.objects.filter(pk=gauntlet.version_id).update(status=BotVersion.Status.RETIRED)
    _decide(gauntlet, Gauntlet.Decision.KEPT, by)
    return gauntlet


@transaction.atomic
def gauntlet_auto_rule(*, gauntlet: Gauntlet, by: User, promote_when_not_worse: bool) -> Gauntlet:
    """Tick or untick "promote when not worse": only before the gauntlet ends."""
    gauntlet = _pending(gauntlet, by)
    if gauntlet.finished:
        raise ValidationError(
            {
                "promote_when_not_worse": [
                    "The gauntlet is over, so the rule can no longer apply: "
                    "promote the new version or keep the old one."
                ]
            }
        )
    gauntlet.promote_when_not_worse = promote_when_not_worse
    gauntlet.save(update_fields=["promote_when_not_worse"])
    return gauntlet


def gauntlet_match_settled(match: Match) -> None:
    """A gauntlet match was recorded or failed (inside that transaction): the next deal is
    queued when one is over; when it was the last match open, the gauntlet ends, and the
    owner's rule, if ticked, decides."""
    game = GauntletMatch.objects.filter(match=match).first()
    if game is None:
        return
    gauntlet = _locked(game.gauntlet)
    if gauntlet.finished:
        return
    _queue_next_deals(gauntlet)
    if open_matches(gauntlet):
        return
    gauntlet.finished_at = timezone.now()
    gauntlet.save(update_fields=["finished_at"])
    if gauntlet.promote_when_not_worse and gauntlet.decision == Gauntlet.Decision.PENDING:
        _apply_rule(gauntlet)


def _apply_rule(gauntlet: Gauntlet) -> None:
    tally = against_replaced(gauntlet_tallies(gauntlet))
    if tally.interval is None:
        gauntlet.decision_note = (
            f"Not promoted by the rule: no game against {tally.label} could be counted."
        )
        gauntlet.save(update_fields=["decision_note"])
    elif tally.interval.not_worse:
        _promote(gauntlet)
        _decide(
            gauntlet, Gauntlet.Decision.PROMOTED, None, f"Promoted by the rule: {tally.verdict}."
        )
    else:
        gauntlet.decision_note = f"Not promoted by the rule: {tally.verdict}."
        gauntlet.save(update_fields=["decision_note"])
