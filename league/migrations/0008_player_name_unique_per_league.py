"""Player names are unique within each league (checked by `league.clubs.services` under the
league's lock), no longer site-wide: the site-wide unique index answered "taken" for the name
of a guest who plays only in a private league.

Existing databases keep working: names unique site-wide are unique within every league, so no
row changes; the unique index gives way to a plain one (lookups and the search by name)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0007_game_uuid"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(db_index=True, max_length=100),
        ),
    ]
