"""Query-parameter filters that refuse what they cannot use instead of ignoring it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import django_filters
from django.db import models
from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend, FilterSet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter
from rest_framework.request import Request


@extend_schema_field(OpenApiTypes.BOOL)  # a choice of two strings to the schema otherwise
class StrictBooleanFilter(django_filters.TypedChoiceFilter):
    """`true` or `false`; django-filter's BooleanFilter reads anything else as "no filter"."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("choices", [("true", "true"), ("false", "false")])
        kwargs.setdefault("coerce", lambda value: value == "true")
        super().__init__(*args, **kwargs)


class StrictFilterSet(FilterSet):
    FILTER_DEFAULTS = {
        **FilterSet.FILTER_DEFAULTS,
        models.BooleanField: {"filter_class": StrictBooleanFilter},
    }


class StrictFilterBackend(DjangoFilterBackend):
    """Filter sets built from `filterset_fields` are strict too (an invalid value is a 400)."""

    filterset_base = StrictFilterSet


class StrictOrderingFilter(OrderingFilter):
    """`?ordering=` with a field this list cannot be ordered by is a 400, not the default order."""

    def remove_invalid_fields(
        self, queryset: QuerySet[Any], fields: Iterable[str], view: Any, request: Request
    ) -> list[str]:
        valid = {name for name, _ in self.get_valid_fields(queryset, view, {"request": request})}
        terms = list(fields)
        unknown = [term for term in terms if term.removeprefix("-") not in valid]
        if unknown:
            raise ValidationError(
                {
                    self.ordering_param: [
                        f"Cannot order by {', '.join(unknown)}; choose from {', '.join(sorted(valid))}."
                    ]
                }
            )
        return terms
