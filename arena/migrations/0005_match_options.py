from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("arena", "0004_cantankerous_ladders")]
    operations = [
        migrations.AddField(
            model_name="match",
            name="options",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
