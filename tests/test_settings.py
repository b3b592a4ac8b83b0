"""Settings read from the environment: each bad value stops start-up with a message."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/14"


def _django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    program = ("import django, os\nos.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
               f"django.setup()\n{code}")
    return subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **env}, timeout=60)


def test_a_cache_url_that_is_not_redis_is_refused_at_start_up():
    run = _django("", CACHE_URL="memcached://127.0.0.1:11211")
    assert run.returncode != 0
    assert "CACHE_URL must be a redis:// URL" in run.stderr


def test_web_processes_with_the_same_cache_url_share_one_cache():
    key = f"settings-test-{uuid.uuid4().hex}"
    write = _django(f"from django.core.cache import cache\ncache.set({key!r}, 'shared', 60)",
                    CACHE_URL=REDIS)
    assert write.returncode == 0, write.stderr
    read = _django(f"from django.core.cache import cache\nprint(cache.get({key!r}))\n"
                   f"cache.delete({key!r})", CACHE_URL=REDIS)
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == "shared"


def test_without_a_cache_url_each_process_has_its_own_cache():
    key = f"settings-test-{uuid.uuid4().hex}"
    _django(f"from django.core.cache import cache\ncache.set({key!r}, 'mine', 60)", CACHE_URL="")
    read = _django(f"from django.core.cache import cache\nprint(cache.get({key!r}))", CACHE_URL="")
    assert read.stdout.strip() == "None"
