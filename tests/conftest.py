"""Shared test configuration. Engine tests never touch the database."""

from django.db.models.signals import post_migrate

from arena.ladders.services import ladders_ensure


def _reseed_migration_data(sender, **kwargs) -> None:
    """Every transactional test ends with a flush, which also empties the rows the migrations
    seeded (the arena's ladders); later tests on the same database process (pytest-xdist runs
    files in any order) expect them. Flush ends with post_migrate, so they are put back there,
    exactly as the migrations made them."""
    if sender.label == "arena":
        for game in ("cat-lady", "cantankerous-cats"):
            ladders_ensure(game)


post_migrate.connect(_reseed_migration_data, dispatch_uid="tests-reseed-migration-data")
