"""Values both games share that have nothing to do with either game's rules.

>>> options = ReadOnlyOptions({"players": 2})
>>> options["players"], dict(options)
(2, {'players': 2})
>>> options["players"] = 3
Traceback (most recent call last):
TypeError: game options are read-only
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReadOnlyOptions"]


class ReadOnlyOptions(dict[str, Any]):
    """The game's options: a dict (JSON-friendly) that refuses changes."""

    def _refuse(self, *args: object, **kwargs: object) -> None:
        raise TypeError("game options are read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _refuse  # type: ignore[assignment]
