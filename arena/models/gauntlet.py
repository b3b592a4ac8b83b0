"""A gauntlet: what a new version of a bot plays before it may replace the active one.

The foreign keys name the arena's other models by string, so this module imports none of them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Gauntlet(models.Model):
    """A version on trial (``BotVersion.Status.TRIAL``) against the version it would replace
    and the house bots: ``deals`` deals from ``seed``, each played with the seats rotated,
    against every opponent. The owner then promotes it or keeps the old one."""

    class Decision(models.TextChoices):
        PENDING = "pending", "Waiting for the owner"
        PROMOTED = "promoted", "Promoted"
        KEPT = "kept", "Kept the old version"

    version = models.OneToOneField(
        "arena.BotVersion", on_delete=models.CASCADE, related_name="gauntlet"
    )
    replaces = models.ForeignKey("arena.BotVersion", on_delete=models.CASCADE, related_name="+")
    # Gives every deal: shown only once the gauntlet is over (the deals are hidden till then).
    seed = models.BigIntegerField()
    deals = models.PositiveSmallIntegerField()
    mcts_strength = models.CharField(max_length=10)  # arena.live.strength: its playouts
    promote_when_not_worse = models.BooleanField(default=False)
    decision = models.CharField(max_length=20, choices=Decision.choices, default=Decision.PENDING)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    # Why the rule "promote when not worse" did or did not promote, in words.
    decision_note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"gauntlet of {self.version} against {self.replaces}"

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


class GauntletMatch(models.Model):
    """One match of a gauntlet: which opponent and which deal it plays."""

    class Opponent(models.TextChoices):
        REPLACED = "replaced", "The version it replaces"
        GREEDY = "greedy", "House greedy"
        MCTS = "mcts", "House mcts"
        RANDOM = "random", "House random"  # for a game with no house mcts

    gauntlet = models.ForeignKey(Gauntlet, on_delete=models.CASCADE, related_name="games")
    match = models.OneToOneField(
        "arena.Match", on_delete=models.CASCADE, related_name="gauntlet_game"
    )
    opponent = models.CharField(max_length=20, choices=Opponent.choices)
    deal = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["gauntlet", "deal", "opponent", "match"]

    def __str__(self) -> str:
        return f"{self.gauntlet}: deal {self.deal} against {self.opponent}"
