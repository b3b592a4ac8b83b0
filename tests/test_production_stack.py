"""A production install without Docker, as docs/install.md sets one up: a fresh copy of the
checkout, an env file with the documented keys, the documented set-up commands, then the four
processes the systemd units start (`bin/catleague web`, `worker`, `live-worker`, `beat`) on
PostgreSQL and Redis with debug off, used over HTTP only with the headers a TLS proxy adds,
and stopped as their units stop them.

The fast tests check that the units, docker-compose.yml and the Dockerfile start the same
`bin/catleague` subcommands this stack runs, and that every variable they set is documented."""

from __future__ import annotations

import configparser
import contextlib
import http.cookies
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import psycopg
import pytest
import redis
import yaml

from tests.test_bin_serve import _fresh_copy

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
INSTALL_DOC = ROOT / "docs" / "install.md"
STARTER_BOT = ROOT / "arena" / "botkit" / "starter_bot.py"
# The processes of a site, each started by its systemd unit as `bin/catleague <subcommand>`.
SERVICES = ("web", "worker", "live-worker", "beat")
ENV_FILE = "/etc/catleague/catleague.env"
# The set-up commands of docs/install.md, run here as written (createsuperuser, which asks
# its questions there, gets them from the environment here).
SETUP = (
    "bin/catleague migrate",
    "bin/catleague manage collectstatic --noinput",
    "bin/catleague manage check --deploy --fail-level WARNING",
    "bin/catleague manage arena_check_sandbox",
    "bin/catleague manage createsuperuser",
    "bin/catleague manage seed_demo",
)
ADMIN, ADMIN_PASSWORD = "clubadmin", "a-long-admin-password-for-the-test"
STACK_REDIS_DB = 8  # a Redis database of its own: never another test's queues


# --- what the repository says ---------------------------------------------------------------


def _unit(service: str) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / f"catleague-{service}.service").read_text())
    return parser["Service"]


def _documented_names() -> set[str]:
    return {
        line.split("=", 1)[0]
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    }


def _documented_env_file() -> dict[str, str]:
    """The env file docs/install.md writes (its heredoc), as KEY: value as written."""
    found = re.search(
        rf"cat > {re.escape(ENV_FILE)} <<EOF\n(.*?)\nEOF\n", INSTALL_DOC.read_text(), re.S
    )
    assert found, f"docs/install.md writes no {ENV_FILE}"
    return dict(line.split("=", 1) for line in found.group(1).splitlines())


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def _catleague_calls(command: str | list[str]) -> list[str]:
    """The `bin/catleague ...` invocations of a compose command (plain, or `sh -c "a && b"`)."""
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:2] == ["sh", "-c"]:
        steps = [s.strip().removeprefix("exec ") for s in words[2].split("&&")]
    else:
        steps = [shlex.join(words)]
    return steps


def test_units_compose_and_the_image_start_the_same_bin_catleague_subcommands():
    script = (ROOT / "bin" / "catleague").read_text()
    compose = _compose()["services"]
    for service in SERVICES:
        assert re.search(rf"^    {re.escape(service)}\)$", script, re.M), service
        unit = _unit(service)
        assert unit["ExecStart"] == f"/opt/catleague/bin/catleague {service}"
        assert unit["EnvironmentFile"] == ENV_FILE
        assert unit["WorkingDirectory"] == "/opt/catleague"
        # SIGTERM to gunicorn or celery alone (they stop their own children), as the stack
        # below is stopped; a signal to every process at once could hang a worker.
        assert unit["KillMode"] == "mixed"
        *before, last = _catleague_calls(compose[service]["command"])
        assert last == f"bin/catleague {service}", compose[service]["command"]
        assert all(step == "bin/catleague migrate" for step in before)
    assert 'CMD ["bin/catleague", "web"]' in (ROOT / "Dockerfile").read_text()
    # Bots get a uid each only under a root worker; the web and beat never need root.
    assert _unit("worker").get("User", "root") == "root"
    assert _unit("live-worker").get("User", "root") == "root"
    assert _unit("web")["User"] == _unit("beat")["User"] == "catleague"


def test_every_variable_a_deployment_sets_is_documented_in_env_example():
    documented = _documented_names()
    compose = _compose()
    set_by_compose = set(compose["x-app"]["environment"])
    for service in SERVICES:
        set_by_compose |= set(compose["services"][service].get("environment") or {})
    assert set_by_compose - documented == set()
    assert set(_documented_env_file()) - documented == set()
    image = re.findall(r"^ENV (.*)$", (ROOT / "Dockerfile").read_text(), re.M)
    set_by_image = {pair.split("=", 1)[0] for line in image for pair in line.split()}
    assert set_by_image - {"PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"} - documented == set()
    read_by_script = set(re.findall(r"\$\{([A-Z][A-Z0-9_]*)", (ROOT / "bin/catleague").read_text()))
    assert {name for name in read_by_script if not name.startswith("BASH_")} <= documented


