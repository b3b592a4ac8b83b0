"""The game nights' data: a night, who came, its rounds, tables and seats."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from league.models.clubs import League, Player
from league.models.results import Game


class GameNight(models.Model):
    """A club evening: the people present play several rounds at tables drawn by Catleague."""

    class FirstRound(models.TextChoices):
        RATING = "rating", "By rating (similar ratings together)"
        RANDOM = "random", "At random"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="nights")
    played_on = models.DateField()
    place = models.CharField(max_length=120, blank=True)
    edition = models.CharField(max_length=40)
    rounds = models.PositiveSmallIntegerField(default=3)
    min_table = models.PositiveSmallIntegerField()
    max_table = models.PositiveSmallIntegerField()
    first_round = models.CharField(
        max_length=10, choices=FirstRound.choices, default=FirstRound.RATING
    )
    seed = models.BigIntegerField(default=0, help_text="Seeds the random draws of this night.")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-played_on", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(min_table__gte=2, max_table__gte=F("min_table")),
                name="night_table_sizes",
            ),
            models.CheckConstraint(condition=Q(rounds__gte=1), name="night_rounds_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.league} night on {self.played_on}"


class NightAttendee(models.Model):
    """Someone on tonight's list; `present` is whether they play the next round drawn."""

    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="attendees")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    present = models.BooleanField(default=True)

    class Meta:
        ordering = ["night", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_attendee_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at night {self.night_id}"


class NightRound(models.Model):
    night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="night_rounds")
    number = models.PositiveSmallIntegerField()
    explanation = models.JSONField(default=list)
    sitting_out = models.ManyToManyField(Player, blank=True, related_name="+")
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["night", "number"]
        constraints = [
            models.UniqueConstraint(fields=["night", "number"], name="night_round_once"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of night {self.night_id}"


class NightTable(models.Model):
    round = models.ForeignKey(NightRound, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The league game entered for this table; deleting the game reopens the table.
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="night_table"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="night_table_once"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of round {self.round_id}"


class NightSeat(models.Model):
    """A drawn seat: seat 1 starts."""

    table = models.ForeignKey(NightTable, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="night_seat_once"),
            models.UniqueConstraint(fields=["table", "player"], name="night_seat_player_once"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat} of table {self.table_id}"
