"""One error shape for every API failure.

    {"error": "<code>", "detail": "<human sentence>", "fields": {"<field>": ["<message>", ...]}}

`fields` is present only for validation errors; nested serializer errors are flattened
to dotted paths such as `participants.2.player`.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


def _flatten(errors: Any, prefix: str = "") -> dict[str, list[str]]:
    flat: dict[str, list[str]] = {}
    if isinstance(errors, dict):
        for key, value in errors.items():
            name = "non_field_errors" if key in ("non_field_errors", "__all__") else str(key)
            path = f"{prefix}.{name}" if prefix and name != "non_field_errors" else (prefix or name)
            for sub_key, messages in _flatten(value, path).items():
                flat.setdefault(sub_key, []).extend(messages)
    elif isinstance(errors, list):
        if all(not isinstance(item, dict | list) for item in errors):
            flat.setdefault(prefix or "non_field_errors", []).extend(str(e) for e in errors)
        else:
            for index, item in enumerate(errors):
                if item:
                    for sub_key, messages in _flatten(item, f"{prefix}.{index}").items():
                        flat.setdefault(sub_key, []).extend(messages)
    else:
        flat.setdefault(prefix or "non_field_errors", []).append(str(errors))
    return flat


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail=detail)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "error": "validation_error",
            "detail": "The request has invalid fields.",
            "fields": _flatten(exc.detail),
        }
        response.status_code = status.HTTP_400_BAD_REQUEST
    elif isinstance(exc, exceptions.APIException):
        detail = exc.detail
        response.data = {
            "error": getattr(exc, "default_code", "error"),
            "detail": str(detail if not isinstance(detail, dict | list) else exc.default_detail),
        }
    return response
