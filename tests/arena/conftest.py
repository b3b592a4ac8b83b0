"""Arena fixtures: users and bot sources from tests/arena/bots (eager Celery for unit tests is
tests/conftest.py's; the integration tests use a real worker instead)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.arena.bots import bot_source


@pytest.fixture
def authors(db):
    User = get_user_model()
    return {
        name: User.objects.create_user(name, password="pw-123456789") for name in ("ada", "bob")
    }


@pytest.fixture
def client_for(authors):
    def make(name: str | None) -> APIClient:
        client = APIClient()
        if name:
            client.force_authenticate(authors[name])
        return client

    return make


@pytest.fixture
def source():
    def text(name: str) -> str:
        code = bot_source(name)
        return code.decode() if isinstance(code, bytes) else code

    return text
