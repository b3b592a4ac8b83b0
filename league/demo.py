"""A small demo league so a fresh install has something to show. Idempotent."""

from __future__ import annotations

import datetime as dt
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from league.clubs import services
from league.models import League
from league.results import checks
from league.results import services as result_services

DEMO_SLUG = "demo-club"
DEMO_PLAYERS = ["Agatha", "Bruno", "Chidi", "Dora", "Emeka", "Fumiko", "Gus", "Hana"]


@transaction.atomic
def seed_demo_league(*, games: int = 40, seed: int = 2017) -> League:
    existing = League.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing
    User = get_user_model()
    organiser = User.objects.filter(username="demo").first()
    if organiser is None:
        organiser = User.objects.create_superuser("demo", "demo@example.org", "demo-password")
    league = services.league_create(
        name="Demo Cat Club",
        slug=DEMO_SLUG,
        game="cat-lady",
        by=organiser,
        description="A demo league of Cat Lady games, created by bin/serve.",
    )
    players = []
    for name in DEMO_PLAYERS:
        # The demo's own guests: names are unique per league, so an "Agatha" elsewhere on the
        # site (perhaps someone's login) is not pulled into the demo.
        players.append(services.guest_add(league=league, name=name, by=organiser).player)
    today = timezone.localdate()
    services.season_create(
        league=league,
        name=f"{today.year} season",
        starts_on=dt.date(today.year, 1, 1),
        ends_on=dt.date(today.year, 12, 31),
        by=organiser,
    )
    rng = random.Random(seed)
    for index in range(games):
        table = rng.sample(players, rng.randint(2, 4))
        played_on = today - dt.timedelta(days=2 * (games - index))
        participants = []
        for seat, player in enumerate(table, start=1):
            participants.append(
                checks.ParticipantInput(
                    player_id=player.pk,
                    seat=seat,
                    result={"total_vp": rng.randint(12, 45), "fed_cats": rng.randint(2, 7)},
                )
            )
        try:
            result_services.game_record(
                league=league,
                participants=participants,
                played_on=played_on,
                logged_by=organiser,
                edition="base",
                place="Club room",
            )
        except Exception:
            # A random table can tie on VP and fed cats; such a game is just skipped.
            continue
    return league
