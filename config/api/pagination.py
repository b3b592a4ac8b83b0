"""The API's page size rules: `limit` and `offset` are whole numbers, and a page is bounded.

DRF's LimitOffsetPagination quietly ignores a `limit` it cannot read and passes any number to
the database, where one past 2**63 fails; here a bad value is a 400 and a large one is capped.
"""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_PAGE_SIZE = 200


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_PAGE_SIZE

    def _whole_number(self, request: Request, name: str, *, minimum: int) -> int | None:
        raw = request.query_params.get(name)
        if raw is None:
            return None
        if not raw.isascii() or not raw.isdigit() or int(raw) < minimum:
            raise ValidationError({name: [f"Must be a whole number of at least {minimum}."]})
        return int(raw)

    def get_limit(self, request: Request) -> int | None:
        limit = self._whole_number(request, self.limit_query_param, minimum=1)
        return self.default_limit if limit is None else min(limit, self.max_limit)

    def get_offset(self, request: Request) -> int:
        return self._whole_number(request, self.offset_query_param, minimum=0) or 0

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.limit_query_param:
                parameter["schema"].update(minimum=1)
                parameter["description"] += f" At most {self.max_limit}; larger values are capped."
            else:
                parameter["schema"].update(minimum=0)
        return parameters
