"""Arena REST API: bots and versions, challenges, matches and their logs, ladders, tournaments.

Owners see their bots' sources, stderr, fault texts and rejection details; everyone else gets a
one-line reason (the rule of the web pages, through the same selectors).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import UploadedFile
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena import selectors, services
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match, MatchSeat, Tournament
from arena.runner import MAX_BOT_BYTES
from config.api.parsers import BoundedJSONParser
from engine import registered_games
from engine.strategies import names as builtin_names

# Ids are PostgreSQL bigints; the router refuses anything else in a URL with a 404.
ID_PATTERN = r"[0-9]+"
MAX_ID = 2**63 - 1


def _logged_in(request: Request) -> User:
    """Who makes a write: the permission classes (IsAuthenticatedOrReadOnly, IsAuthenticated)
    let no visitor write."""
    user = request.user
    assert isinstance(user, User)  # not AnonymousUser
    return user


def _source_from(validated: dict[str, Any]) -> str | bytes:
    upload: UploadedFile[bytes] | None = validated.get("file")
    if upload is not None:
        head: bytes = upload.read(MAX_BOT_BYTES + 1)  # the stubs type File.read as Any
        return head
    source: str | None = validated.get("source")
    if not source:
        raise serializers.ValidationError(
            {"source": ["Send the bot as `source` text or a `file`."]}
        )
    return source


class BotVersionSerializer(serializers.ModelSerializer[BotVersion]):
    """A version as anyone sees it: the rejection is cut to its one public line."""

    bot = serializers.CharField(source="bot.name", read_only=True)
    # A field of the owner's serializer below replaces it.
    rejection: serializers.Field[Any, Any, Any, Any] = serializers.SerializerMethodField()

    class Meta:
        model = BotVersion
        fields = ["id", "bot", "number", "sha256", "size", "status", "rejection", "created_at"]

    def get_rejection(self, version: BotVersion) -> str:
        return selectors.rejection_summary(version.rejection)


class BotVersionOwnerSerializer(BotVersionSerializer):
    """A version as its bot's owner sees it: the whole rejection (faults, stderr) and the source."""

    rejection = serializers.CharField(read_only=True)

    class Meta(BotVersionSerializer.Meta):
        fields = [*BotVersionSerializer.Meta.fields, "source"]


class BotSerializer(serializers.ModelSerializer[Bot]):
    owner = serializers.CharField(source="owner.username", read_only=True)
    active_version = BotVersionSerializer(read_only=True)

    class Meta:
        model = Bot
        fields = ["id", "name", "owner", "game", "description", "active_version", "created_at"]


def _game_choices() -> list[str]:
    return sorted({name for name, _ in registered_games()})


class BotCreateSerializer(serializers.Serializer[Any]):
    """`source` or `file`: one of them is needed."""

    name = serializers.SlugField(max_length=60)
    game = serializers.ChoiceField(
        choices=_game_choices(), default="cat-lady", help_text="The game the bot plays."
    )
    description = serializers.CharField(required=False, allow_blank=True, default="")
    # DRF's serializer metaclass pops declared fields out of the class, so this never shadows
    # Field.source (str | None); the stubs cannot say so.
    source = serializers.CharField(  # type: ignore[assignment]
        required=False, trim_whitespace=False
    )
    file = serializers.FileField(required=False)


class UploadSerializer(serializers.Serializer[Any]):
    # DRF's serializer metaclass pops declared fields out of the class, so this never shadows
    # Field.source (str | None); the stubs cannot say so.
    source = serializers.CharField(  # type: ignore[assignment]
        required=False, trim_whitespace=False
    )
    file = serializers.FileField(required=False)


class IsOwnerOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return selectors.owns_bot(obj, request.user)


class BotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Bot]):
    """Bots. POST creates a bot with its first version; versions/ uploads a new version."""

    queryset = Bot.objects.select_related("owner", "active_version", "active_version__bot")
    serializer_class = BotSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    parser_classes = [BoundedJSONParser, MultiPartParser, FormParser]
    filterset_fields = ["game", "owner__username"]
    lookup_value_regex = ID_PATTERN

    @extend_schema(request=BotCreateSerializer, responses={201: BotSerializer})
    def create(self, request: Request) -> Response:
        data = BotCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot = services.bot_create(
            owner=_logged_in(request),
            name=data.validated_data["name"],
            description=data.validated_data["description"],
            source=_source_from(data.validated_data),
            game=data.validated_data["game"],
        )
        bot.refresh_from_db()
        return Response(BotSerializer(bot).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        responses=BotVersionSerializer(many=True),
        description="Every version, newest first. The bot's owner also gets each `source` and "
        "the whole `rejection`; anyone else gets a one-line rejection.",
    )
    @extend_schema(
        methods=["POST"], request=UploadSerializer, responses={201: BotVersionOwnerSerializer}
    )
    # Its own list, without the bot list's filters (see league/api.py's PlayerViewSet).
    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def versions(self, request: Request, pk: str | None = None) -> Response:
        bot = self.get_object()
        owner = selectors.owns_bot(bot, request.user)
        if request.method == "GET":
            serializer = BotVersionOwnerSerializer if owner else BotVersionSerializer
            return Response(serializer(bot.versions.all(), many=True).data)
        if not owner:
            raise PermissionDenied("Only the bot's owner may upload versions.")
        data = UploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = services.version_upload(
            bot=bot, source=_source_from(data.validated_data), by=_logged_in(request)
        )
        version.refresh_from_db()
        return Response(BotVersionOwnerSerializer(version).data, status=status.HTTP_201_CREATED)


