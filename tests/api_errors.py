"""The one error shape every API failure has (docs/api.md), checked the same way by the league
and arena API tests."""

from __future__ import annotations


def api_error(response, status: int, code: str | None = None) -> dict:
    """The JSON error body of ``response``, after checking its status, that it is JSON, that it
    carries a detail and no key beyond error/detail/fields, and (if given) its error code."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) <= {"error", "detail", "fields"} and body["detail"]
    if code is not None:
        assert body["error"] == code
    return body
