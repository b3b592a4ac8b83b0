"""Play order is the order of play (issue 26), and a game scored from its cards keeps them.

Within a day, games were ordered by a digest of their content (`content_key`), so a night's
round 2 could be rated before its round 1. They now follow the time of day, then the round of
the game night (`night_round`, filled here from the night tables the games belong to), then
the order they were entered in (their id). The newest-first index of 0002 is rebuilt on the
new order (PostgreSQL only, as there).

Ratings stored before this migration followed the old order: `bin/manage rebuild_ratings
--all` re-rates every league in the new one (a league is also re-rated from the date of any
game logged, corrected or deleted in it).

`Game.scored_with` and `Participant.cards` keep what the card calculator scored a result
from, so that a correction opens with the cards; games logged before have none.
"""

from django.db import migrations, models

NEWEST_FIRST = "league_game_newest_first"


def drop_newest_first(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {NEWEST_FIRST}")


def create_newest_first(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {NEWEST_FIRST} ON league_game (league_id, played_on "
            "DESC, played_time DESC NULLS LAST, night_round DESC NULLS LAST, id DESC)"
        )


def create_old_newest_first(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {NEWEST_FIRST} ON league_game "
            "(league_id, played_on DESC, played_time DESC NULLS LAST, content_key DESC, id DESC)"
        )


def fill_night_rounds(apps, schema_editor):
    NightTable = apps.get_model("league", "NightTable")
    Game = apps.get_model("league", "Game")
    tables = NightTable.objects.filter(game__isnull=False).values_list("game_id", "round__number")
    for game_id, number in tables.iterator():
        Game.objects.filter(pk=game_id).update(night_round=number)


class Migration(migrations.Migration):
    dependencies = [("league", "0005_game_nights_and_confirmation")]

    operations = [
        migrations.RunPython(drop_newest_first, create_old_newest_first, elidable=False),
        migrations.RemoveIndex(model_name="game", name="game_play_order"),
        migrations.RemoveField(model_name="game", name="content_key"),
        migrations.AddField(
            model_name="game",
            name="night_round",
            field=models.PositiveSmallIntegerField(blank=True, editable=False, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="scored_with",
            field=models.CharField(blank=True, db_default="", default="", max_length=40),
        ),
        migrations.AddField(
            model_name="participant",
            name="cards",
            field=models.JSONField(blank=True, db_default={}, default=dict),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["league", "played_on", "played_time", "night_round", "id"],
                name="game_play_order",
            ),
        ),
        migrations.RunPython(fill_night_rounds, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(create_newest_first, drop_newest_first, elidable=False),
    ]
