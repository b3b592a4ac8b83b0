import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """django-allauth keeps its rate limits (e-mails sent per address) in the cache."""
    cache.clear()
    yield
    cache.clear()
