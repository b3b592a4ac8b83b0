"""The bot docs on the site: rendered from docs/ with raw HTML off, linked from the arena's
pages, the API docs and the README; every code example of the tutorial runs; the starter kit
unzips into a folder whose README command plays real matches with nothing but Python."""

from __future__ import annotations

import io
import os
import re
import shlex
import subprocess
import zipfile
from pathlib import Path

import pytest

import engine
from arena.botdocs.kit import KIT_FOLDER, kit_files, starter_kit_zip
from arena.botdocs.pages import PAGES, DocPage, render_markdown
from arena.runner import BotSpec, run_match
from arena.sandbox import Limits, Mode
from tests.arena.bots import safe_modes

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
BOTKIT = REPO / "arena" / "botkit"
SYSTEM_PYTHON = "/usr/bin/python3"  # what the kit's README asks for: no virtualenv, no Django
ROOMY = Limits(move_ms=20_000, bank_ms=60_000, startup_ms=20_000, cpu_seconds=600)
PAGE = DocPage("", "bots.md", "Writing a bot")


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)\n```", text, re.S)


def shell_lines(text: str, command: str) -> list[str]:
    blocks = re.findall(r"```(?:sh)?\n(.*?)\n```", text, re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith(command)]


# --- rendering ------------------------------------------------------------------------------


def test_markup_in_a_doc_is_shown_as_text_never_run() -> None:
    page = render_markdown(
        "## Hi\n\n<script>alert(1)</script> <b>bold</b>\n\n[x](javascript:alert(1))\n",
        PAGE,
        PAGES,
        "/arena/docs/",
    )
    assert "<script>" not in page.html and "&lt;script&gt;" in page.html
    assert "<b>" not in page.html
    assert 'href="javascript' not in page.html


def test_headings_get_githubs_anchors_and_a_contents_list() -> None:
    page = render_markdown(
        "## Writing a bot\n\n### Cat Lady expansion setups (unranked)\n\n### Ladders\n\n"
        "### Ladders\n",
        PAGE,
        PAGES,
        "/arena/docs/",
    )
    assert page.title == "Writing a bot"
    assert [h.anchor for h in page.headings] == [
        "writing-a-bot",
        "cat-lady-expansion-setups-unranked",
        "ladders",
        "ladders-1",
    ]
    assert '<h3 id="cat-lady-expansion-setups-unranked">' in page.html
    assert 'href="#ladders-1"' in page.html


def test_links_between_docs_go_to_their_pages_and_other_docs_are_named() -> None:
    page = render_markdown(
        "See [the limits](bots-limits.md#limits-and-faults), [api](api.md) and "
        "[the figures](figures.md#bots).\n",
        PAGE,
        PAGES,
        "/arena/docs/",
    )
    assert 'href="/arena/docs/limits/#limits-and-faults"' in page.html
    assert 'href="/arena/docs/api/"' in page.html
    assert "figures.md" not in re.sub(r"\(docs/figures\.md\)", "", page.html)
    assert "the figures (docs/figures.md)" in page.html


def test_code_blocks_are_marked_for_styling() -> None:
    page = render_markdown("```python\nx = 1 < 2\n```\n\n```\nplain\n```\n", PAGE, PAGES, "/d/")
    assert '<code class="language-python">x = 1 &lt; 2' in page.html
    assert '<code class="language-text">plain' in page.html


@pytest.mark.django_db
def test_every_page_renders_with_its_contents_and_the_kit(client) -> None:
    for page in PAGES:
        url = f"/arena/docs/{page.slug}/" if page.slug else "/arena/docs/"
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert 'aria-label="On this page"' in html
        assert 'href="/arena/docs/starter-kit.zip"' in html
        assert html.count('aria-current="page"') >= 1
    assert client.get("/arena/docs/no-such-page/").status_code == 404


@pytest.mark.django_db
def test_the_docs_are_linked_from_the_arena_the_new_bot_page_and_the_api_docs(
    client, django_user_model
) -> None:
    assert 'href="/arena/docs/"' in client.get("/arena/").content.decode()
    client.force_login(django_user_model.objects.create_user("ada", password="pw-123456789"))
    new_bot = client.get("/arena/bots/new/").content.decode()
    assert 'href="/arena/docs/"' in new_bot and 'href="/arena/docs/starter-kit.zip"' in new_bot
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "(/arena/docs/)" in schema["info"]["description"]
    readme = (REPO / "README.md").read_text()
    assert "/arena/docs/" in readme and len(readme.splitlines()) <= 250


# --- the examples run -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def mode() -> Mode:
    """The strongest sandbox here; the unsafe mode (a plain subprocess) where none works, as
    an author runs the kit: these are the docs' own examples, not hostile code."""
    modes = safe_modes()
    return modes[0] if modes else Mode.UNSAFE


def tutorial_bots() -> list[tuple[str, str]]:
    found = []
    # The tutorial's pages; the API page has curl, the engines' pages the engine's own API.
    for page in (p for p in PAGES if p.file.startswith("bots")):
        for number, code in enumerate(python_blocks((DOCS / page.file).read_text())):
            found.append((f"{page.file}#{number + 1}", code))
    return found


def test_the_tutorial_pages_hold_the_examples_this_test_runs() -> None:
    names = [name for name, _ in tutorial_bots()]
    assert "bots.md#1" in names and "bots.md#2" in names and "bots-forward-model.md#1" in names


@pytest.mark.filterwarnings("ignore::arena.sandbox.UnsafeSandboxWarning")
@pytest.mark.parametrize(("name", "code"), tutorial_bots(), ids=lambda v: v[:24])
def test_every_python_example_of_the_tutorial_plays_a_match_without_a_fault(
    name: str, code: str, mode: Mode
) -> None:
    assert "def choose" in code, f"{name}: every example is a bot"
    log = run_match(
        seed=6,
        bots=[BotSpec.from_source(code.encode(), name="example.py"), "random"],
        limits=ROOMY,
        mode=mode,
    )
    assert log["faults"][0] == [], (name, log["faults"][0], log["stderr"][0])
    assert engine.replay(log["engine_log"]).is_terminal()


def test_the_starter_bot_in_the_tutorial_is_the_starter_kits_file() -> None:
    shown = python_blocks((DOCS / "bots.md").read_text())[1]
    code = (BOTKIT / "starter_bot.py").read_text()
    without_docstring = code[code.index('"""', 3) + 3 :].strip()
    assert shown.strip() == without_docstring


# --- the starter kit ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_starter_kit_downloads_as_a_zip_of_the_repositorys_files(client) -> None:
    response = client.get("/arena/docs/starter-kit.zip")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert f'filename="{KIT_FOLDER}.zip"' in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    for wanted in (
        "README.md",
        "play.py",
        "starter_bot.py",
        "cantankerous_starter_bot.py",
        "mcts_starter_bot.py",
        "catbot.py",
        "arena/runner.py",
        "engine/forward.py",
        "engine/catlady/data/catlady-base.json",
    ):
        assert f"{KIT_FOLDER}/{wanted}" in names, wanted
    for name, path in kit_files().items():
        assert archive.read(f"{KIT_FOLDER}/{name}") == path.read_bytes(), name
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    assert starter_kit_zip() == response.content  # the same files make the same zip


@pytest.mark.skipif(not Path(SYSTEM_PYTHON).exists(), reason="no system Python 3 here")
def test_every_command_of_the_kits_readme_plays_from_the_unzipped_kit(tmp_path: Path) -> None:
    zipfile.ZipFile(io.BytesIO(starter_kit_zip())).extractall(tmp_path)
    kit = tmp_path / KIT_FOLDER
    commands = shell_lines((kit / "README.md").read_text(), "python3 play.py")
    assert len(commands) == 3
    # Nothing of this project's virtualenv: the kit works with Python and its own files.
    bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    for command in commands:
        argv = shlex.split(command)
        argv[0] = SYSTEM_PYTHON
        if "--games" in argv:  # one game is enough to prove the command; the rest repeat it
            argv[argv.index("--games") + 1] = "2"
        if "mcts_starter_bot.py" in argv:  # a 1 s move limit: 40 % of it per move, many moves
            argv += ["--move-ms", "100"]
        done = subprocess.run(
            argv, cwd=kit, env=bare, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
        bot = argv[2]
        assert re.search(rf"^  seat 1 {re.escape(bot)}: \d+ points, rank \d", done.stdout, re.M)
        assert "faults" not in done.stdout, (command, done.stdout)
        assert "seat 0" not in done.stdout
    assert list((kit / "var" / "match-logs").glob("match-*.json"))
    assert os.path.exists(kit / "play.py")
