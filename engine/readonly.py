"""JSON values that refuse changes, so that one value can be handed to many callers.

A game's options, and the parts of an observation that did not change since the last one,
are shared rather than copied for every caller. They are plain ``dict`` and ``list``
subclasses: ``json.dumps``, ``==`` and ``isinstance`` treat them as the built-in types, and
``.copy()``, ``dict(...)``, ``list(...)``, ``copy.deepcopy`` and pickling give ordinary,
changeable ones.

>>> options = ReadOnlyOptions({"players": 2})
>>> options["players"], dict(options)
(2, {'players': 2})
>>> options["players"] = 3
Traceback (most recent call last):
TypeError: game options are read-only
>>> view = freeze({"hand": ["toy/mouse"], "food": {"milk": 1}})
>>> view == {"hand": ["toy/mouse"], "food": {"milk": 1}}
True
>>> view["hand"].append("catnip")
Traceback (most recent call last):
TypeError: observations are read-only: copy a value to change it
>>> hand = view["hand"].copy(); hand.append("catnip"); hand
['toy/mouse', 'catnip']
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["ReadOnlyDict", "ReadOnlyList", "ReadOnlyOptions", "freeze"]


class ReadOnlyDict(dict[str, Any]):
    """A dict that refuses changes."""

    __slots__ = ()
    refusal = "observations are read-only: copy a value to change it"

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(self.refusal)

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[type, tuple[dict[str, Any]]]:
        # Copies and unpickled values are the caller's own: plain dicts.
        return (dict, (dict(self),))


class ReadOnlyList(list[Any]):
    """A list that refuses changes."""

    __slots__ = ()
    refusal = ReadOnlyDict.refusal

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(self.refusal)

    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse
    append = extend = insert = pop = remove = clear = sort = reverse = _refuse

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return (list, (list(self),))


class ReadOnlyOptions(ReadOnlyDict):
    """The game's options: a dict (JSON-friendly) that refuses changes."""

    __slots__ = ()
    refusal = "game options are read-only"


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it made read-only (copied once)."""
    if isinstance(value, dict):
        if type(value) is ReadOnlyDict:
            return value
        return ReadOnlyDict({key: freeze(inner) for key, inner in value.items()})
    if isinstance(value, list | tuple):
        if type(value) is ReadOnlyList:
            return value
        return ReadOnlyList([freeze(inner) for inner in value])
    return value
