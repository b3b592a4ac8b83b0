"""Arena data: bots and their immutable versions, ladders, matches and their seats.

Every write goes through the rooms' services (`arena.<room>.services`); the runner
(`arena.runner`) knows nothing of these.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q


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
