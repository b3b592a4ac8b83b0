"""What every game's tests do the same way: random play, the property checks, the command
line."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine.__main__ import main as engine_main
from engine.errors import IllegalActionError


def played(game: Any, seed: int, moves: int | None = None) -> Any:
    """The state of a game dealt from ``seed`` after ``moves`` random legal moves (seeded
    too), or at its end if that comes first (``moves=None``: played to the end)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    count = 0
    while not state.is_terminal() and (moves is None or count < moves):
        state = state.apply(rng.choice(state.legal_actions()))
        count += 1
    return state


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
