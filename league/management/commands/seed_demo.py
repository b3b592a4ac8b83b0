from django.core.management.base import BaseCommand

from league.demo import seed_demo_league


class Command(BaseCommand):
    help = "Create the demo league (idempotent): a login demo/demo-password, players and games."

    def handle(self, *args, **options):
        league = seed_demo_league()
        self.stdout.write(f"Demo league ready: {league.name} ({league.games.count()} games)")
