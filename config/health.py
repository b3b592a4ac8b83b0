"""``/healthz``: whether the service is whole — the database, the broker, and a worker seen lately.

JSON, 200 when every part is fine and 503 otherwise, for load balancers, ``docker compose``
healthchecks and people. It needs no log-in and reads no session, and it answers within a few
seconds whatever is down: the database and the broker are probed on connections of their own
with short timeouts. Workers record that they are alive (``arena.models.WorkerBeat``, every
``ARENA_WORKER_BEAT_S``), which works the same with Redis and the embedded broker.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import time
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.utils import load_backend
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from arena.models import WorkerBeat
from config.celery import app as celery_app

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_S = 2

Part = dict[str, Any]


def _failed(part: str, exc: BaseException) -> Part:
    # The whole error (hosts, ports) goes to the log, not to whoever asks.
    logger.warning("health check: the %s failed: %r", part, exc)
    return {"ok": False, "detail": f"unreachable ({type(exc).__name__})"}


def check_database() -> Part:
    """``SELECT 1`` on a connection of its own, never a request's, with a short timeout."""
    settings_dict = dict(connections[DEFAULT_DB_ALIAS].settings_dict)
    options = dict(settings_dict.get("OPTIONS") or {})
    options.pop("pool", None)
    vendor_timeouts = {"postgresql": "connect_timeout", "mysql": "connect_timeout"}
    key = vendor_timeouts.get(connections[DEFAULT_DB_ALIAS].vendor, "timeout")
    options[key] = PROBE_TIMEOUT_S
    settings_dict["OPTIONS"] = options
    probe = load_backend(settings_dict["ENGINE"]).DatabaseWrapper(settings_dict, DEFAULT_DB_ALIAS)
    begun = time.monotonic()
    try:
        with probe.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DatabaseError as exc:
        return _failed("database", exc)
    finally:
        probe.close()
    return {"ok": True, "detail": f"answered in {(time.monotonic() - begun) * 1000:.0f} ms"}


def check_broker() -> Part:
    """Connect to the broker (Redis: a PING), or for the embedded broker find its folder."""
    options = {**celery_app.conf.broker_transport_options, "socket_timeout": PROBE_TIMEOUT_S}
    begun = time.monotonic()
    try:
        with celery_app.connection_for_write(
            connect_timeout=PROBE_TIMEOUT_S, transport_options=options
        ) as broker:
            broker.ensure_connection(max_retries=0)
            if broker.transport.driver_type == "filesystem":
                folder = str(options.get("data_folder_in", ""))
                if not (os.path.isdir(folder) and os.access(folder, os.W_OK)):
                    return {"ok": False, "detail": "the embedded broker's folder is missing"}
    except Exception as exc:  # kombu and the transports raise many types
        return _failed("broker", exc)
    return {"ok": True, "detail": f"answered in {(time.monotonic() - begun) * 1000:.0f} ms"}


def check_workers() -> Part:
    """A worker said it is alive within ``ARENA_WORKER_SEEN_S``."""
    now = timezone.now()
    within = dt.timedelta(seconds=settings.ARENA_WORKER_SEEN_S)
    try:
        newest = WorkerBeat.objects.order_by("-last_seen").values_list("last_seen", flat=True)
        last_seen = newest.first()
        alive = WorkerBeat.objects.filter(last_seen__gte=now - within).count()
    except DatabaseError as exc:
        return _failed("worker check", exc)
    if last_seen is None:
        return {"ok": False, "detail": "no worker has said it is alive yet"}
    ago = max(0.0, (now - last_seen).total_seconds())
    return {
        "ok": alive > 0,
        "detail": (
            f"{alive} worker(s) seen in the last {within.total_seconds():.0f} s; "
            f"the newest {ago:.0f} s ago"
        ),
    }


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    database = check_database()
    parts = {
        "database": database,
        "broker": check_broker(),
        "worker": (
            check_workers()
            if database["ok"]
            else {"ok": False, "detail": "unknown while the database is down"}
        ),
    }
    ok = all(part["ok"] for part in parts.values())
    return JsonResponse({"ok": ok, **parts}, status=200 if ok else 503)
