"""Who plays a seat of a match: a bot's source code (run in the sandbox), a house strategy (run
in the runner's process) or a person (asked through the runner's ``HumanSeat``). Plain
Python: no Django."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.strategies import names as strategy_names

MAX_BOT_BYTES = 256 * 1024

__all__ = ["MAX_BOT_BYTES", "BotSpec", "BotSpecError"]


class BotSpecError(ValueError):
    """A bot that cannot be played: unknown built-in, missing file, too big, not UTF-8."""


@dataclass(frozen=True)
class BotSpec:
    """A seat's player: a bot's source code (sandboxed) or a built-in strategy (in-process).

    >>> BotSpec.parse("greedy").kind
    'builtin'
    >>> BotSpec.from_source("def choose(o, legal):\\n    return 0\\n", name="zero").kind
    'file'
    """

    kind: str  # "file" | "builtin" | "human"
    name: str
    source: bytes = b""
    # A built-in's parameters (engine.strategies.get), e.g. an mcts budget: (name, value) pairs.
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def human(cls, name: str) -> BotSpec:
        """A person's seat, asked through a :class:`HumanSeat` given to :func:`run_match`."""
        return cls("human", name)

    @classmethod
    def builtin(cls, name: str, params: Mapping[str, Any] | None = None) -> BotSpec:
        """A house strategy by name, with ``params`` for it (``{"iterations": 400}``)."""
        if name not in strategy_names():
            raise BotSpecError(
                f"no built-in strategy {name!r} (built-ins: {', '.join(strategy_names())})"
            )
        return cls("builtin", name, params=tuple(sorted((params or {}).items())))

    @classmethod
    def from_source(cls, source: str | bytes, *, name: str = "bot.py") -> BotSpec:
        """A bot from its code; refuses oversized or non-UTF-8 code (the sandbox runs anything else)."""
        data = source.encode() if isinstance(source, str) else source
        if len(data) > MAX_BOT_BYTES:
            raise BotSpecError(f"{name}: {len(data)} bytes; a bot may have at most {MAX_BOT_BYTES}")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BotSpecError(
                f"{name}: not UTF-8 text ({exc.reason} at byte {exc.start})"
            ) from None
        return cls("file", name, data)

    @classmethod
    def from_file(cls, path: str | Path) -> BotSpec:
        path = Path(path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise BotSpecError(f"cannot read bot file {path}: {exc.strerror}") from None
        return cls.from_source(data, name=path.name)

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """A file when ``text`` ends in ``.py`` or contains a ``/``, else a built-in's name."""
        if text.endswith(".py") or "/" in text:
            return cls.from_file(text)
        return cls.builtin(text)

    @property
    def sha256(self) -> str | None:
        return hashlib.sha256(self.source).hexdigest() if self.kind == "file" else None
