"""What every game's tests do the same way: the property checks, the command line."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.__main__ import main as engine_main
from engine.errors import IllegalActionError


def assert_unlisted_actions_refused(
    state: Any, candidates: Iterable[Any], legal: Sequence[Any]
) -> None:
    """Every candidate action that ``legal`` (the state's list) leaves out is refused:
    ``is_legal`` says no and ``apply`` raises :class:`IllegalActionError`."""
    for action in candidates:
        if action in legal:
            continue
        assert not state.is_legal(action)
        try:
            state.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{action} is not listed but apply accepted it")


def run_cli(capsys: Any, *words: str | Path) -> tuple[int, str, str]:
    """Run ``python -m engine`` in this process: each string is split into arguments at its
    spaces, each path is one argument. Returns the exit code, stdout and stderr."""
    argv = [a for w in words for a in (w.split() if isinstance(w, str) else [str(w)])]
    try:
        code = engine_main(argv)
    except SystemExit as exc:  # argparse errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
