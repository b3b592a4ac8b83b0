"""The results' data: games played, their players and results, ratings, and confirmations and
disputes of logged games."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import F, OrderBy, Q

from league.catalogue import GAME_CHOICES
from league.models.clubs import League, Player, Season


def play_order(*, through: str = "", newest_first: bool = False) -> tuple[str | OrderBy, ...]:
    """The order games were played in, which ratings, standings and every list follow: the
    day, then the time of day (a game without one first), then the round of a game night (a
    game outside a night first), then the order the games were entered in (their id).

    ``through`` reaches the game from another model (``"game__"`` from a participant);
    ``newest_first`` is exactly the reverse order, which the ``league_game_newest_first``
    index holds on PostgreSQL (migration 0006).
    """
    if newest_first:
        return (
            f"-{through}played_on",
            F(f"{through}played_time").desc(nulls_last=True),
            F(f"{through}night_round").desc(nulls_last=True),
            f"-{through}id",
        )
    return (
        f"{through}played_on",
        F(f"{through}played_time").asc(nulls_first=True),
        F(f"{through}night_round").asc(nulls_first=True),
        f"{through}id",
    )


class GameQuerySet(models.QuerySet["Game"]):
    def in_play_order(self) -> GameQuerySet:
        """The order ratings follow (`play_order`): when the game was played, never when it
        was edited."""
        return self.order_by(*play_order())


class Game(models.Model):
    """One physical game played at a club table."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="games"
    )
    game = models.CharField(max_length=40, choices=GAME_CHOICES)
    edition = models.CharField(max_length=40)
    played_on = models.DateField()
    played_time = models.TimeField(null=True, blank=True)
    place = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True, help_text="Game-level result fields.")
    rated = models.BooleanField(default=True)

    # --- confirmation of results (issue 16): only confirmed games count ---
    class Status(models.TextChoices):
        CONFIRMED = "confirmed", "Confirmed"
        PENDING = "pending", "Waiting for confirmation"
        DISPUTED = "disputed", "Disputed"

    # db_default too: rows written by raw SQL (bulk loads, COPY) are final, as before.
    status = models.CharField(
        max_length=20,
        choices=Status.choices,
        default=Status.CONFIRMED,
        db_default=Status.CONFIRMED,
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # --- end of confirmation ---
    # The round of the game night whose table this game was played at: within a day, a
    # night's rounds are rated in the order they were played, whenever they were entered.
    night_round = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    # The calculator's card data (`league.results.entry.Deck.name`) when the result was scored
    # from the players' cards, which each participant's `cards` then holds; empty for totals.
    scored_with = models.CharField(max_length=40, blank=True, default="", db_default="")
    # The play's uuid in the BG Stats file it was imported from: importing the file again
    # finds it and creates nothing new.
    bgstats_uuid = models.CharField(max_length=64, blank=True, default="", db_default="")
    # The game's own uuid: its play uuid in the league's BG Stats export when it was not
    # imported, so importing that export again (here or anywhere) finds it. Null only for rows
    # bulk-loaded with raw SQL (the benchmarks), which export under a derived uuid instead.
    uuid = models.UUIDField(default=uuid.uuid4, null=True, unique=True, editable=False)
    logged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="logged_games",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = GameQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(
                fields=["league", "played_on", "played_time", "night_round", "id"],
                name="game_play_order",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["league", "bgstats_uuid"],
                condition=~Q(bgstats_uuid=""),
                name="game_bgstats_uuid_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} on {self.played_on} ({self.league})"


class Participant(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations")
    seat = models.PositiveSmallIntegerField()
    result = models.JSONField(default=dict)
    score = models.IntegerField(help_text="The game's headline number (VP, cats, Mischief points).")
    rank = models.PositiveSmallIntegerField()
    # What the card calculator scored `result` from (cats, strays, boxes and counts, as the
    # result form takes them) when the game's `scored_with` names card data; empty otherwise.
    cards = models.JSONField(default=dict, blank=True, db_default={})
    # Filled in by the rating pass; empty for unrated games.
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)
    expected_score = models.FloatField(null=True, blank=True)
    actual_score = models.FloatField(null=True, blank=True)
    # OpenSkill's skill (mean and uncertainty) around this game; empty under Elo. The rating
    # columns then hold the conservative rating mu - 3 sigma.
    mu_before = models.FloatField(null=True, blank=True)
    sigma_before = models.FloatField(null=True, blank=True)
    mu_after = models.FloatField(null=True, blank=True)
    sigma_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="participant_player_once"),
            models.UniqueConstraint(fields=["game", "seat"], name="participant_seat_once"),
            models.CheckConstraint(condition=Q(seat__gte=1), name="participant_seat_positive"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="participant_rank_positive"),
        ]
        indexes = [models.Index(fields=["player", "game"], name="participant_player_game")]

    def __str__(self) -> str:
        return f"{self.player} (seat {self.seat}, rank {self.rank})"

    @property
    def rating_delta(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class PlayerRating(models.Model):
    """A player's current standing in one league; rebuilt from the games at any time."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.FloatField()
    games_played = models.PositiveIntegerField(default=0)
    rated_games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    placement_sum = models.PositiveIntegerField(default=0)
    trend = models.FloatField(
        default=0.0, help_text="Rating change over the player's last few rated games."
    )
    last_played_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="player_rating_unique"),
        ]
        indexes = [models.Index(fields=["league", "-rating"], name="player_rating_order")]

    def __str__(self) -> str:
        return f"{self.player} in {self.league}: {self.rating:.0f}"


class GameConfirmation(models.Model):
    """One participant (or an organiser) vouching for a game's result."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="confirmations")
    player = models.ForeignKey(Player, null=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    as_organiser = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="game_confirmation_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user} confirmed game {self.game_id}"


class GameDispute(models.Model):
    """A participant saying a game's result is wrong, until an organiser resolves it."""

    class Resolution(models.TextChoices):
        CONFIRMED = "confirmed", "Result confirmed as recorded"
        CORRECTED = "corrected", "Result corrected"
        DELETED = "deleted", "Game deleted"

    game = models.ForeignKey(Game, null=True, on_delete=models.SET_NULL, related_name="disputes")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="disputes")
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField()
    raised_at = models.DateTimeField(auto_now_add=True)
    resolution = models.CharField(max_length=20, choices=Resolution.choices, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["-raised_at", "-id"]

    def __str__(self) -> str:
        return f"Dispute of game {self.game_id}: {self.reason[:40]}"
