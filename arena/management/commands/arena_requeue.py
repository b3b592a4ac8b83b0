"""python manage.py arena_requeue [--dry-run]

Validates again the bot versions the arena itself failed, never the bots:
- versions rejected by an earlier release because their validation match could not be played
  (no sandbox on the worker), when they are still their bot's latest version;
- versions still validating whose validation match failed for the arena's reasons.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser

from arena.submissions.services import version_revalidate, versions_failed_by_the_arena


class Command(BaseCommand):
    help = "Validate again the bot versions that failed validation for infrastructure reasons."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="list them, change nothing")

    def handle(self, *args: object, dry_run: bool = False, **options: object) -> None:
        versions = versions_failed_by_the_arena()
        for version in versions:
            if not dry_run:
                version_revalidate(version=version)
            self.stdout.write(f"{'would re-queue' if dry_run else 're-queued'} {version}")
        self.stdout.write(f"{len(versions)} version(s) {'to re-queue' if dry_run else 're-queued'}")
