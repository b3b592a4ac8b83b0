"""The API's JSON parser: bounded in size and depth, finite numbers only.

DRF reads a JSON body straight from the socket, so Django's DATA_UPLOAD_MAX_MEMORY_SIZE never
applies to it; and a body nested a thousand deep makes Python's json module (and anything that
walks the result) raise RecursionError. Both are answered here, in the API's error shape.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser


class RequestTooLarge(APIException):
    """A body over the size limit: 413, in the API's error shape (config.api.errors)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "request_too_large"


# No request of this API nests deeper than about six levels (a game's participants' results).
MAX_JSON_DEPTH = 32


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is not a finite number")
    return value


def _depth_exceeds(value: Any, limit: int) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = b"" if stream is None else stream.read(limit + 1 if limit is not None else -1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(f"The request body is larger than {limit} bytes.")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            data = json.loads(
                raw.decode(encoding), parse_constant=_no_constant, parse_float=_finite
            )
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.") from None
        except (ValueError, LookupError) as exc:  # UnicodeDecodeError is a ValueError
            raise ParseError(f"JSON parse error - {exc}") from None
        if _depth_exceeds(data, MAX_JSON_DEPTH):
            raise ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels.")
        return data
