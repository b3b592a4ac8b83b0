"""REST API views: parse the request, call one service or selector, serialise the answer."""

from __future__ import annotations

import django_filters
from django.contrib.auth.models import User
from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.filters import SearchFilter
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api_filters import StrictBooleanFilter, StrictFilterBackend, StrictFilterSet
from league import confirmation_selectors, selectors, services
from league.catalogue import GAMES
from league.models import Game, GameDispute, League, Membership, Player, Season
from league.permissions import (
    LeagueObjectPermission,
    can_log_games,
    can_organise,
    can_view,
)
from league.serializers import (
    MAX_ID,
    AuditEntrySerializer,
    CatalogueGameSerializer,
    DisputeResolveSerializer,
    DisputeSerializer,
    GameDisputeSerializer,
    GameEditSerializer,
    GameSerializer,
    GameWriteSerializer,
    LeagueSerializer,
    LeagueUpdateSerializer,
    MembershipSerializer,
    PlayerSerializer,
    RatingHistorySerializer,
    SeasonSerializer,
    StandingSerializer,
    game_data,
    participant_inputs,
)


def _logged_in(request: Request) -> User:
    """Who makes a write: IsAuthenticatedOrReadOnly lets no visitor write."""
    user = request.user
    assert isinstance(user, User)  # not AnonymousUser
    return user


