"""REST API of game nights: parse, call `league.nights`, serialise (the pattern of
`league.results.api`). Anyone who sees the league reads its nights; organisers open them, say who is
present and draw; members enter their table's result."""

from __future__ import annotations

import django_filters
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.fields import empty
from rest_framework.response import Response

from config.api.filters import StrictFilterBackend, StrictFilterSet
from league.clubs import selectors
from league.models import GameNight, League, NightTable, Player
from league.nights import selectors as night_selectors
from league.nights import services as nights
from league.nights.services import MAX_ROUNDS
from league.permissions import can_log_games, can_organise
from league.results.serializers import (
    ConfirmedSerializer,
    GameSerializer,
    GameWriteSerializer,
    VisibleLeagueField,
    confirmed_data,
    game_data,
    participant_inputs,
)


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


class PresenceField(serializers.BooleanField):
    # DRF reads a boolean missing from a form body as false (an unticked box); here a missing
    # `present` is refused, never taken as someone leaving.
    default_empty_html = empty


class AttendanceSerializer(serializers.Serializer):
    player = VisiblePlayerField()
    present = PresenceField(help_text="true: here (arrived, or back); false: left.")


class GuestSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=Player._meta.get_field("name").max_length)


class AttendeeSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    present = serializers.BooleanField(help_text="Plays the next round drawn.")


class TableResultSerializer(GameWriteSerializer):
    """A game as `POST /api/games/` takes it; the league is the night's, and the edition, date
    and place default to the night's."""

    # DRF's way to drop an inherited field; mypy sees a field's type replaced by None.
    league = None  # type: ignore[assignment]
    played_on = serializers.DateField(required=False)
    place = serializers.CharField(required=False, allow_blank=True, max_length=120)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="1 starts.")
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")


class TableSerializer(serializers.Serializer):
    id = serializers.IntegerField(
        source="table.pk", help_text="For POST /api/nights/{id}/tables/{table_id}/result/."
    )
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

    def _organised(self, doing: str) -> GameNight:
        night: GameNight = self.get_object()
        if not can_organise(night.league, self.request.user):
            raise PermissionDenied(f"Only this league's organisers {doing}.")
        return night

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
        night = self._organised("draw the tables")
        nights.round_draw(night=night, by=request.user)
        view = night_selectors.night_view(night=night)
        return Response(NightDetailSerializer(view).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=NightDetailSerializer)
    @action(detail=True, methods=["post"])
    def undo(self, request, pk=None):
        """Take back the latest round while none of its results is entered (organisers), to draw
        it again: someone arrived late, or left."""
        night = self._organised("take back a round")
        nights.round_undo(night=night, by=request.user)
        return Response(NightDetailSerializer(night_selectors.night_view(night=night)).data)

    @extend_schema(request=AttendanceSerializer, responses=AttendeeSerializer)
    @action(detail=True, methods=["post"])
    def attendance(self, request, pk=None):
        """Say that a member of the league is here (arrived, or back) or has left (organisers);
        it counts from the next round drawn. Tonight's list is the night's standings, each
        with `present`."""
        night = self._organised("say who is here")
        data = AttendanceSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        attendee = nights.attendance_set(night=night, by=request.user, **data.validated_data)
        return Response(AttendeeSerializer(attendee).data)

    @extend_schema(request=GuestSerializer, responses={201: AttendeeSerializer})
    @action(detail=True, methods=["post"])
    def guests(self, request, pk=None):
        """Add a newcomer without a login (organisers): a new player, made a member of the league
        and here tonight."""
        night = self._organised("add guests")
        data = GuestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        attendee = nights.night_guest_add(
            night=night, name=data.validated_data["name"], by=request.user
        )
        return Response(AttendeeSerializer(attendee).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=ConfirmedSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """Confirm every game of the night that waits for confirmation, at once (organisers);
        disputed games stay disputed until their dispute is settled."""
        night = self._organised("confirm a night's games")
        result = nights.night_confirm(night=night, by=request.user)
        return Response(confirmed_data(result))

    @extend_schema(request=TableResultSerializer, responses={201: GameSerializer})
    @action(
        detail=True,
        methods=["post"],
        url_path=r"tables/(?P<table_id>[0-9]+)/result",
        url_name="table-result",
    )
    def table_result(self, request, pk=None, table_id=None):
        """Enter the game played at one of the night's tables (members and organisers): the body
        of POST /api/games/ without `league`. It is a league game like any other (rated, or
        waiting for confirmation by the league's rule) and counts in tonight's standings."""
        night = self.get_object()
        table = get_object_or_404(NightTable, pk=table_id, round__night=night)
        if not can_log_games(night.league, request.user):
            raise PermissionDenied("Only this league's organisers and members enter its results.")
        data = TableResultSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = {**nights.entry_values(night), **data.validated_data}
        game = nights.table_game_record(
            table=table,
            logged_by=request.user,
            participants=participant_inputs(values.pop("participants")),
            **values,
        )
        return Response(game_data(game), status=status.HTTP_201_CREATED)
