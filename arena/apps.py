from django.apps import AppConfig


class ArenaConfig(AppConfig):
    name = "arena"
    verbose_name = "Bot arena"

    def ready(self) -> None:
        # Register the Celery tasks in every process (web, worker, commands): services send
        # them by name, so nothing else imports the tasks module.
        from arena import tasks  # noqa: F401