class MatchSeatSerializer(serializers.ModelSerializer[MatchSeat]):
    bot = serializers.CharField(source="label", read_only=True)

    class Meta:
        model = MatchSeat
        fields = [
            "seat",
            "bot",
            "version",
            "builtin",
            "score",
            "rank",
            "faults",
            "forfeited",
            "rating_before",
            "rating_after",
        ]


class MatchSerializer(serializers.ModelSerializer[Match]):
    seats = MatchSeatSerializer(many=True, read_only=True)
    seed = serializers.SerializerMethodField(
        help_text="The deal's seed: null until the match, and every other seating of its deal, "
        "is over (the seed gives away every hidden card)."
    )

    def get_seed(self, match: Match) -> int | None:
        return match.seed if match.deal_revealed else None

    class Meta:
        model = Match
        fields = [
            "id",
            "kind",
            "status",
            "game",
            "engine_version",
            "seed",
            "ladder",
            "tournament",
            "tournament_round",
            "duplicate_set",
            "sandbox_mode",
            "attempts",
            "failure",
            "created_at",
            "started_at",
            "finished_at",
            "seats",
        ]


class ChallengeSerializer(serializers.Serializer[Any]):
    seats = serializers.ListField(
        child=serializers.CharField(),
        min_length=2,
        max_length=6,
        help_text="Each seat: a bot version id, or a house bot's name "
        f"({', '.join(builtin_names())}).",
    )
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**31 - 1)
    game = serializers.ChoiceField(
        choices=_game_choices(),
        required=False,
        help_text="Only needed when every seat is a house bot "
        "(default: the bots' game, else cat-lady).",
    )
    options = serializers.DictField(
        required=False,
        help_text='Unranked game options, e.g. {"edition": "box-of-treats-placeholder"}, '
        '{"shared_goals": true} or {"solitaire": true} (seat 2: cat-player).',
    )


class MatchViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Match]
):
    queryset = (
        Match.objects.with_open_siblings().prefetch_related("seats__version__bot").defer("log")
    )
    serializer_class = MatchSerializer
    filterset_fields = [
        "kind",
        "status",
        "ladder",
        "tournament",
        "seats__version__bot__name",
        "seats__version",
    ]
    lookup_value_regex = ID_PATTERN

    @extend_schema(request=ChallengeSerializer, responses={201: MatchSerializer})
    @action(detail=False, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def challenge(self, request: Request) -> Response:
        """Request a match between active bot versions and/or house bots."""
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seats: list[services.SeatInput] = []
        errors: dict[str, list[str]] = {}
        for index, entry in enumerate(data.validated_data["seats"]):
            if entry in builtin_names():
                seats.append(services.SeatInput(builtin=entry))
            elif (
                entry.isascii()
                and entry.isdigit()
                and len(entry) <= 19
                and int(entry) <= MAX_ID
                and BotVersion.objects.filter(pk=int(entry)).exists()
            ):
                seats.append(services.SeatInput(version=BotVersion.objects.get(pk=int(entry))))
            else:
                errors[f"seats.{index}"] = [
                    f"{entry!r} is neither a bot version id nor a house bot."
                ]
        if errors:
            raise serializers.ValidationError(errors)
        match = services.challenge_create(
            seats=seats,
            by=_logged_in(request),
            seed=data.validated_data.get("seed"),
            game=data.validated_data.get("game"),
            options=data.validated_data.get("options"),
        )
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: dict})
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str | None = None) -> Response:
        """The match log (schema catleague.match-log/1), replayable with the engine. Stderr and
        fault texts (`reason`) are null except for the seats whose bot you own."""
        match = get_object_or_404(Match.objects.prefetch_related("seats__version__bot"), pk=pk)
        if match.log is None or not match.deal_revealed:
            detail = (
                f"Match {match.pk} is {match.status}."
                if match.status in Match.OPEN_STATUSES
                else f"Match {match.pk}'s deal is still being played at another seating."
            )
            return Response(
                {"error": "not_found", "detail": detail}, status=status.HTTP_404_NOT_FOUND
            )
        response = Response(selectors.log_for_viewer(match, request.user))
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
        return response