def test_the_documented_commands_are_the_ones_the_stack_runs():
    doc = INSTALL_DOC.read_text()
    for command in SETUP:
        # A line of a command block, or (seed_demo, optional) shown inline.
        assert re.search(rf"^{re.escape(command)}$", doc, re.M) or f"`{command}`" in doc, command
    assert f"export CATLEAGUE_ENV_FILE={ENV_FILE}" in doc
    for service in SERVICES:
        assert f"`bin/catleague {service}`" in doc


def test_systemd_accepts_the_units(tmp_path):
    verify = shutil.which("systemd-analyze")
    if verify is None:
        pytest.skip("systemd-analyze is not installed (apt-get install -y systemd)")
    for unit in UNITS.glob("*.service"):
        # /opt/catleague is where docs/install.md clones; here, this checkout.
        (tmp_path / unit.name).write_text(unit.read_text().replace("/opt/catleague", str(ROOT)))
    run = subprocess.run(
        [verify, "verify", *sorted(str(p) for p in tmp_path.glob("*.service"))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0 and not run.stderr.strip(), run.stderr


def test_bin_catleague_refuses_what_it_does_not_know(tmp_path):
    run = subprocess.run(["bin/catleague", "serve"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2 and "unknown subcommand 'serve'" in run.stderr
    bad = tmp_path / "bad.env"
    bad.write_text("DJANGO_DEBUG=0\nthis is not a setting\n")
    run = subprocess.run(
        ["bin/catleague", "manage", "check"],
        cwd=ROOT,
        env={**os.environ, "CATLEAGUE_ENV_FILE": str(bad)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and f"{bad} line 2 is not KEY=value" in run.stderr


def test_the_env_file_is_read_as_systemd_reads_it_and_set_variables_win(tmp_path):
    env_file = tmp_path / "catleague.env"
    env_file.write_text(
        "# a comment\n\nDEFAULT_FROM_EMAIL=Catleague <club@example.org>\n"
        'TIME_ZONE="Europe/London"\nLOG_LEVEL=DEBUG\n'
    )
    shown = "from django.conf import settings as s; print(s.DEFAULT_FROM_EMAIL, s.TIME_ZONE)"
    base = {k: v for k, v in os.environ.items() if k not in ("TIME_ZONE", "DEFAULT_FROM_EMAIL")}
    run = subprocess.run(
        ["bin/catleague", "manage", "shell", "-v", "0", "-c", shown],
        cwd=ROOT,
        env={**base, "CATLEAGUE_ENV_FILE": str(env_file), "TIME_ZONE": "UTC", "DJANGO_DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Catleague <club@example.org> UTC"


# --- the stack --------------------------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Answer:
    def __init__(self, status: int, headers: Message, body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """A browser or an API client behind the TLS proxy: urllib on 127.0.0.1 with the headers
    the proxy adds (X-Forwarded-Proto, X-Forwarded-For), the cookies kept by hand (they are
    Secure, and the proxy's client speaks https), redirects not followed."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.origin = base.replace("http://", "https://")
        self.cookies: dict[str, http.cookies.Morsel[str]] = {}
        self.token = ""
        self._opener = urllib.request.build_opener(_NoRedirect)

    def request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
        proxied: bool = True,
    ) -> Answer:
        sent = dict(headers or {})
        if proxied:
            sent.update({"X-Forwarded-Proto": "https", "X-Forwarded-For": "127.0.0.1"})
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())
        if self.token:
            sent["Authorization"] = f"Token {self.token}"
        data = None
        if json_body is not None:
            data, sent["Content-Type"] = json.dumps(json_body).encode(), "application/json"
        elif form is not None:
            data = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if method not in ("GET", "HEAD"):
            sent.update({"Origin": self.origin, "Referer": self.origin + path})
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=sent)
        try:
            with self._opener.open(request, timeout=30) as answer:
                result = Answer(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            result = Answer(error.code, error.headers, error.read())
        for header in result.headers.get_all("Set-Cookie") or []:
            jar = http.cookies.SimpleCookie()
            jar.load(header)
            self.cookies.update(jar)
        return result

    def api(self, method: str, path: str, body: Any = None, expect: int = 200) -> Any:
        answer = self.request(method, path, json_body=body)
        assert answer.status == expect, f"{method} {path}: {answer.status} {answer.text[:2000]}"
        return answer.json()

    def csrf_from(self, path: str) -> str:
        page = self.request("GET", path)
        assert page.status == 200, f"GET {path}: {page.status}"
        found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
        assert found, f"no CSRF token on {path}"
        return found.group(1)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def service_env(
    directory: Path, values: dict[str, str], **extra: str
) -> tuple[Path, dict[str, str]]:
    """Write ``values`` to ``directory``/catleague.env; return that file and what systemd gives
    a service reading it: a plain PATH, the settings from the env file only, and ``extra``."""
    env_file = directory / "catleague.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in values.items()))
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "LANG": "C.UTF-8",
        "HOME": str(directory),
        "CATLEAGUE_ENV_FILE": str(env_file),
    }
    return env_file, env | extra


def _server_urls() -> tuple[str, str]:
    """The PostgreSQL server (without a database) and the Redis server (without a db number)
    the suite was given."""
    database = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/catleague")
    broker = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
    if not database.startswith(("postgres://", "postgresql://")) or not broker.startswith(
        "redis://"
    ):
        pytest.fail("the production stack needs PostgreSQL and Redis: run it through bin/test")
    return database.rsplit("/", 1)[0], broker.rsplit("/", 1)[0]


def _timeout_stop_s(service: str) -> float:
    return float(_unit(service)["TimeoutStopSec"])


class Stack:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.clone = directory / "catleague"
        self.clone.mkdir()
        _fresh_copy(self.clone)
        # The virtualenv is this checkout's, linked (bin/_venv.sh would build the same from
        # requirements.txt in a minute or two); a clone never holds one.
        (self.clone / ".venv").symlink_to(ROOT / ".venv")
        pg_server, redis_server = _server_urls()
        self.database = f"catleague_stack_{secrets.token_hex(4)}"
        self.admin_dsn = pg_server.replace("postgres://", "postgresql://", 1) + "/postgres"
        self.redis_url = f"{redis_server}/{STACK_REDIS_DB}"
        self.port = _free_port()
        self.var = directory / "var"
        # The env file of docs/install.md, key for key: the documented values, except where
        # this machine differs (its own database, Redis database, name and port).
        here = {
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            "CATLEAGUE_SITE_URL": f"https://127.0.0.1:{self.port}",
            "DATABASE_URL": f"{pg_server}/{self.database}",
            "CELERY_BROKER_URL": self.redis_url,
            "CACHE_URL": self.redis_url,
            "CATLEAGUE_VAR_DIR": str(self.var),
        }
        documented = _documented_env_file()
        assert set(here) <= set(documented), set(here) - set(documented)
        values = {key: here.get(key, value) for key, value in documented.items()}
        assert not any("$" in value for value in values.values())
        values.update(DJANGO_DEBUG="0", PORT=str(self.port))
        self.env_file, self.env = service_env(directory, values)
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        self.client = Client(f"http://127.0.0.1:{self.port}")
        self._version: dict[str, Any] | None = None

    # set-up and processes

    def create_database(self) -> None:
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.database}"')
        redis.Redis.from_url(self.redis_url).flushdb()

    def drop_database(self) -> None:
        with psycopg.connect(self.admin_dsn, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
        redis.Redis.from_url(self.redis_url).flushdb()

    def run(self, command: str, **extra_env: str) -> str:
        done = subprocess.run(
            shlex.split(command),
            cwd=self.clone,
            env={**self.env, **extra_env},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout

    def start(self, service: str) -> None:
        log = (self.directory / f"{service}.log").open("wb")
        self.processes[service] = subprocess.Popen(
            ["bin/catleague", service],
            cwd=self.clone,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def logs(self) -> str:
        return "".join(
            f"\n--- {s}:\n{(self.directory / f'{s}.log').read_text(errors='replace')[-2500:]}"
            for s in SERVICES
        )

    def wait_for(self, what: str, check: Callable[[], Any], timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for service, process in self.processes.items():
                if process.poll() is not None:
                    pytest.fail(f"{service} exited with {process.returncode}{self.logs()}")
            found = check()
            if found:
                return found
            time.sleep(1)
        pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}{self.logs()}")

    def group(self, service: str) -> list[int]:
        found = subprocess.run(
            ["pgrep", "-g", str(self.processes[service].pid)], capture_output=True, text=True
        )
        return [int(pid) for pid in found.stdout.split()]

    def stop(self) -> dict[str, str]:
        """Stop every process as its unit does (KillMode=mixed): SIGTERM to the main process,
        SIGKILL to its whole group after the unit's TimeoutStopSec, or once it has exited."""
        how: dict[str, str] = {}
        children = {s: self.group(s) for s in self.processes}
        begun = time.monotonic()
        for process in self.processes.values():
            process.send_signal(signal.SIGTERM)
        for service, process in self.processes.items():
            left = _timeout_stop_s(service) - (time.monotonic() - begun)
            try:
                process.wait(timeout=max(left, 0.1))
                how[service] = "stopped"
            except subprocess.TimeoutExpired:
                how[service] = "killed after TimeoutStopSec"
            time.sleep(0.5)
            orphans = subprocess.run(
                ["pgrep", "-g", str(process.pid)], capture_output=True, text=True
            ).stdout.split()
            if orphans and how[service] == "stopped":
                how[service] = f"stopped, leaving {len(orphans)} processes"
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        # Bots run in sessions of their own (bubblewrap) and die with the worker that ran them.
        time.sleep(1)
        left = []
        for service, pids in children.items():
            left += subprocess.run(
                ["pgrep", "-s", str(self.processes[service].pid)], capture_output=True, text=True
            ).stdout.split()
            for pid in pids:
                left += subprocess.run(
                    ["pgrep", "-f", f"catleague-bot-{pid}-"], capture_output=True, text=True
                ).stdout.split()
        left += subprocess.run(
            ["pgrep", "-f", str(self.clone)], capture_output=True, text=True
        ).stdout.split()
        how["left running"] = " ".join(sorted(set(left)))
        return how

    # the site, over HTTP

    def healthy(self) -> dict[str, Any] | None:
        try:
            answer = self.client.request("GET", "/healthz")
        except OSError:
            return None
        if answer.status != 200:
            return None
        health = answer.json()
        # Both workers (arena and live) have said they are alive.
        return health if health["worker"]["detail"].startswith("2 worker(s)") else None

    def log_in_for_a_token(self) -> None:
        if not self.client.token:
            self.client.token = self.client.api(
                "POST", "/api/auth/token/", {"username": ADMIN, "password": ADMIN_PASSWORD}
            )["token"]

    def starter_version(self) -> dict[str, Any]:
        """The starter bot, uploaded over the API and validated in the sandbox (once)."""
        if self._version is None:
            self.log_in_for_a_token()
            bot = self.client.api(
                "POST",
                "/api/arena/bots/",
                {"name": "clubbot", "source": STARTER_BOT.read_text()},
                expect=201,
            )

            def active() -> dict[str, Any] | None:
                versions = self.client.api("GET", f"/api/arena/bots/{bot['id']}/versions/")
                assert not versions or versions[0]["status"] != "rejected", versions[0]
                return versions[0] if versions and versions[0]["status"] == "active" else None

            self._version = self.wait_for("the bot's validation", active, timeout=180)
        return self._version


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    stack = Stack(tmp_path_factory.mktemp("production"))
    stack.create_database()
    try:
        begun = time.monotonic()
        for command in SETUP:
            stack.run(
                command + (" --noinput" if command.endswith("createsuperuser") else ""),
                DJANGO_SUPERUSER_USERNAME=ADMIN,
                DJANGO_SUPERUSER_EMAIL="admin@example.org",
                DJANGO_SUPERUSER_PASSWORD=ADMIN_PASSWORD,
            )
        for service in SERVICES:
            stack.start(service)
        stack.wait_for("/healthz to say all is well", stack.healthy, timeout=180)
        print(f"\nset up and healthy after {time.monotonic() - begun:.0f} s")
        yield stack
    finally:
        how = stack.stop() if stack.processes else {"left running": ""}
        print(f"stopped: {how}")
        stack.drop_database()
        assert how["left running"] == "", f"processes left running: {how}"
        for service in ("web", "worker", "beat"):
            assert how.get(service, "stopped") == "stopped", how


@pytest.mark.integration
def test_plain_http_goes_to_https_and_https_is_strict(stack: Stack):
    plain = stack.client.request("GET", "/leagues/", proxied=False)
    assert plain.status == 301
    assert plain.headers["Location"] == f"https://127.0.0.1:{stack.port}/leagues/"
    page = stack.client.request("GET", "/leagues/")
    assert page.status == 200 and page.headers["Server"].startswith("gunicorn")
    assert page.headers["Strict-Transport-Security"] == (
        "max-age=31536000; includeSubDomains; preload"
    )
    assert stack.client.request("GET", "/static/css/site.css").status == 200
    missing = stack.client.request("GET", "/no/such/page/")
    assert missing.status == 404 and "Using the URLconf" not in missing.text  # debug is off
    health = stack.healthy()
    assert health and health["database"]["ok"] and health["broker"]["ok"]


@pytest.mark.integration
def test_an_uploaded_bot_is_validated_and_plays_a_ladder_match(stack: Stack):
    version = stack.starter_version()

    def ladder_match() -> dict[str, Any] | None:
        matches = stack.client.api(
            "GET", f"/api/arena/matches/?kind=ladder&status=finished&seats__version={version['id']}"
        )
        return next((m for m in matches["results"] if m["seed"] is not None), None)

    # Beat tops the ladders up every ARENA_LADDER_TICK_S (30 s); the demo bots are opponents.
    match = stack.wait_for("a ladder match of the uploaded bot", ladder_match, timeout=240)
    assert match["sandbox_mode"] == ("bwrap" if os.geteuid() == 0 else "bwrap-rootless")
    log = stack.client.api("GET", f"/api/arena/matches/{match['id']}/log/")
    assert len(log["result"]["ranks"]) == len(match["seats"]) >= 2


@pytest.mark.integration
def test_a_challenge_is_played(stack: Stack):
    version = stack.starter_version()
    match = stack.client.api(
        "POST",
        "/api/arena/matches/challenge/",
        {"seats": [str(version["id"]), "random"]},
        expect=201,
    )

    def finished() -> dict[str, Any] | None:
        now = stack.client.api("GET", f"/api/arena/matches/{match['id']}/")
        assert now["status"] != "failed", now
        return now if now["status"] == "finished" else None

    done = stack.wait_for("the challenge", finished, timeout=120)
    assert done["kind"] == "challenge" and len(done["seats"]) == 2


@pytest.mark.integration
def test_a_person_logs_in_and_plays_a_live_game_the_bot_answers(stack: Stack):
    browser = Client(stack.client.base)
    token = browser.csrf_from("/accounts/login/")
    assert browser.cookies["csrftoken"]["secure"]
    logged_in = browser.request(
        "POST",
        "/accounts/login/",
        form={"login": ADMIN, "password": ADMIN_PASSWORD, "csrfmiddlewaretoken": token},
    )
    assert logged_in.status == 302, logged_in.text[-2000:]
    assert browser.cookies["sessionid"]["secure"] and browser.cookies["sessionid"]["httponly"]
    started = browser.request(
        "POST",
        "/arena/play/",
        form={
            "game": "cat-lady",
            "players": "2",
            "seat": "1",
            "opponent_1": "house:cat-lady:random",
            "csrfmiddlewaretoken": browser.csrf_from("/arena/play/"),
        },
    )
    assert started.status == 302, started.text[-2000:]
    table = started.headers["Location"]
    assert re.fullmatch(r"/arena/play/\d+/", table), table
    csrf = browser.csrf_from(table)

    def state() -> dict[str, Any]:
        answer = browser.request("GET", table + "state/")
        assert answer.status == 200, answer.status
        return answer.json()

    def my_turn() -> dict[str, Any] | None:
        now = state()
        assert now["status"] not in ("failed", "finished"), now
        return now if now["asked_step"] is not None and now["legal"] else None

    first = stack.wait_for("the live table to ask for a move", my_turn, timeout=90)
    me, asked = first["you"], first["asked_step"]
    moved = browser.request(
        "POST",
        table + "move/",
        json_body={"step": asked, "index": 0},
        headers={"X-CSRFToken": csrf},
    )
    assert moved.status == 200 and moved.json()["ok"], moved.text

    def bot_answered() -> dict[str, Any] | None:
        now = state()
        if now["asked_step"] is not None and now["asked_step"] > asked and now["legal"]:
            # Still the person's turn (a turn may take several moves): play on.
            browser.request(
                "POST",
                table + "move/",
                json_body={"step": now["asked_step"], "index": 0},
                headers={"X-CSRFToken": csrf},
            )
        replies = [line for line in now["log"] if line["seat"] != me and line["step"] > asked]
        return now if replies else None

    answered = stack.wait_for("the bot's answer", bot_answered, timeout=90)
    assert any(line["seat"] == me and line["step"] == asked for line in answered["log"])


@pytest.mark.integration
def test_a_backup_is_written(stack: Stack):
    written = Path(stack.run("bin/catleague manage backup").strip().splitlines()[-1])
    assert written.parent == stack.var / "backups" and written.stat().st_size > 0
