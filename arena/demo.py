"""Demo matches between house bots, so a fresh install has replays to show. Idempotent.

House bots are the engine's own strategies (trusted code), so these matches are played here,
in this process, with no sandbox: `bin/serve` works on a machine without bubblewrap.
"""

from __future__ import annotations

from pathlib import Path

from django.db import transaction

from arena.common import SeatInput, match_create
from arena.matches.services import match_record
from arena.models import Bot, Match
from arena.runner import run_match
from arena.submissions.services import bot_create

BOTKIT = Path(__file__).resolve().parent / "botkit"

# (game, seats, seed, options): a base 4-player game, a 2-player game, the placeholder
# Box of Treats deck at 5 players and Cantankerous Cats on its demo deck.
DEMO_MATCHES = (
    ("cat-lady", ("greedy", "random", "greedy", "random"), 7, None),
    ("cat-lady", ("greedy", "random"), 11, None),
    (
        "cat-lady",
        ("greedy", "random", "random", "random", "random"),
        5,
        {"edition": "box-of-treats-placeholder"},
    ),
    ("cantankerous-cats", ("greedy", "random", "random"), 3, None),
)


def seed_demo_matches(*, by) -> list[Match]:
    """Play and record the demo matches once; later calls return the ones already there."""
    existing = list(
        Match.objects.filter(
            kind=Match.Kind.CHALLENGE, requested_by=by, status=Match.Status.FINISHED
        ).order_by("pk")
    )
    if existing:
        return existing
    matches = []
    for game, seats, seed, options in DEMO_MATCHES:
        with transaction.atomic():
            match = match_create(
                kind=Match.Kind.CHALLENGE,
                game=game,
                seed=seed,
                requested_by=by,
                options=options,
                seats=[SeatInput(builtin=name) for name in seats],
            )
            # Recorded before the queued task runs, so the task finds it finished and stops.
            log = run_match(game=game, seed=seed, bots=list(seats), options=options)
            match_record(match_id=match.pk, log=log)
        matches.append(Match.objects.get(pk=match.pk))
    return matches


# (name, game, file in arena/botkit, description): opponents for the first bots people upload,
# so the ladders play as soon as one more bot joins.
DEMO_BOTS = (
    (
        "demo-random-a",
        "cat-lady",
        "starter_bot.py",
        "The starter bot (random legal moves), added by seed_demo so the ladders have opponents.",
    ),
    (
        "demo-random-b",
        "cat-lady",
        "starter_bot.py",
        "The starter bot again, so the 2-player ladder plays from the start.",
    ),
    (
        "demo-cantankerous",
        "cantankerous-cats",
        "cantankerous_starter_bot.py",
        "The Cantankerous Cats starter bot, added by seed_demo.",
    ),
)


def seed_demo_bots(*, by) -> list[Bot]:
    """Upload the demo bots once; each is validated by the arena's worker like any upload."""
    bots = []
    for name, game, filename, description in DEMO_BOTS:
        bot = Bot.objects.filter(name=name).first()
        if bot is None:
            bot = bot_create(
                owner=by,
                name=name,
                game=game,
                description=description,
                source=(BOTKIT / filename).read_text(),
            )
        bots.append(bot)
    return bots
