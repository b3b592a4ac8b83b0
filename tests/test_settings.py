"""Settings read from the environment: each bad value stops start-up with a message."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
REDIS = os.environ.get("CELERY_BROKER_URL") or "redis://127.0.0.1:6379/14"


def _django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    program = (
        "import django, os\nos.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'\n"
        f"django.setup()\n{code}"
    )
    return subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=60,
    )


def test_a_cache_url_that_is_not_redis_is_refused_at_start_up():
    run = _django("", CACHE_URL="memcached://127.0.0.1:11211")
    assert run.returncode != 0
    assert "CACHE_URL must be a redis:// URL" in run.stderr


def test_web_processes_with_the_same_cache_url_share_one_cache():
    key = f"settings-test-{uuid.uuid4().hex}"
    write = _django(
        f"from django.core.cache import cache\ncache.set({key!r}, 'shared', 60)", CACHE_URL=REDIS
    )
    assert write.returncode == 0, write.stderr
    read = _django(
        f"from django.core.cache import cache\nprint(cache.get({key!r}))\ncache.delete({key!r})",
        CACHE_URL=REDIS,
    )
    assert read.returncode == 0, read.stderr
    assert read.stdout.strip() == "shared"


def test_without_a_cache_url_each_process_has_its_own_cache():
    key = f"settings-test-{uuid.uuid4().hex}"
    _django(f"from django.core.cache import cache\ncache.set({key!r}, 'mine', 60)", CACHE_URL="")
    read = _django(f"from django.core.cache import cache\nprint(cache.get({key!r}))", CACHE_URL="")
    assert read.stdout.strip() == "None"


# --- the secret key and the deployment settings ------------------------------------------------

STRONG_KEY = "k3y-" + "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN"
# The HTTPS settings .env.example documents for a deployment behind a TLS proxy.
DEPLOYMENT = {
    "DJANGO_DEBUG": "0",
    "DJANGO_SECRET_KEY": STRONG_KEY,
    "DJANGO_ALLOWED_HOSTS": "catleague.example.org",
    "DJANGO_SECURE_SSL_REDIRECT": "1",
    "DJANGO_SESSION_COOKIE_SECURE": "1",
    "DJANGO_CSRF_COOKIE_SECURE": "1",
    "DJANGO_SECURE_HSTS_SECONDS": "31536000",
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "1",
    "DJANGO_SECURE_HSTS_PRELOAD": "1",
    "DJANGO_BEHIND_TLS_PROXY": "1",
    "DJANGO_NUM_PROXIES": "1",
}


def _plain_env(**env: str) -> dict[str, str]:
    """The environment without the suite's own DJANGO_ settings (a test key,
    DJANGO_ALLOW_ASYNC_UNSAFE from the browser tests), which would change what start-up and the
    deployment check see, plus ``env``."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}, **env}


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=_plain_env(**env),
        timeout=120,
    )


def test_without_a_key_the_first_start_makes_one_in_var_and_later_starts_reuse_it(tmp_path):
    var = tmp_path / "var"
    show = "from django.conf import settings\nprint(settings.SECRET_KEY)"
    first = _django(show, DJANGO_SECRET_KEY="", CATLEAGUE_VAR_DIR=str(var))
    assert first.returncode == 0, first.stderr
    key_file = var / "secret_key"
    assert (key_file.stat().st_mode & 0o777) == 0o600  # its owner's alone
    assert first.stdout.strip() == key_file.read_text().strip() and len(first.stdout.strip()) >= 50
    again = _django(show, DJANGO_SECRET_KEY="", CATLEAGUE_VAR_DIR=str(var))
    assert again.stdout == first.stdout
    other = _django(show, DJANGO_SECRET_KEY="", CATLEAGUE_VAR_DIR=str(tmp_path / "v2"))
    assert other.stdout != first.stdout  # every server its own key


def test_a_var_folder_that_cannot_hold_the_key_is_one_line_and_a_non_zero_exit(tmp_path):
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    run = _manage("check", CATLEAGUE_VAR_DIR=str(blocked))
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "DJANGO_SECRET_KEY" in run.stderr


def test_a_configuration_problem_is_one_line_without_a_traceback():
    run = _manage("check", DJANGO_DEBUG="perhaps")
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert run.stderr.strip() == (
        "catleague: DJANGO_DEBUG='perhaps' is not a boolean (use 1/0, true/false, yes/no)"
    )


@pytest.mark.parametrize(
    "key", ["change-me", "short-key", "a" * 60, "django-insecure-" + "x1y2z3" * 10]
)
def test_with_debug_off_a_placeholder_or_weak_key_is_refused(key):
    run = _manage("check", DJANGO_DEBUG="0", DJANGO_SECRET_KEY=key)
    assert run.returncode != 0 and "too weak or a placeholder" in run.stderr


def test_check_deploy_passes_on_the_documented_production_settings():
    run = _manage("check", "--deploy", "--fail-level", "WARNING", **DEPLOYMENT)
    assert run.returncode == 0, run.stderr
    assert "no issues" in run.stdout


def test_env_example_documents_the_deployment_settings():
    documented = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    for name, value in DEPLOYMENT.items():
        if name not in ("DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
            assert documented[name] == value, name
    assert documented["DJANGO_SECRET_KEY"] == ""


def test_docker_compose_requires_a_secret_key():
    compose = (ROOT / "docker-compose.yml").read_text()
    assert "DJANGO_SECRET_KEY: ${DJANGO_SECRET_KEY:?" in compose
    assert "change-me" not in compose


def test_the_site_hashes_passwords_slowly_though_the_tests_use_a_fast_hasher():
    # tests/conftest.py swaps in MD5 for speed; the site itself must keep Django's PBKDF2.
    run = _django(
        "from django.contrib.auth.hashers import get_hasher\nprint(get_hasher().algorithm)"
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "pbkdf2_sha256"


def test_the_tests_hash_with_the_fast_hasher():
    from django.contrib.auth.hashers import get_hasher

    assert get_hasher().algorithm == "md5"
