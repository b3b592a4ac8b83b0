"""python manage.py arena_check_sandbox: which sandbox this machine gives bots, or why none.

Exits 0 when a safe mode works, 1 when none does (with what to install or run).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from arena.sandbox import SandboxUnavailable, detect_mode


class Command(BaseCommand):
    help = "Say which bot sandbox works on this machine, or what is missing for one."

    def handle(self, *args: object, **options: object) -> None:
        try:
            mode = detect_mode()
        except SandboxUnavailable as exc:
            raise CommandError(
                f"no bot sandbox works here: {exc.summary}.\n{exc}\n"
                "Uploaded bots wait (they are not rejected) until a worker can run them; "
                "see docs/sandbox.md."
            ) from None
        self.stdout.write(f"bot sandbox: {mode}")