class CatalogueView(APIView):
    """The games a league can record, their editions, player counts and result fields."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=CatalogueGameSerializer(many=True))
    def get(self, request):
        return Response([game.describe() for game in GAMES.values()])


def _visible_leagues(request):
    return League.objects.visible_to(request.user if request is not None else None)


def _visible_seasons(request):
    return Season.objects.filter(league__in=_visible_leagues(request))


class PlayerFilter(StrictFilterSet):
    # Only leagues the user may see: a private league's id is refused like an unknown one.
    league = django_filters.ModelChoiceFilter(
        field_name="memberships__league",
        queryset=_visible_leagues,
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
            name=serializer.validated_data["name"], by=_logged_in(self.request)
        )

    def perform_update(self, serializer):
        player = serializer.instance
        user = self.request.user
        if not (user.is_staff or player.user_id == user.pk):
            raise PermissionDenied("Only the player themselves or staff may rename a player.")
        serializer.save()

    # An object's own lists read their own parameters, never the filters of the list the
    # object is in (filter_backends=[]): those would only narrow which object is found.
    @action(detail=True, methods=["get"], filter_backends=[])
    def ratings(self, request, pk=None):
        """Rating history: every rated game with ratings before/after and expected vs actual."""
        player = self.get_object()
        league = None
        if "league" in request.query_params:
            league = _visible_league(request, _id_parameter(request, "league"))
        history = selectors.rating_history(player=player, league=league)
        if league is None:
            visible = League.objects.visible_to(request.user)
            history = history.filter(game__league__in=visible)
        page = self.paginate_queryset(history)
        return self.get_paginated_response(RatingHistorySerializer(page, many=True).data)


def _id_parameter(request, name: str) -> int:
    raw = request.query_params[name]
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_ID:
        raise ValidationError({name: ["Must be an id (a whole number from 1)."]})
    return int(raw)


def _visible_league(request, league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None or not can_view(league, request.user):
        raise NotFound("No such league.")
    return league


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
            by=_logged_in(self.request), **serializer.validated_data
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
            season = league.seasons.filter(pk=_id_parameter(request, "season")).first()
            if season is None:
                raise NotFound("This league has no such season.")
        rows = selectors.standings(league=league, season=season)
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


class GameFilter(StrictFilterSet):
    league = django_filters.ModelChoiceFilter(queryset=_visible_leagues)
    season = django_filters.ModelChoiceFilter(queryset=_visible_seasons)
    played_after = django_filters.DateFilter(field_name="played_on", lookup_expr="gte")
    played_before = django_filters.DateFilter(field_name="played_on", lookup_expr="lte")
    player = django_filters.NumberFilter(
        field_name="participants__player", distinct=True, min_value=1, max_value=MAX_ID
    )

    class Meta:
        model = Game
        fields = ["league", "season", "edition", "rated", "status"]


@extend_schema_view(
    create=extend_schema(request=GameWriteSerializer, responses={201: GameSerializer}),
    update=extend_schema(request=GameEditSerializer, responses=GameSerializer),
    partial_update=extend_schema(request=GameEditSerializer, responses=GameSerializer),
)
class GameViewSet(viewsets.ModelViewSet):
    """Physical game results. Members log games; organisers edit and delete them."""

    serializer_class = GameSerializer
    permission_classes = [permissions.IsAuthenticatedOrReadOnly, LeagueObjectPermission]
    filterset_class = GameFilter
    ordering_fields = ["played_on", "created_at"]
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        visible = League.objects.visible_to(self.request.user)
        return selectors.games_for().filter(Q(league__in=visible))

    def create(self, request, *args, **kwargs):
        data = GameWriteSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = values.pop("league")
        if not can_log_games(league, request.user):
            raise PermissionDenied("Only this league's organisers and members may log its games.")
        game = services.game_record(
            league=league,
            logged_by=request.user,
            participants=participant_inputs(values.pop("participants")),
            **values,
        )
        return Response(
            game_data(game),
            status=status.HTTP_201_CREATED,
        )

    def update(self, request, *args, **kwargs):
        game = self.get_object()
        data = GameEditSerializer(
            data=request.data, partial=kwargs.get("partial", False), context={"request": request}
        )
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "participants" in values:
            values["participants"] = participant_inputs(values["participants"])
        game = services.game_edit(game=game, by=request.user, **values)
        return Response(game_data(game))

    def destroy(self, request, *args, **kwargs):
        services.game_delete(game=self.get_object(), by=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _participating(self, request) -> Game:
        """A game the user may confirm or dispute: the object permission (organisers only for
        writes) does not apply, seeing the game is enough; the service checks the rest."""
        game: Game = get_object_or_404(self.get_queryset(), pk=self.kwargs["pk"])
        if not request.user.is_authenticated:
            raise PermissionDenied("Log in to confirm or dispute a game.")
        return game

    @extend_schema(request=None, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def confirm(self, request, pk=None):
        """Confirm a result that waits for confirmation (another participant, or an organiser);
        the game is rated once the league's rule is met. `status` says where it stands."""
        game = services.game_confirm(game=self._participating(request), by=request.user)
        return Response(game_data(game))

    @extend_schema(request=DisputeSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """A participant disputes a result that waits for confirmation, with a reason; the
        league's organisers settle it."""
        game = self._participating(request)
        data = DisputeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.game_dispute(game=game, by=request.user, reason=data.validated_data["reason"])
        return Response(game_data(game))


class DisputeFilter(StrictFilterSet):
    league = django_filters.ModelChoiceFilter(queryset=_visible_leagues)
    open = StrictBooleanFilter(field_name="resolved_at", lookup_expr="isnull")

    class Meta:
        model = GameDispute
        fields = ["league", "open"]


# The filter's schema would follow `resolved_at`, a date and time.
@extend_schema_view(
    list=extend_schema(
        parameters=[
            OpenApiParameter("open", bool, description="true: not resolved yet; false: resolved.")
        ]
    )
)
class DisputeViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Disputed results, for the organisers who settle them: the list holds the disputes of the
    leagues you organise, oldest first."""

    serializer_class = GameDisputeSerializer
    filterset_class = DisputeFilter
    filter_backends = [StrictFilterBackend]
    lookup_value_regex = r"[0-9]+"

    def get_queryset(self):
        organised = confirmation_selectors.organised_leagues(user=self.request.user)
        return (
            GameDispute.objects.filter(league__in=organised)
            .select_related("raised_by", "resolved_by")
            .order_by("raised_at", "id")
        )

    @extend_schema(request=DisputeResolveSerializer, responses=GameDisputeSerializer)
    @action(detail=True, methods=["post"])
    def resolve(self, request, pk=None):
        """Settle an open dispute (organisers): the game stands as recorded, or as corrected
        since with PATCH /api/games/{id}/, and is rated; or, with `delete`, it is deleted and
        the league's ratings rebuilt."""
        # The list is the organisers', but a dispute shows on its game's page to whoever sees
        # the league: they are refused; where the league is hidden, the dispute does not exist.
        visible = League.objects.visible_to(request.user)
        dispute = get_object_or_404(GameDispute, pk=pk, league__in=visible)
        if not can_organise(dispute.league, request.user):
            raise PermissionDenied("Only this league's organisers settle disputes.")
        data = DisputeResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        dispute = services.dispute_resolve(dispute=dispute, by=request.user, **data.validated_data)
        return Response(GameDisputeSerializer(dispute).data)
