"""One error shape for every API failure.

    {"error": "<code>", "detail": "<human sentence>", "fields": {"<field>": ["<message>", ...]}}

`fields` is present only for validation errors; nested serializer errors are flattened
to dotted paths such as `participants.2.player`.

Failures that happen before a DRF view runs (an unknown URL, a body Django refuses to read)
get the same shape under /api/ through the handlers at the end of this module.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from config.api.parsers import RequestTooLarge

API_PREFIX = "/api/"


class ErrorSerializer(serializers.Serializer[Any]):
    """The shape of every API error."""

    error = serializers.CharField(help_text="A stable code, e.g. validation_error, not_found.")
    detail = serializers.CharField(help_text="One human sentence.")
    # The error shape's key is `fields`; DRF's metaclass takes declared fields off the class,
    # so it does not shadow Serializer.fields at run time.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        required=False,
        help_text="Validation errors only: messages per field, nested fields as dotted paths.",
    )


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
        detail = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        exc = exceptions.ValidationError(detail=detail)
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge()
    elif isinstance(exc, Http404 | exceptions.NotFound):
        # One answer for everything missing or private: a different text for a private league
        # than for a missing one would tell a stranger what exists.
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        # A service's refusal is a sentence for the person refused (who may not confirm this
        # game, and why): it says nothing they could not see already.
        exc = exceptions.PermissionDenied(str(exc) or None)
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
        shown = exc.detail
        response.data = {
            "error": getattr(exc, "default_code", "error"),
            "detail": str(shown if not isinstance(shown, dict | list) else exc.default_detail),
        }
    return response


def error_response(status_code: int, error: str, detail: str) -> JsonResponse:
    return JsonResponse({"error": error, "detail": detail}, status=status_code)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


# Django's error handlers (config.urls): JSON under /api/, the usual pages elsewhere.


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        return error_response(
            413, RequestTooLarge.default_code, str(RequestTooLarge.default_detail)
        )
    return error_response(400, "bad_request", "The request could not be read.")


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.permission_denied(request, exception)
    return error_response(403, "permission_denied", "You may not do this.")


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _is_api(request):
        return defaults.page_not_found(request, exception)
    return error_response(404, "not_found", "No such resource.")


def server_error(request: HttpRequest) -> HttpResponse:
    if not _is_api(request):
        return defaults.server_error(request)
    return error_response(500, "server_error", "Something went wrong on our side.")
