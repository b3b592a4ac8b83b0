"""The ladders the migrations made are there in every test, whatever ran before it."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from arena.models import Ladder


@pytest.mark.django_db(transaction=True)
def test_a_flush_as_every_transactional_test_ends_with_leaves_the_migrations_ladders():
    before = sorted(Ladder.objects.values_list("game", "players", "name"))
    assert len(before) == 8  # Cat Lady 2-4 players, Cantankerous Cats 2-6
    call_command("flush", interactive=False, verbosity=0)
    assert sorted(Ladder.objects.values_list("game", "players", "name")) == before
