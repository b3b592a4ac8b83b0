"""End-to-end tests: Django's live server driven by headless Chromium through Playwright.

The browser is the system's Chromium (Debian's ``chromium`` package, which ``bin/test`` installs
when run as root), never one downloaded at run time; set ``CHROMIUM_PATH`` to use another binary. Each test gets a
fresh browser context (no shared cookies) whose base URL is the live server, so tests call
``page.goto("/leagues/tuesday/")``. ``screenshot(page, name)`` saves ``<name>.png`` under
``test-artifacts/screenshots/`` (kept out of git, so a test run leaves the tree clean); run
``SCREENSHOTS_DIR=docs/screenshots bin/test tests/e2e`` to refresh the README's pictures.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run beside
# one unless told that this synchronous use is deliberate (test data set-up, not async code).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

from arena.common import SeatInput  # noqa: E402
from arena.matches.services import challenge_create  # noqa: E402
from arena.models import Match  # noqa: E402

# The league's named cast (Olive's Tuesday Club) is shared with the browser tests.
from tests.league.conftest import league, players, users  # noqa: E402, F401

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / os.environ.get("SCREENSHOTS_DIR", "test-artifacts/screenshots")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _chromium_path() -> str:
    path = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        message = (
            f"no Chromium at {path}: run once `sudo apt-get install -y chromium "
            "chromium-driver` (bin/test does it when run as root) or set CHROMIUM_PATH"
        )
        if os.environ.get("CATLEAGUE_REQUIRE_BROWSER") == "1":
            pytest.fail(message, pytrace=False)  # bin/test as root installed it: must be there
        pytest.skip(message)
    return path


def _chromium_args() -> list[str]:
    args = ["--no-sandbox", "--disable-background-networking"]
    # Chromium shares memory between its processes through /dev/shm. Where that is small (a
    # container's 64 MB) it must use files in /tmp instead, which on a disk-backed /tmp costs
    # about a tenth more of its CPU.
    try:
        shm = shutil.disk_usage("/dev/shm").total
    except OSError:
        shm = 0
    if shm < 1 << 30:
        args.append("--disable-dev-shm-usage")
    return args


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=_chromium_path(), args=_chromium_args()
        )
        yield browser
        browser.close()


def _page(browser: Browser, live_server, viewport: dict[str, int]) -> Iterator[Page]:
    context = browser.new_context(base_url=live_server.url, viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    # Pages must work with nothing from outside the server: fail any request elsewhere.
    outside: list[str] = []
    page.on(
        "request",
        lambda request: (
            None
            if request.url.startswith(live_server.url) or request.url.startswith("data:")
            else outside.append(request.url)
        ),
    )
    yield page
    context.close()
    assert not outside, f"page requested resources from outside the server: {outside}"


@pytest.fixture
def page(browser, live_server, transactional_db) -> Iterator[Page]:
    """A desktop-sized page on a fresh context; the live server's database is the test's."""
    yield from _page(browser, live_server, DESKTOP)


@pytest.fixture
def phone_page(browser, live_server, transactional_db) -> Iterator[Page]:
    """A phone-sized page (390×844) on a fresh context."""
    yield from _page(browser, live_server, PHONE)


def screenshot(page: Page, name: str, *, full_page: bool = True) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def log_in(page: Page, username: str, password: str) -> None:
    """Log in through the site's login form, as a person would."""
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_load_state()


def house_match(*builtins: str, seed: int, **options) -> Match:
    """A match of the house bots in these seats, played at once (the tests' Celery is eager)
    and finished before the test looks. ``options`` go to ``challenge_create`` (game...)."""
    seats = [SeatInput(builtin=name) for name in builtins]
    match = challenge_create(seats=seats, by=None, seed=seed, **options)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.failure
    return match
