"""API of bots and versions. Owners see their bots' sources and rejection details; everyone
else gets a one-line reason (the rule of the web pages, through the same selectors)."""

from __future__ import annotations

from typing import Any

from django.core.files.uploadedfile import UploadedFile
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from arena.models import Bot, BotVersion
from arena.runner import MAX_BOT_BYTES
from arena.submissions.selectors import owns_bot, rejection_summary
from arena.submissions.services import bot_create, check_size, version_upload
from arena.web import ID_PATTERN, game_names, logged_in
from config.api.filters import StrictBooleanFilter, StrictFilterSet
from config.api.parsers import BoundedJSONParser


def _source_from(validated: dict[str, Any]) -> str | bytes:
    upload: UploadedFile[bytes] | None = validated.get("file")
    if upload is not None:
        check_size(upload.size or 0)  # by the size it declares: only the limit's worth is read
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
        return rejection_summary(version.rejection)


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


class BotCreateSerializer(serializers.Serializer[Any]):
    """`source` or `file`: one of them is needed."""

    name = serializers.SlugField(max_length=60)
    game = serializers.ChoiceField(
        choices=game_names(), default="cat-lady", help_text="The game the bot plays."
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


class BotFilter(StrictFilterSet):
    mine = StrictBooleanFilter(
        method="filter_mine",
        label="true: only your bots (send your token); false: everyone else's",
    )

    class Meta:
        model = Bot
        fields = ["game", "owner__username", "mine"]

    def filter_mine(self, queryset: QuerySet[Bot], name: str, value: bool) -> QuerySet[Bot]:
        user = self.request.user if self.request is not None else None
        if user is None or not user.is_authenticated:
            if value:
                raise NotAuthenticated("Log in (or send your API token) to list your own bots.")
            return queryset
        return queryset.filter(owner=user) if value else queryset.exclude(owner=user)


class IsOwnerOrReadOnly(permissions.BasePermission):
    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        return owns_bot(obj, request.user)


class BotViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Bot]):
    """Bots. POST creates a bot with its first version; versions/ uploads a new version."""

    queryset = Bot.objects.select_related("owner", "active_version", "active_version__bot")
    serializer_class = BotSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, IsOwnerOrReadOnly]
    parser_classes = [BoundedJSONParser, MultiPartParser, FormParser]
    filterset_class = BotFilter
    lookup_value_regex = ID_PATTERN

    @extend_schema(request=BotCreateSerializer, responses={201: BotSerializer})
    def create(self, request: Request) -> Response:
        data = BotCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        bot = bot_create(
            owner=logged_in(request),
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
        owner = owns_bot(bot, request.user)
        if request.method == "GET":
            serializer = BotVersionOwnerSerializer if owner else BotVersionSerializer
            return Response(serializer(bot.versions.all(), many=True).data)
        if not owner:
            raise PermissionDenied("Only the bot's owner may upload versions.")
        data = UploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        version = version_upload(
            bot=bot, source=_source_from(data.validated_data), by=logged_in(request)
        )
        version.refresh_from_db()
        return Response(BotVersionOwnerSerializer(version).data, status=status.HTTP_201_CREATED)
