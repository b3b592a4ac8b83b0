"""Demo matches between house bots, so a fresh install has replays to show. Idempotent.

House bots are the engine's own strategies (trusted code), so these matches are played here,
in this process, with no sandbox: `bin/serve` works on a machine without bubblewrap.
"""

from __future__ import annotations

from django.db import transaction

from arena import services
from arena.models import Match
from arena.runner import run_match

# (game, seats, seed, options): a base 4-player game, a 2-player game, the placeholder
# Box of Treats deck at 5 players and Cantankerous Cats on its demo deck.
DEMO_MATCHES = (
    ("cat-lady", ("greedy", "random", "greedy", "random"), 7, None),
    ("cat-lady", ("greedy", "random"), 11, None),
    ("cat-lady", ("greedy", "random", "random", "random", "random"), 5,
     {"edition": "box-of-treats-placeholder"}),
    ("cantankerous-cats", ("greedy", "random", "random"), 3, None),
)


def seed_demo_matches(*, by) -> list[Match]:
    """Play and record the demo matches once; later calls return the ones already there."""
    existing = list(Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=by,
                                         status=Match.Status.FINISHED).order_by("pk"))
    if existing:
        return existing
    matches = []
    for game, seats, seed, options in DEMO_MATCHES:
        with transaction.atomic():
            match = services.match_create(
                kind=Match.Kind.CHALLENGE, game=game, seed=seed, requested_by=by, options=options,
                seats=[services.SeatInput(builtin=name) for name in seats],
            )
            # Recorded before the queued task runs, so the task finds it finished and stops.
            log = run_match(game=game, seed=seed, bots=list(seats), options=options)
            services.match_record(match_id=match.pk, log=log)
        matches.append(Match.objects.get(pk=match.pk))
    return matches
