from django.db import migrations


def create_ladders(apps, schema_editor):
    Ladder = apps.get_model("arena", "Ladder")
    for players in (2, 3, 4):
        Ladder.objects.get_or_create(
            game="cat-lady", players=players, defaults={"name": f"Cat Lady, {players} players"}
        )


class Migration(migrations.Migration):
    dependencies = [("arena", "0001_initial")]
    operations = [migrations.RunPython(create_ladders, migrations.RunPython.noop)]
