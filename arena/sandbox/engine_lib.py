"""The engine a sandboxed bot may import: a read-only copy of exactly the package that runs
the match, and nothing else of the project.

The copy lives in a directory named after a hash of the engine's files (so a bot always
gets the engine of the worker that runs it, and an upgrade makes a new one), holds only
``engine/`` with its card data, is compiled once for the bots' Python (so a bot pays the
import, not the compilation) and is world-readable but writable by nobody else. Jailed bots
see it read-only at :data:`ENGINE_LIB_IN_JAIL`; the others get its path.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import engine

from .modes import BOT_PYTHON

__all__ = ["ENGINE_DIR", "ENGINE_LIB_IN_JAIL", "engine_lib"]

ENGINE_DIR = Path(engine.__file__).resolve().parent
ENGINE_LIB_IN_JAIL = "/engine-lib"
LIB_PREFIX = "catleague-engine-"
_SHIPPED = ("*.py", "*.json", "py.typed")
_OLD_COPY_S = 24 * 3600
_lock = threading.Lock()
_made: dict[str, Path] = {}


def engine_lib(parent: str | None = None) -> Path:
    """The directory to put on a bot's ``sys.path`` (it holds ``engine/``), made on first
    use under ``parent`` (default: the system's temporary directory)."""
    parent = parent or tempfile.gettempdir()
    with _lock:
        known = _made.get(parent)
        if known is not None and known.is_dir():
            return known
        files = _engine_files()
        digest = hashlib.sha256()
        for relative in files:
            digest.update(relative.encode() + b"\0" + (ENGINE_DIR / relative).read_bytes())
        target = Path(parent) / f"{LIB_PREFIX}{digest.hexdigest()[:16]}"
        if not target.is_dir():  # built elsewhere and renamed into place: complete if present
            _build(target, files)
            _forget_old_copies(Path(parent), keep=target)
        _made[parent] = target
        return target


def _engine_files() -> list[str]:
    found = {
        str(path.relative_to(ENGINE_DIR))
        for pattern in _SHIPPED
        for path in ENGINE_DIR.rglob(pattern)
        if "__pycache__" not in path.parts
    }
    return sorted(found)


def _build(target: Path, files: list[str]) -> None:
    """Copy, compile and seal in a scratch directory, then rename it into place (another
    worker building the same copy at the same time wins or loses the rename harmlessly)."""
    scratch = Path(tempfile.mkdtemp(prefix=f"{LIB_PREFIX}build-", dir=target.parent))
    try:
        for relative in files:
            destination = scratch / "engine" / relative
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ENGINE_DIR / relative, destination)
        # Compiled by the Python the bots run, so their imports find up-to-date bytecode.
        subprocess.run(
            [BOT_PYTHON, "-m", "compileall", "-q", str(scratch / "engine")],
            check=True,
            capture_output=True,
            timeout=120,
        )
        for root, _dirs, names in os.walk(scratch):
            os.chmod(root, 0o755)
            for name in names:
                os.chmod(os.path.join(root, name), 0o644)
        try:
            os.rename(scratch, target)
        except OSError:
            if not target.is_dir():  # built elsewhere and renamed into place: complete if present
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _forget_old_copies(parent: Path, *, keep: Path) -> None:
    """Remove copies of earlier engine versions once no match can be using them."""
    now = time.time()
    for path in parent.glob(f"{LIB_PREFIX}*"):
        if path == keep:
            continue
        try:
            if now - path.stat().st_mtime > _OLD_COPY_S:
                shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue
