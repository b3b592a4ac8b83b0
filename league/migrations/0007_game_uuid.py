"""Every game gets its own uuid (`Game.uuid`), the play uuid of the league's BG Stats export:
added empty, filled one by one (a callable default would give every existing row the same
value), then made unique."""

import uuid

from django.db import migrations, models


def give_each_game_a_uuid(apps, schema_editor):
    Game = apps.get_model("league", "Game")
    batch = []
    for game in Game.objects.filter(uuid__isnull=True).only("pk").iterator(chunk_size=2000):
        game.uuid = uuid.uuid4()
        batch.append(game)
        if len(batch) == 2000:
            Game.objects.bulk_update(batch, ["uuid"])
            batch = []
    Game.objects.bulk_update(batch, ["uuid"])


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0006_play_order_and_scored_cards"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="uuid",
            field=models.UUIDField(editable=False, null=True),
        ),
        migrations.RunPython(give_each_game_a_uuid, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="game",
            name="uuid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, null=True, unique=True),
        ),
    ]
