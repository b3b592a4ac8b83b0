from django.db import migrations

# The ladders play the engine's default deck for Cantankerous Cats, the demo deck: their names
# say so, since the published card list is not public (docs/cantankerous.md).
NAME = "Cantankerous Cats (deck: demo — not the published cards), {players} players"


def create_ladders(apps, schema_editor):
    Ladder = apps.get_model("arena", "Ladder")
    for players in (2, 3, 4, 5, 6):
        Ladder.objects.get_or_create(
            game="cantankerous-cats",
            players=players,
            defaults={"name": NAME.format(players=players)},
        )


def remove_ladders(apps, schema_editor):
    apps.get_model("arena", "Ladder").objects.filter(
        game="cantankerous-cats", matches=None
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("arena", "0003_tournament_final_table")]
    operations = [migrations.RunPython(create_ladders, remove_ladders)]
