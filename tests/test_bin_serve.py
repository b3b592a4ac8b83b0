"""The README's first command, as a newcomer runs it: `bin/serve` in a fresh copy of the
project (its own virtualenv, SQLite file and embedded broker, nothing configured), then the
starter bot uploaded over HTTP, validated in the sandbox and playing on a ladder."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
STARTER_BOT = ROOT / "arena" / "botkit" / "starter_bot.py"
# Variables a newcomer does not have: with none of them bin/serve uses its embedded defaults.
CONFIGURED = ("DATABASE_URL", "CELERY_", "CACHE_URL", "DJANGO_", "CATLEAGUE_VAR_DIR")

pytestmark = pytest.mark.integration


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _fresh_copy(target: Path) -> set[str]:
    """The files a clone of this checkout would have (tracked, or new and not ignored); returns
    their names."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    copied = set()
    for name in filter(None, listed):
        source = ROOT / name.decode()
        if not source.is_file():
            continue  # deleted in the working tree
        dest = target / name.decode()
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(source.read_bytes())
        dest.chmod(source.stat().st_mode)
        copied.add(name.decode())
    return copied


class Site:
    def __init__(self, url: str, log: Path, clone: Path, copied: set[str]) -> None:
        self.url = url
        self.clone = clone
        self.copied = copied
        self.log = log
        self.token = ""

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(
            self.url + path,
            method=method,
            headers=headers,
            data=json.dumps(body).encode() if body else None,
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    def wait_for(self, what: str, check, timeout: float) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = check()
            if found:
                return found
            time.sleep(1)
        worker_log = self.log.parent / "var" / "log" / "worker.log"
        pytest.fail(
            f"timed out after {timeout:.0f} s waiting for {what}\n--- bin/serve:\n"
            f"{self.log.read_text()[-3000:]}\n--- worker:\n"
            f"{worker_log.read_text()[-3000:] if worker_log.exists() else '(none)'}"
        )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    clone = tmp_path_factory.mktemp("fresh-clone")
    copied = _fresh_copy(clone)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(CONFIGURED)}
    # As a club laptop serving the phones around the table does (the test itself only ever
    # connects to loopback, naming the laptop's network address in the Host header).
    env.update(PORT=str(port), HOST="0.0.0.0")
    # pip would compile every module it installs (about 12 s of CPU on the 2-core machine, in a
    # suite bound by CPU); the site's processes compile what they import, once.
    env.update(PIP_COMPILE="false")
    log = clone / "serve.log"
    started = time.monotonic()
    with log.open("w") as out:
        process = subprocess.Popen(
            ["bin/serve"],
            cwd=clone,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    site = Site(f"http://127.0.0.1:{port}", log, clone, copied)

    def up() -> bool:
        if process.poll() is not None:
            pytest.fail(f"bin/serve exited with {process.returncode}:\n{log.read_text()[-3000:]}")
        try:
            urllib.request.urlopen(site.url + "/api/catalogue/", timeout=5)
        except (urllib.error.URLError, OSError):
            return False
        return True

    try:
        site.wait_for("bin/serve to answer", up, timeout=600)
        print(f"bin/serve answered after {time.monotonic() - started:.0f} s from a fresh copy")
        yield site
    finally:
        # As a Ctrl-C does: the signal reaches bin/serve's whole process group.
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
            stopped = True
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            stopped = False
        leftovers = subprocess.run(["pgrep", "-f", str(clone)], capture_output=True, text=True)
        for pid in leftovers.stdout.split():
            os.kill(int(pid), signal.SIGKILL)
        assert not leftovers.stdout.strip(), f"bin/serve left processes behind: {leftovers.stdout}"
        assert stopped, "bin/serve did not stop within 30 s of SIGTERM"


def test_the_starter_bot_uploaded_over_http_is_validated_and_plays_a_ladder_match(site: Site):
    site.token = site.call(
        "POST", "/api/auth/token/", {"username": "demo", "password": "demo-password"}
    )["token"]
    bot = site.call(
        "POST", "/api/arena/bots/", {"name": "newcomer", "source": STARTER_BOT.read_text()}
    )

    def active_version() -> dict[str, Any] | None:
        versions = site.call("GET", f"/api/arena/bots/{bot['id']}/versions/")
        if versions and versions[0]["status"] == "rejected":
            pytest.fail(f"the starter bot was rejected: {versions[0]}")
        return versions[0] if versions and versions[0]["status"] == "active" else None

    version = site.wait_for("the starter bot's validation", active_version, timeout=120)

    def ladder_match() -> dict[str, Any] | None:
        matches = site.call("GET", "/api/arena/matches/?kind=ladder&status=finished&limit=100")
        return next(
            (
                m
                for m in matches["results"]
                # The seed (and the log) once every seating of the deal is over.
                if any(s["version"] == version["id"] for s in m["seats"]) and m["seed"] is not None
            ),
            None,
        )

    # Celery beat tops the ladders up every 30 s; the demo bots are the first opponents.
    match = site.wait_for("a ladder match with the starter bot", ladder_match, timeout=180)
    assert match["sandbox_mode"] in ("bwrap", "bwrap-rootless")
    log = site.call("GET", f"/api/arena/matches/{match['id']}/log/")
    assert log["result"]["ranks"]


# What bin/serve may write in the checkout: its virtualenv, data, static files and bytecode.
WRITTEN_BY_SERVING = (".venv", "var", "staticfiles", "__pycache__")


def test_serving_writes_nothing_into_the_checkout_outside_var(site: Site):
    """Everything the site and its workers keep (SQLite, the embedded broker's queues and
    exchange tables, logs) lies under var/: the checkout itself stays as cloned."""
    changed = []
    for path in site.clone.rglob("*"):
        name = path.relative_to(site.clone).as_posix()
        if (
            not path.is_file()
            or name == "serve.log"
            or set(Path(name).parts) & set(WRITTEN_BY_SERVING)
        ):
            continue
        if name not in site.copied:
            changed.append(f"new: {name}")
        elif path.read_bytes() != (ROOT / name).read_bytes():
            changed.append(f"changed: {name}")
    assert not changed


def _get(site: Site, path: str, host: str | None = None) -> tuple[int, dict[str, str], str]:
    request = urllib.request.Request(site.url + path, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def test_it_serves_as_a_deployment_would_with_nothing_set(site: Site):
    """Debug off (the site's own not-found page, never the list of URL patterns), a production
    server with its static files, security headers, and a key of its own kept in var/."""
    status, headers, body = _get(site, "/no/such/page/")
    assert status == 404 and "Using the URLconf" not in body and "Not found" in body
    assert headers["Server"].startswith("gunicorn")
    assert headers["X-Content-Type-Options"] == "nosniff" and headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    status, _, css = _get(site, "/static/css/site.css")
    assert status == 200 and "body" in css
    key = site.clone / "var" / "secret_key"
    assert (key.stat().st_mode & 0o777) == 0o600 and len(key.read_text().strip()) >= 50


def test_phones_on_the_same_network_are_served(site: Site):
    """`HOST=0.0.0.0 bin/serve`: a phone asks for the laptop by its network address."""
    addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    lan = next((a for a in addresses if ":" not in a), None)
    if lan is None:
        pytest.skip("this machine has no IPv4 network address for phones to reach")
    port = site.url.rsplit(":", 1)[1]
    status, _, body = _get(site, "/leagues/", host=f"{lan}:{port}")
    assert status == 200 and "Leagues" in body
    assert f"phones on this network: http://{lan}:{port}/" in site.log.read_text()
    status, _, _ = _get(site, "/leagues/", host=f"evil.example:{port}")
    assert status == 400  # a name the laptop does not have is still refused


def _serve_here(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """bin/serve in this checkout (its virtualenv is there) with its data in ``tmp_path``."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIGURED)}
    return subprocess.run(
        ["bin/serve"],
        cwd=ROOT,
        env={**base, "CATLEAGUE_VAR_DIR": str(tmp_path / "var"), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )


def _one_line_refusal(run: subprocess.CompletedProcess[str]) -> str:
    assert run.returncode != 0
    assert "Traceback" not in run.stderr and "Traceback" not in run.stdout
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    refusals = [line for line in lines if line.startswith(("CommandError:", "catleague:"))]
    assert len(refusals) == 1 and lines[-1] == refusals[0], run.stderr
    assert "Listening at" not in run.stdout + run.stderr  # nothing half-started
    return refusals[0]


def test_a_port_in_use_is_one_line_and_nothing_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = _one_line_refusal(_serve_here(tmp_path, PORT=str(port)))
    assert f"127.0.0.1:{port}" in line and "set PORT" in line


def test_a_database_or_broker_that_is_down_is_one_line_each(tmp_path):
    closed = _free_port()
    line = _one_line_refusal(
        _serve_here(
            tmp_path,
            PORT=str(_free_port()),
            DATABASE_URL=f"postgres://postgres@127.0.0.1:{closed}/catleague",
            CELERY_BROKER_URL=f"redis://127.0.0.1:{closed}/0",
        )
    )
    assert "the database does not answer" in line and "DATABASE_URL" in line
    assert "the broker" in line and "CELERY_BROKER_URL" in line


def test_a_data_folder_that_cannot_be_written_is_one_line(tmp_path):
    (tmp_path / "var").write_text("a file where the folder should be")
    line = _one_line_refusal(_serve_here(tmp_path, PORT=str(_free_port())))
    assert "CATLEAGUE_VAR_DIR" in line


def test_an_unknown_option_is_refused():
    run = subprocess.run(["bin/serve", "--prod"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 2 and "unknown option --prod" in run.stderr


@pytest.mark.parametrize(
    "command",
    [
        "bin/manage play arena/botkit/starter_bot.py random greedy --seed 1 --games 1",
        "bin/manage arena_check_sandbox",
        "bin/manage rebuild_ratings --all",
    ],
)
def test_the_documented_commands_run_in_a_fresh_clone_with_nothing_set(site: Site, command):
    """What README and docs/ show, as written: no variable to set first, no traceback."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(CONFIGURED)}
    run = subprocess.run(
        command.split(), cwd=site.clone, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