class LadderEntrySerializer(serializers.ModelSerializer[LadderEntry]):
    bot = serializers.CharField(source="version.bot.name")
    version_number = serializers.IntegerField(source="version.number")
    provisional = serializers.BooleanField()

    class Meta:
        model = LadderEntry
        fields = [
            "version",
            "bot",
            "version_number",
            "rating",
            "provisional",
            "games",
            "wins",
            "forfeits",
            "seat_record",
        ]


class LadderSerializer(serializers.ModelSerializer[Ladder]):
    class Meta:
        model = Ladder
        fields = [
            "id",
            "name",
            "game",
            "players",
            "ranked",
            "k_factor",
            "provisional_games",
            "active",
        ]


class LadderViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Ladder]
):
    queryset = Ladder.objects.all()
    serializer_class = LadderSerializer
    lookup_value_regex = ID_PATTERN

    @extend_schema(responses=LadderEntrySerializer(many=True))
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        ladder = self.get_object()
        entries = (
            ladder.entries.filter(version__status=BotVersion.Status.ACTIVE)
            .select_related("version__bot", "ladder")
            .order_by("-rating", "version__bot__name")
        )
        return Response(LadderEntrySerializer(entries, many=True).data)


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entrants = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.all(), many=True)
    table_size = serializers.IntegerField(
        min_value=2, max_value=6, help_text="Bots per table; the game decides the range."
    )
    rounds = serializers.IntegerField(required=False, min_value=1, max_value=20)
    seed = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=2**31 - 1,
        allow_null=True,
        help_text="Every match's seed follows from it: null in answers until the tournament "
        "is finished.",
    )
    final_size = serializers.IntegerField(
        required=False,
        default=0,
        min_value=0,
        max_value=4,
        help_text="The top N after the regular rounds play one final table (0: no final).",
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "format",
            "table_size",
            "rounds",
            "final_size",
            "current_round",
            "status",
            "seed",
            "entrants",
            "created_at",
        ]
        read_only_fields = ["current_round", "status", "created_at"]

    def to_representation(self, instance: Tournament) -> dict[str, Any]:
        data = super().to_representation(instance)
        if instance.status != Tournament.Status.FINISHED:
            data["seed"] = None
        return data


class TournamentPointsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField()
    bot = serializers.CharField()
    points = serializers.FloatField()


class TournamentRoundSerializer(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    standings = TournamentPointsSerializer(many=True)


class TournamentPlacingSerializer(TournamentPointsSerializer):
    place = serializers.IntegerField()
    final_points = serializers.FloatField(allow_null=True)


class TournamentStandingsSerializer(serializers.Serializer[Any]):
    status = serializers.ChoiceField(choices=Tournament.Status.choices)
    rounds = TournamentRoundSerializer(many=True)
    final = TournamentPointsSerializer(many=True, allow_null=True)
    placings = TournamentPlacingSerializer(
        many=True, allow_null=True, help_text="Once the tournament is finished."
    )


class TournamentViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Tournament],
):
    queryset = Tournament.objects.prefetch_related("entrants")
    serializer_class = TournamentSerializer
    lookup_value_regex = ID_PATTERN

    def perform_create(self, serializer: serializers.BaseSerializer[Tournament]) -> None:
        serializer.instance = services.tournament_start(
            organiser=_logged_in(self.request), **serializer.validated_data
        )

    @extend_schema(responses=TournamentStandingsSerializer)
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Points after each regular round (a win is 1, last place 0, in between shared
        evenly), the final table's result when there is one, and the places."""
        tournament = self.get_object()
        rounds = []
        for number in range(1, min(tournament.current_round, tournament.rounds) + 1):
            rows = services.tournament_standings(tournament, through_round=number)
            rounds.append(
                {
                    "round": number,
                    "standings": [
                        {"version": v.pk, "bot": v.bot.name, "points": round(p, 4)} for v, p in rows
                    ],
                }
            )
        final = services.tournament_final_table(tournament)
        return Response(
            {
                "status": tournament.status,
                "rounds": rounds,
                "final": None
                if final is None
                else [
                    {"version": v.pk, "bot": v.bot.name, "points": round(p, 4)} for v, p in final
                ],
                "placings": [
                    {
                        "place": p.place,
                        "version": p.version.pk,
                        "bot": p.version.bot.name,
                        "points": round(p.points, 4),
                        "final_points": None
                        if p.final_points is None
                        else round(p.final_points, 4),
                    }
                    for p in services.tournament_placings(tournament)
                ]
                if tournament.status == Tournament.Status.FINISHED
                else None,
            }
        )
