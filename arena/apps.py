from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Bot arena"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands): services send
        # them by name, so nothing else imports the tasks module.
        from arena import tasks  # noqa: F401

        # The gauntlet's tables live in their room (arena/models.py is at its size limit).
        from arena.gauntlet import models  # noqa: F401
