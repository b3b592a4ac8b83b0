"""What people at a live table see and answer, who is invited, the reviews after the game,
what spectators see, and the pool that rates people and bots on one scale."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from arena.models.bots import BotVersion, house_label
from arena.models.matches import Match


class LiveSeat(models.Model):
    """What the person in one seat of a live match sees and answers.

    The worker playing the match writes it after every move (the position as the seat sees it,
    from the seat's observation, the same a bot gets, and a readable log) and when it asks for
    a move (the legal actions and the deadline); the person's page reads it and writes the
    answer. ``moves`` keeps every answer,
    so a match replayed after a lost worker does not ask again.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="live_seats")
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="live_seats"
    )
    step = models.IntegerField(default=-1, help_text="The last move the board includes.")
    board = models.JSONField(default=dict)  # arena.replay.seat_view: what the page draws
    asked_step = models.IntegerField(null=True, blank=True)
    legal = models.JSONField(default=list)  # [{"action": {...}, "label": "take row 2"}, ...]
    deadline = models.DateTimeField(null=True, blank=True)
    answer = models.JSONField(null=True, blank=True)  # {"step": n, "index": i}
    moves = models.JSONField(default=dict)  # {"<step>": {"index": i}}
    log = models.JSONField(default=list)  # recent moves: {"step", "seat", "who", "label", "status"}
    faults = models.PositiveSmallIntegerField(default=0)
    takebacks = models.PositiveSmallIntegerField(default=0)  # moves taken back (unrated only)
    # The step a takeback went back to, until the worker has played the game again up to it.
    rewound_to = models.IntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="live_seat_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in seat {self.seat + 1} of match {self.match_id}"


class MatchWatch(models.Model):
    """A running match as a spectator sees it, for its watch page (:mod:`arena.watch`).

    The worker playing the match writes this one row as it plays (a bot match at most every
    ``arena.watch.services.PUBLISH_EVERY_S`` and at its last move, a live one every move): the
    position as every seat sees it alike (no seat's hidden cards) and a readable log of the
    moves in the words every seat reads. Nothing here is hidden from anyone.
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="watch"
    )
    step = models.IntegerField(default=-1, help_text="The last move the board includes.")
    board = models.JSONField(default=dict)  # arena.watch.board.spectator_view
    log = models.JSONField(default=list)  # recent moves: {"step", "seat", "who", "label", "status"}
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"match {self.match_id} as watched, move {self.step}"


class LiveInvitation(models.Model):
    """A seat of a live match left for a friend: the link with ``token`` seats the first other
    account that opens it, once (``arena.live.company``); or the host seats a guest there."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="invitations")
    seat = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=64, unique=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="live_invitations",
    )
    used_at = models.DateTimeField(null=True, blank=True)  # taken by a friend or a guest
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="live_invitation_seat"),
        ]

    def __str__(self) -> str:
        return f"invitation to seat {self.seat} of match {self.match_id}"


class MoveReview(models.Model):
    """The review of one person's moves in a finished live match (:mod:`arena.review`): made
    by a task after the game, never during it. ``PENDING`` until the task has run; a game
    whose house bots have no MCTS is ``UNAVAILABLE``, with the reason."""

    class Status(models.TextChoices):
        PENDING = "pending", "Being prepared"
        DONE = "done", "Done"
        UNAVAILABLE = "unavailable", "Unavailable"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PENDING)
    review = models.JSONField(null=True, blank=True)  # arena.review.review_seat
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="move_review_unique"),
        ]

    def __str__(self) -> str:
        return f"review of seat {self.seat + 1} in match {self.match_id} ({self.status})"


class PlayRating(models.Model):
    """Ratings from games between people and bots: one pool per game and player count, in
    which people and bots (submitted versions and house bots) share one Elo scale. The bot
    ladders stay bots-only."""

    game = models.CharField(max_length=40)
    players = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="play_ratings",
    )
    version = models.ForeignKey(
        BotVersion, null=True, blank=True, on_delete=models.CASCADE, related_name="play_ratings"
    )
    builtin = models.CharField(max_length=40, blank=True)
    strength = models.CharField(max_length=10, blank=True)  # a house bot's, as MatchSeat's
    rating = models.FloatField(default=1500.0)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "players", "-rating"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "players", "user"],
                name="play_rating_user",
                condition=Q(user__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["game", "players", "version"],
                name="play_rating_version",
                condition=Q(version__isnull=False),
            ),
            models.UniqueConstraint(
                fields=["game", "players", "builtin", "strength"],
                name="play_rating_builtin_strength",
                condition=~Q(builtin=""),
            ),
            models.CheckConstraint(
                condition=(
                    Q(user__isnull=False, version__isnull=True, builtin="")
                    | Q(user__isnull=True, version__isnull=False, builtin="")
                    | (Q(user__isnull=True, version__isnull=True) & ~Q(builtin=""))
                ),
                name="play_rating_one_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game}, {self.players} players): {self.rating:.0f}"

    @property
    def is_person(self) -> bool:
        return self.user_id is not None

    @property
    def name(self) -> str:
        if self.user is not None:
            return self.user.username
        return str(self.version) if self.version_id else house_label(self.builtin, self.strength)
