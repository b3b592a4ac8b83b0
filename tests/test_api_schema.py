"""The OpenAPI schema is the contract: it says what each operation answers, errors included."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

ERROR = {"$ref": "#/components/schemas/Error"}


@pytest.fixture(scope="module")
def openapi(django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    return response.json()


def _operations(openapi):
    for path, item in openapi["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                yield path, method, operation


def _json_schema(response: dict) -> dict:
    return response["content"]["application/json"]["schema"]


def test_every_operation_lists_its_errors_in_the_one_shape(openapi):
    operations = list(_operations(openapi))
    assert len(operations) >= 40
    for path, method, operation in operations:
        responses = operation["responses"]
        expected = {"400", "401", "403", "404"} | ({"413"} if "requestBody" in operation else set())
        assert expected <= set(responses), (method, path)
        for code in expected:
            assert _json_schema(responses[code]) == ERROR, (method, path, code)
    token = openapi["paths"]["/api/auth/token/"]["post"]["responses"]
    assert _json_schema(token["429"]) == ERROR
    error = openapi["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"error", "detail"} and "fields" in error["properties"]


@pytest.mark.parametrize(
    "path",
    [
        "/api/catalogue/",
        "/api/leagues/{id}/standings/",
        "/api/leagues/{id}/seasons/",
        "/api/arena/ladders/{id}/standings/",
        "/api/arena/bots/{id}/versions/",
    ],
)
def test_bare_lists_are_declared_as_arrays(openapi, path):
    assert _json_schema(openapi["paths"][path]["get"]["responses"]["200"])["type"] == "array"


def test_nullable_fields_are_declared_nullable(openapi):
    schemas = openapi["components"]["schemas"]
    assert schemas["Player"]["properties"]["username"]["nullable"] is True
    assert schemas["Game"]["properties"]["logged_by"]["nullable"] is True


def test_bounds_are_in_the_schema(openapi):
    league = openapi["components"]["schemas"]["LeagueRequest"]["properties"]
    assert (league["k_factor"]["minimum"], league["k_factor"]["maximum"]) == (1, 100)
    assert (league["initial_rating"]["minimum"], league["initial_rating"]["maximum"]) == (0, 5000)
    limits = {p["name"]: p["schema"] for p in openapi["paths"]["/api/games/"]["get"]["parameters"]}
    assert limits["limit"]["minimum"] == 1 and limits["offset"]["minimum"] == 0
    tournament = openapi["components"]["schemas"]["TournamentRequest"]
    assert {"name", "format", "table_size", "entrants"} <= set(tournament["required"])


def test_boolean_filters_are_plain_booleans(openapi):
    """`?rated=true`: a boolean, not a boolean whose allowed values are strings."""
    for path, method, operation in _operations(openapi):
        for parameter in operation.get("parameters", []):
            schema = parameter.get("schema", {})
            if schema.get("type") == "boolean":
                assert "enum" not in schema, (method, path, parameter["name"])
    games = {p["name"]: p["schema"] for p in openapi["paths"]["/api/games/"]["get"]["parameters"]}
    assert games["rated"] == {"type": "boolean"}


# What one object's extra actions read from the query string: their own parameters (and
# the page of a paginated list), never the filters of the list they hang from.
ACTION_PARAMETERS = {
    ("/api/leagues/{id}/members/", "get"): {"limit", "offset"},
    ("/api/leagues/{id}/audit/", "get"): {"limit", "offset"},
    ("/api/leagues/{id}/standings/", "get"): {"season"},
    ("/api/leagues/{id}/seasons/", "get"): set(),
    ("/api/players/{id}/ratings/", "get"): {"league", "limit", "offset"},
    ("/api/arena/bots/{id}/versions/", "get"): set(),
    ("/api/arena/ladders/{id}/standings/", "get"): set(),
}


@pytest.mark.parametrize(("path", "method"), sorted(ACTION_PARAMETERS))
def test_object_actions_advertise_only_their_own_parameters(openapi, path, method):
    parameters = openapi["paths"][path][method].get("parameters", [])
    query = {p["name"] for p in parameters if p["in"] == "query"}
    assert query == ACTION_PARAMETERS[(path, method)]
