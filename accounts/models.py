"""Named API tokens. A user may hold several (one per bot or script) and revoke each alone.

Only a SHA-256 digest of a key is stored: the key is shown once, when it is made, and a leak of
the database does not give anyone a working key. Keys are 40 random characters, so a plain hash
(no salt, no slow hash) is enough: there is nothing to guess from.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    # The first characters of the key, shown in lists so a user can tell their tokens apart.
    prefix = models.CharField(max_length=8)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="api_token_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user}"


class EmailKind(models.TextChoices):
    """What Catleague e-mails a person about. Each is a yes/no column of `EmailPreferences`
    (the column is named after the value), and each e-mail links to a page that turns it off."""

    GAME_PENDING = "game_pending", "A game I played waits for my confirmation"
    LEAGUE_PENDING = "league_pending", "A game in a league I organise waits for an organiser"
    GAME_DISPUTED = "game_disputed", "A game I played or organise is disputed"
    GAME_CORRECTED = "game_corrected", "The result of a game I played is corrected"
    GAME_DELETED = "game_deleted", "A game I played is deleted"
    BOT_REJECTED = "bot_rejected", "A version of one of my bots is rejected"


class EmailPreferencesQuerySet(models.QuerySet["EmailPreferences"]):
    def of(self, user_id: int) -> EmailPreferences:
        """A person's choices: their row, or (before they change anything) the defaults."""
        return self.filter(user_id=user_id).first() or EmailPreferences(user_id=user_id)


class EmailPreferences(models.Model):
    """Which e-mails one person gets, and the last one that could not be delivered.

    A row is made the first time the person changes a choice or an e-mail to them fails; until
    then the columns' defaults apply. Every kind is on by default except the organisers' queue
    of results to confirm: one e-mail per game a member logs is noise in a busy club, and the
    account page lists those games anyway."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_preferences"
    )
    game_pending = models.BooleanField(default=True)
    league_pending = models.BooleanField(default=False)
    game_disputed = models.BooleanField(default=True)
    game_corrected = models.BooleanField(default=True)
    game_deleted = models.BooleanField(default=True)
    bot_rejected = models.BooleanField(default=True)
    # The last e-mail that still failed after every retry; cleared by the next one delivered.
    failed_at = models.DateTimeField(null=True, blank=True)
    failed_address = models.EmailField(blank=True)
    failed_reason = models.CharField(max_length=200, blank=True)

    objects = EmailPreferencesQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "e-mail preferences"

    def __str__(self) -> str:
        return f"E-mail preferences of user {self.user_id}"

    def wants(self, kind: str) -> bool:
        return bool(getattr(self, EmailKind(kind).value))

    @staticmethod
    def default(kind: str) -> bool:
        field = EmailPreferences._meta.get_field(EmailKind(kind).value)
        assert isinstance(field, models.BooleanField)
        return bool(field.default)
