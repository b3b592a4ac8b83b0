"""Import a BG Stats export into a league from the command line: the same preview and import
as the organisers' page (`league.interop.services`)."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from league.interop import reading
from league.interop import services as bgstats_import
from league.models import League


class Command(BaseCommand):
    help = (
        "Import the plays of a BG Stats export (its .json file) into a league. BG Stats players "
        "are matched to league members of the same name; --map names the others, --new-guests "
        "adds the rest as guests. --dry-run shows what would be imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("league", help="The league's slug")
        parser.add_argument("file", help="The BG Stats export (.json)")
        parser.add_argument("--user", required=True, help="The organiser who imports (username)")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="BGSTATS=PLAYER",
            help="A BG Stats player's name and the league member they are (repeat as needed)",
        )
        parser.add_argument(
            "--new-guests", action="store_true", help="Add unmatched BG Stats players as guests"
        )
        parser.add_argument("--dry-run", action="store_true", help="Show the plan; write nothing")

    def handle(self, *args, league, file, user, map, new_guests, dry_run, **options):
        found_league = League.objects.filter(slug=league).first()
        if found_league is None:
            raise CommandError(f"No league with slug {league!r}.")
        by = get_user_model().objects.filter(username=user).first()
        if by is None:
            raise CommandError(f"No user called {user!r}.")
        try:
            export = reading.parse_export(Path(file).read_bytes())
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}.") from exc
        except reading.BGStatsError as exc:
            raise CommandError(f"{file} is not a usable BG Stats export:\n{exc}") from exc
        preview = bgstats_import.preview(league=found_league, export=export)
        self._report(preview)
        members = {
            m.player.name.casefold(): m.player
            for m in found_league.memberships.select_related("player")
        }
        named = {}
        for pair in map:
            bg_name, sep, player_name = pair.partition("=")
            if not sep or player_name.strip().casefold() not in members:
                raise CommandError(f"--map {pair!r}: give BGSTATS=PLAYER, PLAYER a league member.")
            named[bg_name.strip().casefold()] = members[player_name.strip().casefold()].pk
        mapping: dict[int, int | None] = {}
        missing = []
        for match in preview.players:
            key = match.name.casefold()
            if key in named:
                mapping[match.ref] = named[key]
            elif key in members:
                mapping[match.ref] = members[key].pk
            elif new_guests:
                mapping[match.ref] = None
            else:
                missing.append(match.name)
        if missing:
            raise CommandError(
                "No league member for: " + ", ".join(missing) + ". Use --map or --new-guests."
            )
        if dry_run:
            self.stdout.write("Dry run: nothing imported.")
            return
        try:
            result = bgstats_import.import_plays(
                league=found_league, export=export, mapping=mapping, by=by
            )
        except ValidationError as exc:
            raise CommandError("Nothing imported: " + " ".join(exc.messages)) from exc
        self.stdout.write(
            f"Imported {result.created} games into {found_league.slug}"
            + (f"; new guests: {', '.join(result.guests)}" if result.guests else "")
            + "."
        )

    def _report(self, preview) -> None:
        self.stdout.write(
            f"{len(preview.new)} plays to import, {len(preview.already)} imported before, "
            f"{len(preview.plan.refused)} left out, {preview.plan.ignored} ignored in BG Stats."
        )
        for refused in preview.plan.refused:
            when = f"{refused.played_at:%Y-%m-%d}" if refused.played_at else "no date"
            self.stdout.write(
                f"  left out {refused.uuid or f'play {refused.index + 1}'} ({when}): "
                + " ".join(refused.reasons)
            )
        for match in preview.players:
            if match.clash:
                self.stdout.write(f"  {match.clash} A new guest would be {match.guest_name!r}.")
        for name, count in preview.plan.skipped_games.items():
            self.stdout.write(f"  skipped {count} plays of {name}")
