from django.core.management.base import BaseCommand, CommandError

from league.models import League
from league.results import services as result_services


class Command(BaseCommand):
    help = "Rebuild a league's ratings from its first game and check the zero-sum invariant."

    def add_arguments(self, parser):
        parser.add_argument("leagues", nargs="*", help="League slugs (default: every league)")
        parser.add_argument("--all", action="store_true", help="Rebuild every league")

    def handle(self, *args, leagues, all, **options):
        if not leagues and not all:
            raise CommandError("Name at least one league slug, or pass --all.")
        queryset = League.objects.all() if all else League.objects.filter(slug__in=leagues)
        missing = set(leagues) - set(queryset.values_list("slug", flat=True))
        if missing:
            raise CommandError(f"No league with slug: {', '.join(sorted(missing))}")
        failed = False
        for league in queryset.order_by("slug"):
            report = result_services.ratings_rebuild(league=league)
            status = "zero-sum OK" if report.zero_sum else "ZERO-SUM VIOLATED"
            self.stdout.write(
                f"{league.slug}: {report.games_rated} rated games, {report.players} players, "
                f"max imbalance per game {report.max_game_imbalance:.2e}, "
                f"total {report.total_imbalance:.2e}: {status}"
            )
            failed |= not report.zero_sum
        if failed:
            raise CommandError("The zero-sum invariant does not hold.")
