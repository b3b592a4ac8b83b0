"""REST API of players and leagues (members, seasons, standings, the change log): parse the
request, call one service or selector, serialise the answer."""

from __future__ import annotations

import django_filters
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.filters import SearchFilter
from rest_framework.response import Response

from config.api.filters import StrictFilterBackend, StrictFilterSet
from league.clubs import selectors, services
from league.clubs.serializers import (
    AuditEntrySerializer,
    LeagueSerializer,
    LeagueUpdateSerializer,
    MembershipSerializer,
    PlayerSerializer,
    SeasonSerializer,
)
from league.models import League, Membership, Player
from league.permissions import (
    LeagueObjectPermission,
    can_organise,
)
from league.results import selectors as result_selectors
from league.results import standings
from league.results.api import (
    id_parameter,
    logged_in,
    visible_league_or_404,
    visible_leagues,
)
from league.results.serializers import RatingHistorySerializer, StandingSerializer


class PlayerFilter(StrictFilterSet):
    # Only leagues the user may see: a private league's id is refused like an unknown one.
    league = django_filters.ModelChoiceFilter(
        field_name="memberships__league",
        queryset=visible_leagues,
        label="Member of league",
        distinct=True,
    )

    class Meta:
        model = Player
        fields = ["league"]


@extend_schema_view(
    ratings=extend_schema(
        parameters=[OpenApiParameter("league", int, description="Only this league's games")],
        responses=RatingHistorySerializer(many=True),
    )
)
class PlayerViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = PlayerSerializer
    lookup_value_regex = r"[0-9]+"
    filterset_class = PlayerFilter
    filter_backends = [StrictFilterBackend, SearchFilter]
    search_fields = ["name"]

    def get_queryset(self):
        return (
            selectors.visible_players(user=self.request.user)
            .select_related("user")
            .order_by("name")
        )

    def perform_create(self, serializer):
        serializer.instance = services.player_create(
            name=serializer.validated_data["name"], by=logged_in(self.request)
        )

    def perform_update(self, serializer):
        player = serializer.instance
        user = logged_in(self.request)
        guest_of_yours = player.user_id is None and player.created_by_id == user.pk
        if not (user.is_staff or player.user_id == user.pk or guest_of_yours):
            raise PermissionDenied(
                "Only the player themselves, whoever entered a guest, or staff rename a player."
            )
        if "name" in serializer.validated_data:
            serializer.instance = services.player_rename(
                player=player, name=serializer.validated_data["name"], by=user
            )

    # An object's own lists read their own parameters, never the filters of the list the
    # object is in (filter_backends=[]): those would only narrow which object is found.
    @action(detail=True, methods=["get"], filter_backends=[])
    def ratings(self, request, pk=None):
        """Rating history: every rated game with ratings before/after and expected vs actual."""
        player = self.get_object()
        league = None
        if "league" in request.query_params:
            league = visible_league_or_404(request, id_parameter(request, "league"))
        history = result_selectors.rating_history(player=player, league=league)
        if league is None:
            visible = League.objects.visible_to(request.user)
            history = history.filter(game__league__in=visible)
        page = self.paginate_queryset(history)
        return self.get_paginated_response(RatingHistorySerializer(page, many=True).data)


@extend_schema_view(
    standings=extend_schema(
        parameters=[OpenApiParameter("season", int, description="One season's standings")],
        responses=StandingSerializer(many=True),
    ),
    members=[
        extend_schema(methods=["GET"], responses=MembershipSerializer(many=True)),
        extend_schema(
            methods=["POST"], request=MembershipSerializer, responses={201: MembershipSerializer}
        ),
    ],
    seasons=[
        extend_schema(methods=["GET"], responses=SeasonSerializer(many=True)),
        extend_schema(
            methods=["POST"], request=SeasonSerializer, responses={201: SeasonSerializer}
        ),
    ],
    audit=extend_schema(responses=AuditEntrySerializer(many=True)),
)
class LeagueViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = LeagueSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, LeagueObjectPermission]
    filterset_fields = ["game", "is_public"]
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        return League.objects.visible_to(self.request.user).order_by("name")

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return LeagueUpdateSerializer
        return LeagueSerializer

    def perform_create(self, serializer):
        serializer.instance = services.league_create(
            by=logged_in(self.request), **serializer.validated_data
        )

    @action(detail=True, methods=["get", "post"], filter_backends=[])
    def members(self, request, pk=None):
        """List members. Organisers add a guest they created (a player without a login) or
        change a member's role with {"player", "role"}; people with an account join by
        accepting an invitation."""
        league = self.get_object()
        if request.method == "GET":
            memberships = league.memberships.select_related("player")
            page = self.paginate_queryset(memberships)
            return self.get_paginated_response(MembershipSerializer(page, many=True).data)
        if not can_organise(league, request.user):
            raise PermissionDenied("Only this league's organisers may add members.")
        serializer = MembershipSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = services.member_add(
            league=league,
            player=serializer.validated_data["player"],
            role=serializer.validated_data.get("role", Membership.Role.MEMBER),
            by=request.user,
        )
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    @action(detail=True, methods=["delete"], url_path=r"members/(?P<player_id>\d+)")
    def remove_member(self, request, pk=None, player_id=None):
        league = self.get_object()
        if not can_organise(league, request.user):
            raise PermissionDenied("Only this league's organisers may remove members.")
        membership = get_object_or_404(Membership, league=league, player_id=player_id)
        services.member_remove(membership=membership, by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    # The whole table (one row per player) or the whole list of seasons: never paginated.
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request, pk=None):
        league = self.get_object()
        season = None
        if "season" in request.query_params:
            season = league.seasons.filter(pk=id_parameter(request, "season")).first()
            if season is None:
                raise NotFound("This league has no such season.")
        rows = standings.standings(league=league, season=season)
        return Response(StandingSerializer(rows, many=True).data)

    @action(detail=True, methods=["get", "post"], pagination_class=None, filter_backends=[])
    def seasons(self, request, pk=None):
        league = self.get_object()
        if request.method == "GET":
            return Response(SeasonSerializer(league.seasons.all(), many=True).data)
        if not can_organise(league, request.user):
            raise PermissionDenied("Only this league's organisers may add seasons.")
        serializer = SeasonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.season_create(league=league, by=request.user, **serializer.validated_data)
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)

    @action(detail=True, methods=["get"], filter_backends=[])
    def audit(self, request, pk=None):
        """Every change in this league: who, when, what. Organisers only."""
        league = self.get_object()
        if not can_organise(league, request.user):
            raise PermissionDenied("Only this league's organisers may read its audit log.")
        page = self.paginate_queryset(league.audit.select_related("user"))
        return self.get_paginated_response(AuditEntrySerializer(page, many=True).data)
