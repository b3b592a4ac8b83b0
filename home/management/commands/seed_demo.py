from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from arena.demo import seed_demo_bots, seed_demo_matches
from league.demo import seed_demo_league


class Command(BaseCommand):
    help = (
        "Create the demo league and demo arena matches (idempotent): a login "
        "demo/demo-password, players, games and house-bot matches to replay."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        league = seed_demo_league()
        self.stdout.write(f"Demo league ready: {league.name} ({league.games.count()} games)")
        demo_user = get_user_model().objects.get(username="demo")
        matches = seed_demo_matches(by=demo_user)
        self.stdout.write(f"Demo arena matches ready: {len(matches)} house-bot matches to replay")
        bots = seed_demo_bots(by=demo_user)
        self.stdout.write(
            f"Demo bots: {', '.join(b.name for b in bots)} (validated by the "
            "arena's worker, then on the ladders)"
        )
