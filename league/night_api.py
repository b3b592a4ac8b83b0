"""REST API of game nights: parse, call `league.nights`, serialise (the pattern of
`league.api`). Anyone who sees the league reads its nights; organisers open them and draw."""

from __future__ import annotations

import django_filters
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from config.api_filters import StrictFilterBackend, StrictFilterSet
from league import night_selectors, nights, selectors
from league.models import GameNight, League
from league.nights import MAX_ROUNDS
from league.permissions import can_organise
from league.serializers import VisibleLeagueField


def _visible_leagues(request):
    return League.objects.visible_to(request.user if request is not None else None)


class NightSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameNight
        fields = [
            "id",
            "league",
            "played_on",
            "place",
            "edition",
            "rounds",
            "min_table",
            "max_table",
            "first_round",
            "created_at",
        ]


@extend_schema_field(OpenApiTypes.INT)
class VisiblePlayerField(serializers.PrimaryKeyRelatedField):
    """A player the requesting user may see; any other id is answered like an unknown one."""

    def get_queryset(self):
        return selectors.visible_players(user=self.context["request"].user)


class NightOpenSerializer(serializers.Serializer):
    league = VisibleLeagueField()
    played_on = serializers.DateField()
    edition = serializers.CharField(max_length=40)
    rounds = serializers.IntegerField(min_value=1, max_value=MAX_ROUNDS, default=3)
    min_table = serializers.IntegerField(min_value=1, max_value=100, required=False)
    max_table = serializers.IntegerField(min_value=1, max_value=100, required=False)
    first_round = serializers.ChoiceField(
        choices=GameNight.FirstRound.choices, default=GameNight.FirstRound.RATING
    )
    place = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    present = VisiblePlayerField(many=True, required=False, default=list)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="1 starts.")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")


class TableSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="table.number")
    game = serializers.IntegerField(
        source="table.game_id", allow_null=True, help_text="The league game entered, if any."
    )
    seats = SeatSerializer(many=True)


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField(source="round.number")
    explanation = serializers.ListField(
        source="round.explanation", child=serializers.CharField(), help_text="How it was drawn."
    )
    sitting_out = serializers.SerializerMethodField()
    tables = TableSerializer(many=True)

    def get_sitting_out(self, obj) -> list[int]:
        return [p.pk for p in obj.sitting_out]


class NightScoreSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="name")
    points = serializers.FloatField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    present = serializers.BooleanField()


class NightDetailSerializer(serializers.Serializer):
    night = NightSerializer()
    rounds = RoundSerializer(many=True)
    standings = NightScoreSerializer(many=True)


class NightFilter(StrictFilterSet):
    league = django_filters.ModelChoiceFilter(queryset=_visible_leagues)

    class Meta:
        model = GameNight
        fields = ["league"]


class NightViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Game nights: the people present play rounds at tables Catleague draws."""

    serializer_class = NightSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]
    filterset_class = NightFilter
    filter_backends = [StrictFilterBackend]
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        return GameNight.objects.filter(
            league__in=League.objects.visible_to(self.request.user)
        ).order_by("-played_on", "-id")

    @extend_schema(responses=NightDetailSerializer)
    def retrieve(self, request, *args, **kwargs):
        """The night with its rounds (tables, seats, how each was drawn) and standings."""
        view = night_selectors.night_view(night=self.get_object())
        return Response(NightDetailSerializer(view).data)

    @extend_schema(request=NightOpenSerializer, responses={201: NightSerializer})
    def create(self, request, *args, **kwargs):
        """Open a night (organisers): table sizes default to what the edition allows."""
        data = NightOpenSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = values.pop("league")
        if not can_organise(league, request.user):
            raise PermissionDenied("Only this league's organisers run its game nights.")
        night = nights.night_open(league=league, by=request.user, **values)
        return Response(NightSerializer(night).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: NightDetailSerializer})
    @action(detail=True, methods=["post"])
    def draw(self, request, pk=None):
        """Draw the next round for the people present (organisers)."""
        night = self.get_object()
        if not can_organise(night.league, request.user):
            raise PermissionDenied("Only this league's organisers draw the tables.")
        nights.round_draw(night=night, by=request.user)
        view = night_selectors.night_view(night=night)
        return Response(NightDetailSerializer(view).data, status=status.HTTP_201_CREATED)
