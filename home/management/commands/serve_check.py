"""Before bin/serve starts anything: is every part the site needs there? One line per problem.

A site that half starts (a web server whose database is down, a worker that cannot write its
queue folder) fails later in ways a club cannot read; this says what to fix, and exits 1.
"""

from __future__ import annotations

import os
import socket
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError, connection

from config.celery import app as celery_app


def var_problem(var_dir: Path) -> str | None:
    try:
        var_dir.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=var_dir):
            pass
    except OSError as exc:
        return (
            f"the data folder {var_dir} is not writable ({exc.strerror}): make it writable "
            "or set CATLEAGUE_VAR_DIR to a folder that is"
        )
    return None


def database_problem() -> str | None:
    try:
        connection.ensure_connection()
    except DatabaseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return f"the database does not answer ({first}): start it, or fix DATABASE_URL"
    finally:
        connection.close()
    return None


def broker_problem() -> str | None:
    url = settings.CELERY_BROKER_URL
    if url.startswith("filesystem://"):
        return None  # the embedded broker is a folder in var/, checked with it
    try:
        with celery_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=3)
    except Exception as exc:  # kombu raises the transport's own error types
        return f"the broker at {url} does not answer ({exc}): start it, or fix CELERY_BROKER_URL"
    return None


def port_problem(host: str, port: int) -> str | None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            return (
                f"cannot listen on {host}:{port} ({exc.strerror}): another program uses the "
                "port; stop it or set PORT to a free one"
                if exc.errno == 98  # EADDRINUSE
                else f"cannot listen on {host}:{port} ({exc.strerror}): set HOST and PORT"
            )
    return None


class Command(BaseCommand):
    help = "Check the data folder, the database, the broker and the port before serving."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
        parser.add_argument("--no-port", action="store_true", help="A worker machine: no web.")

    def handle(self, *args: Any, **options: Any) -> None:
        problems = [
            var_problem(Path(settings.VAR_DIR)),
            database_problem(),
            broker_problem(),
            None if options["no_port"] else port_problem(options["host"], options["port"]),
        ]
        found = [problem for problem in problems if problem]
        if found:
            raise CommandError("; ".join(found))
