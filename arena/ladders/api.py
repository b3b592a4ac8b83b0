"""API of ladders and their standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from arena.models import BotVersion, Ladder, LadderEntry
from arena.web import ID_PATTERN


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
