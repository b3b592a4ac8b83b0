"""The house's rules for its rooms (issue 29), kept by a test so that they stay true: no module
of the apps or of config/ over 500 lines (migrations aside), and no two sibling modules whose
names share a sub-topic prefix (``night_forms.py`` beside ``night_views.py``, or
``company.py`` beside ``company_views.py``): a sub-topic is a package of its own."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("league", "arena", "accounts", "home", "ratings", "config")
MOST_LINES = 500


def _folders() -> list[Path]:
    return [
        folder
        for app in APPS
        for folder in [ROOT / app, *(ROOT / app).rglob("*")]
        if folder.is_dir()
        and "__pycache__" not in folder.parts
        and "migrations" not in folder.parts
        # A command's module name is the command people type (arena_requeue...).
        and folder.parts[-2:] != ("management", "commands")
    ]


def _modules(folder: Path) -> list[str]:
    """The modules and packages directly in ``folder``, by name (private ones aside)."""
    return [
        path.stem
        for path in folder.iterdir()
        if not path.name.startswith("_")
        and (path.suffix == ".py" or (path.is_dir() and (path / "__init__.py").exists()))
    ]


def sub_topics_in_two_places(names: list[str]) -> dict[str, list[str]]:
    """The prefixes (before the first ``_``) that name more than one of ``names``, counting a
    module named the prefix itself."""
    named: dict[str, list[str]] = defaultdict(list)
    for name in sorted(names):
        named[name.split("_")[0]].append(name)
    return {
        prefix: found for prefix, found in named.items() if len(found) > 1 and "_" in "".join(found)
    }


def test_no_module_of_the_apps_is_over_500_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for folder in _folders()
        for path in folder.glob("*.py")
        if (lines := len(path.read_text().splitlines())) > MOST_LINES
    }
    assert not long, f"split these by what they do: {long}"


def test_no_two_sibling_modules_share_a_sub_topic_prefix():
    shared = {
        str(folder.relative_to(ROOT)): found
        for folder in _folders()
        if (found := sub_topics_in_two_places(_modules(folder)))
    }
    assert not shared, f"make each sub-topic a package: {shared}"


def test_the_rules_see_the_rooms():
    # The walk reaches the packages inside the apps, not only their top folders.
    folders = {str(folder.relative_to(ROOT)) for folder in _folders()}
    assert {"league/nights", "arena/live", "arena/live/company", "config/api"} <= folders
    found = sub_topics_in_two_places(["night_views", "nights", "night_forms", "club", "club_api"])
    assert found == {"night": ["night_forms", "night_views"], "club": ["club", "club_api"]}
    assert sub_topics_in_two_places(["views", "forms", "api_urls", "services"]) == {}
