"""python manage.py play BOT_OR_BUILTIN... --seed N [--games K] [--game G] [--option K=V] [--sandbox MODE]

Cat Lady expansion setups: ``--option edition=box-of-treats-placeholder`` (2-6 seats),
``--option shared_goals=true``, ``--option solitaire=true`` with seats ``BOT cat-player``.

Plays local matches through the same sandbox and runner the arena's workers use, so bot
authors test exactly what the arena runs. A bot is a ``.py`` file; anything else names a
built-in strategy. With ``--games K`` the seeds are N, N+1, ... N+K-1. The starter kit's
``play.py`` is the same command without Django (both are ``arena.localplay``).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from arena.localplay import ARGUMENTS, LocalPlayError, add_arguments, play


class Command(BaseCommand):
    help = "Play local matches between bot files and built-in strategies through the arena sandbox."

    def add_arguments(self, parser: CommandParser) -> None:
        add_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            play(
                **{name: options[name] for name in ARGUMENTS},
                say=self.stdout.write,
                warn=lambda text: self.stderr.write(self.style.WARNING(text)),
            )
        except LocalPlayError as exc:
            raise CommandError(str(exc)) from None
