"""Query-parameter filters that refuse what they cannot use instead of ignoring it."""

from __future__ import annotations

import django_filters
from django.db import models
from django_filters.rest_framework import DjangoFilterBackend, FilterSet
from rest_framework.exceptions import ValidationError
from rest_framework.filters import OrderingFilter


class StrictBooleanFilter(django_filters.TypedChoiceFilter):
    """`true` or `false`; django-filter's BooleanFilter reads anything else as "no filter"."""

    def __init__(self, *args, **kwargs):
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

    def remove_invalid_fields(self, queryset, fields, view, request):
        valid = {name for name, _ in self.get_valid_fields(queryset, view, {"request": request})}
        unknown = [term for term in fields if term.removeprefix("-") not in valid]
        if unknown:
            raise ValidationError(
                {
                    self.ordering_param: [
                        f"Cannot order by {', '.join(unknown)}; choose from {', '.join(sorted(valid))}."
                    ]
                }
            )
        return fields
