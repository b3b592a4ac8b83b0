"""Bots and their immutable versions, the ladders they climb and the tournaments they enter."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


def house_label(builtin: str, strength: str) -> str:
    """A house bot's name at the table and in the pools: ``house:mcts · hard``."""
    return f"house:{builtin}" + (f" · {strength}" if strength else "")


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.SlugField(max_length=60, unique=True)
    game = models.CharField(max_length=40, default="cat-lady")
    description = models.TextField(blank=True)
    active_version = models.ForeignKey(
        "BotVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class BotVersion(models.Model):
    """One uploaded source file. Never edited: a change is a new version."""

    class Status(models.TextChoices):
        VALIDATING = "validating", "Validating"
        ACTIVE = "active", "Active"
        REJECTED = "rejected", "Rejected"
        RETIRED = "retired", "Retired"
        TRIAL = "trial", "In its gauntlet"  # validated; off the ladder until promoted

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    source = models.TextField()
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.VALIDATING)
    rejection = models.TextField(blank=True, help_text="Why validation refused this version.")
    # Why a version is still validating when the arena, not the bot, is the reason (no
    # sandbox on the worker, a lost database): shown to its owner, cleared once settled.
    waiting_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["bot", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="bot_version_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.bot.name} v{self.number}"


class Ladder(models.Model):
    """A continuous ranking for one game and player count (2, 3 and 4 players differ)."""

    game = models.CharField(max_length=40, default="cat-lady")
    players = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=80)
    ranked = models.BooleanField(default=True)
    k_factor = models.FloatField(default=24.0)
    provisional_games = models.PositiveIntegerField(default=10)
    active = models.BooleanField(default=True)

    class Meta:
        ordering = ["game", "players"]
        constraints = [
            models.UniqueConstraint(fields=["game", "players"], name="ladder_game_players_unique"),
            models.CheckConstraint(condition=Q(players__gte=2), name="ladder_players_at_least_two"),
        ]

    def __str__(self) -> str:
        return self.name


class LadderEntry(models.Model):
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="entries")
    version = models.ForeignKey(BotVersion, on_delete=models.CASCADE, related_name="ladder_entries")
    rating = models.FloatField(default=1500.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    forfeits = models.PositiveIntegerField(default=0)
    # Per seat: {"0": [games, wins], "1": [...]}, so seat advantage shows.
    seat_record = models.JSONField(default=dict)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ladder", "version"], name="ladder_entry_unique"),
        ]
        indexes = [models.Index(fields=["ladder", "-rating"], name="ladder_entry_order")]

    def __str__(self) -> str:
        return f"{self.version} on {self.ladder}: {self.rating:.0f}"

    @property
    def provisional(self) -> bool:
        return self.games < self.ladder.provisional_games


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=100)
    organiser = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    game = models.CharField(max_length=40, default="cat-lady")
    format = models.CharField(max_length=20, choices=Format.choices)
    table_size = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField()
    # The top this many after the regular rounds play one final table (seat rotations of one
    # deal) whose result decides the top places; 0: no final, the standings decide.
    final_size = models.PositiveSmallIntegerField(default=0)
    current_round = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField()
    entrants = models.ManyToManyField(BotVersion, related_name="tournaments")
    # House bots entered beside the versions, by strategy name (["mcts", "greedy"]).
    house_entrants = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.RUNNING)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name

    @property
    def final_round(self) -> int | None:
        """The round number the final table plays as (after the regular rounds), if any."""
        return self.rounds + 1 if self.final_size else None

    @property
    def in_final(self) -> bool:
        return self.final_round is not None and self.current_round == self.final_round
