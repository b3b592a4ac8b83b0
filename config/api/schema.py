"""The OpenAPI schema lists every error status an operation can answer, with the one error shape.

Every operation can be refused (400: a bad parameter or body; 401: a bad token; 403: not
allowed; 404: no such thing); an operation with a body can get one that is too large (413);
a throttled view can answer 429. Stating them here keeps each view's own schema about its
successful answer.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema

from config.api.errors import ErrorSerializer

ERRORS = {
    "400": "Invalid parameters or body (see `fields`).",
    "401": "The credentials sent are invalid.",
    "403": "Not allowed (or not logged in).",
    "404": "No such resource, or one you may not see.",
    "413": "The request body is too large.",
    "429": "Too many requests; retry later.",
}


class ErrorDocumentingAutoSchema(AutoSchema):
    def error_codes(self, operation: dict[str, Any]) -> list[str]:
        codes = ["400", "401", "403", "404"]
        if "requestBody" in operation:
            codes.append("413")
        if self.view.get_throttles():
            codes.append("429")
        return codes

    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: Any
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        for code in self.error_codes(operation):
            if code not in operation["responses"]:
                response = self._get_response_for_code(ErrorSerializer, code)  # type: ignore[no-untyped-call]
                response["description"] = ERRORS[code]
                operation["responses"][code] = response
        return operation
