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
