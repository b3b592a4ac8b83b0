"""Matches and their seats (bots, house bots, people), and the workers that play them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q

from arena.models.bots import BotVersion, Ladder, Tournament, house_label


class MatchQuerySet(models.QuerySet["Match"]):
    def with_open_siblings(self) -> MatchQuerySet:
        """Annotate ``open_siblings``: another match of the same duplicate set (the same deal)
        is still queued or running, so this one's deal must stay hidden."""
        return self.annotate(
            open_siblings=Exists(
                Match.objects.filter(
                    duplicate_set=OuterRef("duplicate_set"), status__in=Match.OPEN_STATUSES
                ).exclude(duplicate_set="")
            )
        )


class Match(models.Model):
    class Kind(models.TextChoices):
        VALIDATION = "validation", "Validation"
        LADDER = "ladder", "Ladder"
        CHALLENGE = "challenge", "Challenge"
        TOURNAMENT = "tournament", "Tournament"
        LIVE = "live", "Live (a person at the table)"
        GAUNTLET = "gauntlet", "Gauntlet"  # a new version against the one it would replace

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed"

    OPEN_STATUSES = (Status.QUEUED, Status.RUNNING)

    kind = models.CharField(max_length=20, choices=Kind.choices)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.QUEUED)
    game = models.CharField(max_length=40, default="cat-lady")
    engine_version = models.CharField(max_length=20, blank=True)
    seed = models.BigIntegerField()
    ladder = models.ForeignKey(
        Ladder, null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="matches"
    )
    tournament_round = models.PositiveSmallIntegerField(null=True, blank=True)
    # Matches of one duplicate set share the deck seed and rotate the seats.
    duplicate_set = models.CharField(max_length=40, blank=True, db_index=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    sandbox_mode = models.CharField(max_length=30, blank=True)
    limits = models.JSONField(default=dict)
    # Game options beyond the player count (Cat Lady: the edition, shared goals, solitaire).
    # Ranked matches keep the game's defaults: complete card data only (engine.catlady.options).
    options = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Each time the match is handed to the broker this goes up and travels with the task, so
    # a message superseded by a re-queue (the reaper's, after a lost message) does nothing.
    dispatch = models.PositiveIntegerField(default=0)
    queued_at = models.DateTimeField(null=True, blank=True)
    # A live match waits minutes for a person: its worker beats this while it waits, so the
    # reaper can tell a thinking person from a lost worker.
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    # A live match with seats left for friends waits for them until then before its first
    # move (arena.live.company); None once every seat is taken, or for no friend at all.
    seats_open_until = models.DateTimeField(null=True, blank=True)
    # The last infrastructure fault (no sandbox, no free bot slot): never the bots' fault, so
    # the match goes back to the queue and is retried until a worker can play it.
    infra_failure = models.TextField(blank=True)
    failure = models.TextField(blank=True)
    log = models.JSONField(null=True, blank=True)
    house_moves = models.JSONField(default=dict, blank=True)  # house bots' moves: no re-search
    # Live matches: an unrated one never changes PlayRating, and only it allows takebacks.
    rated = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["status", "started_at"], name="match_status_started"),
            models.Index(fields=["status", "queued_at"], name="match_status_queued"),
            # The pages' "recent matches" lists: all of them, and per ladder.
            models.Index(fields=["-finished_at", "-id"], name="match_finished_order"),
            models.Index(fields=["ladder", "-finished_at", "-id"], name="match_ladder_finished"),
            models.Index(fields=["-created_at", "-id"], name="match_created_order"),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk} ({self.kind}, {self.status})"

    @property
    def deal_revealed(self) -> bool:
        """Whether the seed, the log and the replay may be shown to anyone.

        The seed gives the whole deal (``new_initial_state(seed).full_view()``), so it and
        everything built from it stay hidden, from the owner too, until the match is over and so
        is every other seating of the same deal. Read ``open_siblings`` from
        :meth:`MatchQuerySet.with_open_siblings` where it was annotated, else ask the database.
        """
        if self.status not in (Match.Status.FINISHED, Match.Status.FAILED):
            return False
        if not self.duplicate_set:
            return True
        open_siblings = getattr(self, "open_siblings", None)
        if open_siblings is None:
            open_siblings = Match.objects.filter(
                duplicate_set=self.duplicate_set, status__in=Match.OPEN_STATUSES
            ).exists()
        return not open_siblings

    @property
    def watchable(self) -> bool:
        """Whether a spectator may follow it now: it is in play, and no other seating of its
        deal is still to be played or in play (its face-up cards would show that one's hidden
        cards)."""
        if self.status not in Match.OPEN_STATUSES:
            return False
        if not self.duplicate_set:
            return True
        others = Match.objects.filter(
            duplicate_set=self.duplicate_set, status__in=Match.OPEN_STATUSES
        ).exclude(pk=self.pk)
        return not others.exists()


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    builtin = models.CharField(max_length=40, blank=True, help_text="A house bot's strategy name.")
    # A house bot's strength at a live table (arena.live.strength): its search budget.
    strength = models.CharField(max_length=10, blank=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arena_seats",
        help_text="A person playing this seat (live matches).",
    )
    # A guest with no account, playing on the host's device (arena.live.company): not rated.
    guest = models.CharField(max_length=30, blank=True)
    score = models.IntegerField(null=True, blank=True)
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    faults = models.PositiveSmallIntegerField(default=0)
    forfeited = models.BooleanField(default=False)
    rating_before = models.FloatField(null=True, blank=True)
    rating_after = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="match_seat_unique"),
            # A seat is a bot's or a person's, never both. A person's seat may have no one yet
            # (left for a friend who has not come) or no longer (the account was removed).
            models.CheckConstraint(
                condition=Q(player__isnull=True, guest="") | Q(version__isnull=True, builtin=""),
                name="match_seat_bot_or_person",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat + 1}: {self.label}"  # as the pages count, from 1

    @property
    def label(self) -> str:
        if self.version_id:
            return str(self.version)
        if self.builtin:
            return house_label(self.builtin, self.strength)
        if self.guest:
            return f"{self.guest} (guest)"
        # No one: left for a friend who has not come yet, or the account was removed since.
        return self.player.username if self.player is not None else "a person (no one seated)"

    @property
    def is_person(self) -> bool:
        return not self.version_id and not self.builtin

    @property
    def rating_delta(self) -> float | None:
        if self.rating_before is None or self.rating_after is None:
            return None
        return self.rating_after - self.rating_before


class WorkerBeat(models.Model):
    """A Celery worker that says it is alive: each worker beats its row every
    ``ARENA_WORKER_BEAT_S`` from a timer started when it is ready (``arena.tasks``), so the
    health check (``/healthz``) can tell whether any worker is up, whatever the broker."""

    hostname = models.CharField(max_length=255, unique=True)
    queues = models.CharField(max_length=255, blank=True)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(db_index=True)

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return f"{self.hostname} (seen {self.last_seen:%Y-%m-%d %H:%M:%S})"
