"""League data: players, leagues and their members, seasons, games played and ratings.

Models hold data and simple invariants; every write goes through `league.services`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from league.catalogue import GAME_CHOICES
from league.rating_systems import ELO, SYSTEM_CHOICES


class Player(models.Model):
    name = models.CharField(max_length=100, unique=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
        help_text="The login of this person, if they have one.",
    )
    # Who entered a guest (a player without a login): only they may add the guest to a league.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LeagueQuerySet(models.QuerySet["League"]):
    def visible_to(self, user) -> LeagueQuerySet:
        if user is not None and user.is_authenticated:
            if user.is_superuser:
                return self
            return self.filter(Q(is_public=True) | Q(memberships__player__user=user)).distinct()
        return self.filter(is_public=True)


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=120, unique=True)
    description = models.TextField(blank=True)
    game = models.CharField(max_length=40, choices=GAME_CHOICES, default="cat-lady")
    is_public = models.BooleanField(default=True)
    k_factor = models.FloatField(default=32.0)
    initial_rating = models.FloatField(default=1500.0)
    provisional_games = models.PositiveIntegerField(
        default=5, help_text="Players with fewer rated games than this are marked provisional."
    )
    rating_system = models.CharField(
        max_length=20,
        choices=SYSTEM_CHOICES,
        default=ELO,
        help_text="How games move ratings (league.rating_systems); changing it rebuilds them.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # --- confirmation of results (issue 16) ---
    class Confirmation(models.TextChoices):
        NONE = "none", "Final at once"
        ANOTHER = "another", "Another participant with a login confirms"
        ALL = "all", "Every other participant with a login confirms"
        ORGANISER = "organiser", "An organiser confirms"

    confirmation = models.CharField(
        max_length=20,
        choices=Confirmation.choices,
        default=Confirmation.NONE,
        db_default=Confirmation.NONE,
    )
    confirmation_days = models.PositiveSmallIntegerField(
        default=7,
        db_default=7,
        help_text="A game nobody confirms or disputes is confirmed after this many days.",
    )
    # --- end of confirmation ---

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(condition=Q(k_factor__gt=0), name="league_k_factor_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        MEMBER = "member", "Member"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "player__name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "player"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.league} ({self.role})"


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=100)
    starts_on = models.DateField()
    ends_on = models.DateField()

    class Meta:
        ordering = ["league", "starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__gte=F("starts_on")), name="season_dates_ordered"
            ),
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class GameQuerySet(models.QuerySet["Game"]):
    def in_play_order(self) -> GameQuerySet:
        """The order ratings follow: when the game was played, never when it was logged.

        Games on the same day without a time fall back on a digest of their content, so the
        same set of results always gives the same order whatever order they arrived in.
        """
        return self.order_by(
            "played_on", F("played_time").asc(nulls_first=True), "content_key", "id"
        )


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
    content_key = models.CharField(max_length=64, editable=False, default="")
    # The play's uuid in the BG Stats file it was imported from: importing the file again
    # finds it and creates nothing new.
    bgstats_uuid = models.CharField(max_length=64, blank=True, default="", db_default="")
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
                fields=["league", "played_on", "played_time", "content_key", "id"],
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


class AuditEntry(models.Model):
    """Who changed what, and when. Written by the services in the same transaction."""

    class Action(models.TextChoices):
        CREATE = "create", "Created"
        UPDATE = "update", "Updated"
        DELETE = "delete", "Deleted"
        REBUILD = "rebuild", "Ratings rebuilt"
        CONFIRM = "confirm", "Confirmed"
        DISPUTE = "dispute", "Disputed"

    league = models.ForeignKey(League, null=True, on_delete=models.SET_NULL, related_name="audit")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL)
    action = models.CharField(max_length=20, choices=Action.choices)
    object_type = models.CharField(max_length=40)
    object_id = models.BigIntegerField(null=True)
    changes = models.JSONField(default=dict)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.user} {self.action} {self.object_type} {self.object_id}"


class Invitation(models.Model):
    """A link that lets whoever opens it join a league, by their own consent.

    An invitation that names a guest player is for one person: accepting it gives the guest
    (and all their games) to the account that accepts, and the link is then used up. Other
    invitations can be shared with the whole group until they expire or are revoked.
    """

    # Where the pages keep the invitation a visitor opened while they sign up or log in.
    SESSION_KEY = "catleague_invitation"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    token = models.CharField(max_length=64, unique=True)
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="invitations",
        help_text="A guest player the invitee takes over, keeping their history.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Invitation to {self.league}" + (f" for {self.player}" if self.player_id else "")


# --- confirmation and game nights (issue 16) -------------------------------------------------


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
