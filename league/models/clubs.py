"""The clubs' data: players, leagues and their members, seasons, the change log and invitations."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from league.catalogue import GAME_CHOICES
from league.rating_systems import ELO, SYSTEM_CHOICES


class Player(models.Model):
    # Unique within each league, not site-wide (`league.clubs.services`): a site-wide rule would
    # answer "taken" for a guest of a private league, telling anyone that name exists there.
    name = models.CharField(max_length=100, db_index=True)
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
