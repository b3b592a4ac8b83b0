"""A JSON record's typed fields read for a person: each value of the type it must be, or None
with the problem noted at its place (``plays[3].playDate``), so that a file's every problem is
said at once. Pure code (`league.interop.reading` reads BG Stats files with it)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, TypeVar

# One JSON object of a file, and what one of its fields must be (a whole number, text).
Row = Mapping[str, Any]
Value = TypeVar("Value", int, str)


class FieldReader:
    """Collects every problem of a file, each with its place, before giving up."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)

    def table(self, data: Row, name: str, *, required: bool = True) -> list[Any]:
        value = data.get(name)
        if value is None:
            if required:
                self.add(name, f"The file has no {name!r} list: is it a BG Stats export?")
            return []
        if not isinstance(value, list):
            self.add(name, f"{name!r} must be a list.")
            return []
        return value

    def record(self, value: Any, path: str) -> Row | None:
        if not isinstance(value, dict):
            self.add(path, "must be an object.")
            return None
        return value

    def whole(self, record: Row, key: str, path: str, *, required: bool = True) -> int | None:
        return self._typed(record, key, path, int, "a whole number", required)

    def text(self, record: Row, key: str, path: str, *, required: bool = True) -> str | None:
        return self._typed(record, key, path, str, "text", required)

    def _typed(
        self, row: Row, key: str, path: str, kind: type[Value], said: str, required: bool
    ) -> Value | None:
        """``row[key]`` if a ``kind`` (a bool is no number); else None, with the problem noted."""
        value = row.get(key)
        if value is None:
            if required:
                self.add(f"{path}.{key}", "is missing.")
            return None
        if isinstance(value, bool) or not isinstance(value, kind):
            self.add(f"{path}.{key}", f"must be {said}, not {value!r}.")
            return None
        return value

    def flag(self, record: Row, key: str, path: str) -> bool:
        value = record.get(key, False)
        if not isinstance(value, bool):
            self.add(f"{path}.{key}", f"must be true or false, not {value!r}.")
            return False
        return value


def records_with_ids(
    reader: FieldReader, rows: list[Any], name: str, damaged: dict[int, str]
) -> list[tuple[str, int, Mapping[str, Any]]]:
    """(path, id, record) of each row with a whole-number id used once. An id used twice goes
    into ``damaged`` with the reason (no play can tell which is meant); a row with no id could
    not be referred to by any play: nothing is lost by leaving it out."""
    seen: dict[int, int] = {}
    found: dict[int, tuple[str, int, Mapping[str, Any]]] = {}
    for index, row in enumerate(rows):
        path = f"{name}[{index}]"
        record = reader.record(row, path)
        if record is None:
            continue
        ident = reader.whole(record, "id", path)
        if ident is None:
            continue
        if ident in seen:
            damaged[ident] = (
                f"id {ident} is used twice in the file's {name} ({name}[{seen[ident]}] and {path})."
            )
            found.pop(ident, None)
            continue
        seen[ident] = index
        found[ident] = (path, ident, record)
    return list(found.values())


def first_problem(entries: FieldReader, path: str) -> str | None:
    """What is wrong with the entry at ``path`` (its first problem), if anything."""
    for where, messages in entries.errors.items():
        if where == path or where.startswith(f"{path}."):
            return f"{where} {messages[0]}"
    return None


_WHOLE = re.compile(r"\s*-?\d+(\.0+)?\s*")
_CALCULATION = re.compile(r"[-+*/()\d\s.]*\d[-+*/()\d\s.]*")


def score_of(raw: Any, who: str) -> tuple[int | None, str | None]:
    """A score as a whole number (None when not given), or the reason it is not one."""
    if raw is None or raw == "":
        return None, None
    if isinstance(raw, bool):
        return None, f"{who}'s score must be a number, not {raw!r}."
    if isinstance(raw, int):
        return raw, None
    if isinstance(raw, float) and raw.is_integer():
        return int(raw), None
    if isinstance(raw, str) and _WHOLE.fullmatch(raw):
        return int(float(raw)), None
    if isinstance(raw, str) and _CALCULATION.fullmatch(raw):
        return None, (
            f"{who}'s score is a calculation ({raw.strip()!r}), not one total: Catleague needs "
            "the total VP."
        )
    return None, f"{who}'s score must be a whole number, not {raw!r}."
