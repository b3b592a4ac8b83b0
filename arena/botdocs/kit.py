"""The starter kit: one zip of the files a bot author starts from, built from this repository.

It holds the starter bots of both games, the MCTS starter, ``catbot.py``, a README and
``play.py``, which plays local matches through the arena's own runner and sandbox (shipped
in the zip with the engine that bots may import), so a bot is tested at home exactly as the
arena plays it, with Python 3.11 and nothing else installed.
"""

from __future__ import annotations

import functools
import io
import zipfile
from pathlib import Path

__all__ = ["KIT_FOLDER", "kit_files", "starter_kit_zip"]

KIT_FOLDER = "catleague-starter-kit"
ARENA_DIR = Path(__file__).resolve().parent.parent
REPO_DIR = ARENA_DIR.parent
KIT_DIR = Path(__file__).resolve().parent / "kit"

# Every entry gets this date, so the same files always make the same zip (and download).
_ZIP_DATE = (2026, 1, 1, 0, 0, 0)


def _tree(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    found = {path for pattern in patterns for path in folder.rglob(pattern)}
    return sorted(path for path in found if "__pycache__" not in path.parts)


def kit_files() -> dict[str, Path]:
    """Name in the zip (under :data:`KIT_FOLDER`) -> the repository file it is made from."""
    botkit = ARENA_DIR / "botkit"
    files = {
        "README.md": KIT_DIR / "README.md",
        "play.py": KIT_DIR / "play.py",
        "starter_bot.py": botkit / "starter_bot.py",
        "cantankerous_starter_bot.py": botkit / "cantankerous_starter_bot.py",
        "mcts_starter_bot.py": botkit / "mcts_starter_bot.py",
        # Beside the bots, so that an editor resolves `import catbot`.
        "catbot.py": botkit / "catbot.py",
        # What play.py runs: the runner (and who plays a seat), its sandbox, and the helper
        # the runner stages.
        "arena/__init__.py": ARENA_DIR / "__init__.py",
        "arena/runner.py": ARENA_DIR / "runner.py",
        "arena/botspec.py": ARENA_DIR / "botspec.py",
        "arena/localplay.py": ARENA_DIR / "localplay.py",
        "arena/botkit/catbot.py": botkit / "catbot.py",
    }
    for path in _tree(ARENA_DIR / "sandbox", ("*.py",)):
        files[f"arena/sandbox/{path.relative_to(ARENA_DIR / 'sandbox')}"] = path
    engine_dir = REPO_DIR / "engine"
    for path in _tree(engine_dir, ("*.py", "*.json", "py.typed")):
        files[f"engine/{path.relative_to(engine_dir)}"] = path
    return files


@functools.cache
def starter_kit_zip() -> bytes:
    """The kit as zip bytes (built once per process: the files change only with a release)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in kit_files().items():
            entry = zipfile.ZipInfo(f"{KIT_FOLDER}/{name}", date_time=_ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, path.read_bytes())
    return buffer.getvalue()
