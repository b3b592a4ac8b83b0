"""The suite's flush (tests/conftest.py ``flush_by_delete``): DELETE instead of TRUNCATE must
leave every table as empty as Django's own flush does, foreign keys and all."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from league.clubs.services import league_create
from league.models import League

# Rows that post_migrate puts back after every flush (Django's own, and the arena's ladders:
# tests/conftest.py _reseed_migration_data).
PUT_BACK = {"contenttypes.ContentType", "auth.Permission", "arena.Ladder"}


@pytest.mark.django_db(transaction=True)
def test_the_flush_empties_every_table_whatever_refers_to_what():
    user = get_user_model().objects.create_user("flushed", password="x")
    league_create(name="Flushed", slug="flushed", by=user)  # a league, its organiser, a player
    assert League.objects.exists()

    call_command("flush", interactive=False, verbosity=0)

    left = {
        model._meta.label: count
        for model in apps.get_models()
        if model._meta.label not in PUT_BACK and (count := model._default_manager.count())
    }
    assert left == {}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the DELETE flush is PostgreSQL's")
def test_on_postgresql_the_flush_deletes_and_truncates_only_when_asked_for_more():
    deletes = connection.ops.sql_flush(no_style(), ["league_league", "league_player"])
    assert deletes[0] == "SET CONSTRAINTS ALL DEFERRED"
    assert [s.split()[0] for s in deletes[1:]] == ["DELETE", "DELETE"]
    reset = connection.ops.sql_flush(no_style(), ["league_league"], reset_sequences=True)
    assert reset[0].startswith("TRUNCATE")
