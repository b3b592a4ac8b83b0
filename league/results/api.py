"""REST API of games and disputes, and the catalogue: parse the request, call one service or
selector, serialise the answer."""

from __future__ import annotations

import django_filters
from django.contrib.auth.models import User
from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api.filters import StrictBooleanFilter, StrictFilterBackend, StrictFilterSet
from league.catalogue import GAMES
from league.models import Game, GameDispute, League, Season
from league.permissions import (
    LeagueObjectPermission,
    can_log_games,
    can_organise,
    can_view,
)
from league.results import confirmation
from league.results import selectors as result_selectors
from league.results import services as result_services
from league.results.serializers import (
    MAX_ID,
    CatalogueGameSerializer,
    ConfirmedSerializer,
    DisputeResolveSerializer,
    DisputeSerializer,
    GameDisputeSerializer,
    GameEditSerializer,
    GamesConfirmSerializer,
    GameSerializer,
    GameWriteSerializer,
    confirmed_data,
    game_data,
    participant_inputs,
)


def logged_in(request: Request) -> User:
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


def visible_leagues(request):
    return League.objects.visible_to(request.user if request is not None else None)


def visible_seasons(request):
    return Season.objects.filter(league__in=visible_leagues(request))


def id_parameter(request, name: str) -> int:
    raw = request.query_params[name]
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= MAX_ID:
        raise ValidationError({name: ["Must be an id (a whole number from 1)."]})
    return int(raw)


def visible_league_or_404(request, league_id: int) -> League:
    league = League.objects.filter(pk=league_id).first()
    if league is None or not can_view(league, request.user):
        raise NotFound("No such league.")
    return league


class GameFilter(StrictFilterSet):
    league = django_filters.ModelChoiceFilter(queryset=visible_leagues)
    season = django_filters.ModelChoiceFilter(queryset=visible_seasons)
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
        return result_selectors.games_for().filter(Q(league__in=visible))

    def create(self, request, *args, **kwargs):
        data = GameWriteSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = values.pop("league")
        if not can_log_games(league, request.user):
            raise PermissionDenied("Only this league's organisers and members may log its games.")
        game = result_services.game_record(
            league=league,
            logged_by=request.user,
            participants=participant_inputs(values.pop("participants")),
            **values,
        )
        return Response(game_data(game), status=status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        game = self.get_object()
        data = GameEditSerializer(
            data=request.data, partial=kwargs.get("partial", False), context={"request": request}
        )
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        if "participants" in values:
            values["participants"] = participant_inputs(values["participants"])
        game = result_services.game_edit(game=game, by=request.user, **values)
        return Response(game_data(game))

    def destroy(self, request, *args, **kwargs):
        result_services.game_delete(game=self.get_object(), by=request.user)
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
        game = confirmation.game_confirm(game=self._participating(request), by=request.user)
        return Response(game_data(game))

    @extend_schema(
        request=GamesConfirmSerializer,
        responses=ConfirmedSerializer,
        operation_id="games_confirm_many",
    )
    @action(detail=False, methods=["post"], url_path="confirm", url_name="confirm-many")
    def confirm_many(self, request):
        """Confirm a list of waiting games at once (organisers of their leagues), as after a
        night: all are confirmed and rated, or, if one cannot be, none is."""
        data = GamesConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ids = data.validated_data["games"]
        # A game of a league you may not see is answered like one that does not exist.
        found = self.get_queryset().select_related("league").in_bulk(ids)
        missing = {
            f"games.{index}": [f"There is no game with id {game_id}."]
            for index, game_id in enumerate(ids)
            if game_id not in found
        }
        if missing:
            raise ValidationError(missing)
        result = confirmation.games_confirm_many(
            games=[found[game_id] for game_id in ids], by=logged_in(request)
        )
        return Response(confirmed_data(result))

    @extend_schema(request=DisputeSerializer, responses=GameSerializer)
    @action(detail=True, methods=["post"])
    def dispute(self, request, pk=None):
        """A participant disputes a result that waits for confirmation, with a reason; the
        league's organisers settle it."""
        game = self._participating(request)
        data = DisputeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        confirmation.game_dispute(game=game, by=request.user, reason=data.validated_data["reason"])
        return Response(game_data(game))


class DisputeFilter(StrictFilterSet):
    league = django_filters.ModelChoiceFilter(queryset=visible_leagues)
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
        organised = result_selectors.organised_leagues(user=self.request.user)
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
        dispute = confirmation.dispute_resolve(
            dispute=dispute, by=request.user, **data.validated_data
        )
        return Response(GameDisputeSerializer(dispute).data)
