"""API of matches and challenges. A match's log shows stderr and fault texts only for the
seats whose bot the caller owns."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, permissions, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from arena.common import SeatInput
from arena.live.selectors import match_reviews, matches_sat_at
from arena.matches.selectors import log_for_viewer
from arena.matches.services import challenge_create
from arena.models import BotVersion, Match, MatchSeat
from arena.web import ID_PATTERN, MAX_ID, game_names, logged_in
from config.api.filters import StrictBooleanFilter, StrictFilterSet
from engine.strategies import names as builtin_names

# A seat's outcome, as the API and the admin both show it.
SEAT_OUTCOME_FIELDS = (
    "version",
    "builtin",
    "score",
    "rank",
    "faults",
    "forfeited",
    "rating_before",
    "rating_after",
)


class MatchSeatSerializer(serializers.ModelSerializer[MatchSeat]):
    # `seat` stays an index from 0, as bots and the match log count (changing it would break
    # every client); `seat_number` is the same seat as the pages name it, from 1.
    seat = serializers.IntegerField(
        read_only=True,
        help_text="The seat's index, 0-based (as in the match log and a bot's observation); "
        "pages show index + 1.",
    )
    seat_number = serializers.SerializerMethodField(
        help_text="The seat as people read it on the pages: `seat` + 1."
    )
    bot = serializers.CharField(source="label", read_only=True)

    def get_seat_number(self, seat: MatchSeat) -> int:
        return seat.seat + 1

    class Meta:
        model = MatchSeat
        fields = ["seat", "seat_number", "bot", *SEAT_OUTCOME_FIELDS]


class MatchSerializer(serializers.ModelSerializer[Match]):
    seats = MatchSeatSerializer(many=True, read_only=True)
    seed = serializers.SerializerMethodField(
        help_text="The deal's seed: null until the match, and every other seating of its deal, "
        "is over (the seed gives away every hidden card)."
    )

    reviews = serializers.SerializerMethodField(
        help_text="Live matches, once over: each person's review, worked out after the game "
        '(docs/api.md#reviews). "pending" while it is being prepared.'
    )

    def get_seed(self, match: Match) -> int | None:
        return match.seed if match.deal_revealed else None

    def get_reviews(self, match: Match) -> list[dict[str, Any]]:
        return match_reviews(match)

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
            "reviews",
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
        choices=game_names(),
        required=False,
        help_text="Only needed when every seat is a house bot "
        "(default: the bots' game, else cat-lady).",
    )
    options = serializers.DictField(
        required=False,
        help_text='Unranked game options, e.g. {"edition": "box-of-treats-placeholder"}, '
        '{"shared_goals": true} or {"solitaire": true} (seat 2: cat-player).',
    )


class MatchFilter(StrictFilterSet):
    mine = StrictBooleanFilter(
        method="filter_mine",
        help_text="true: only the live games you sat at (log in first); false: every match.",
    )

    class Meta:
        model = Match
        fields = [
            "kind",
            "status",
            "ladder",
            "tournament",
            "seats__version__bot__name",
            "seats__version",
            "mine",
        ]

    def filter_mine(self, matches: QuerySet[Match], name: str, mine: bool) -> QuerySet[Match]:
        if not mine:
            return matches
        if not self.request.user.is_authenticated:
            raise NotAuthenticated("Log in to list your own games (mine=true).")
        return matches.filter(pk__in=matches_sat_at(self.request.user).values("pk"))


class MatchViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Match]
):
    queryset = (
        Match.objects.with_open_siblings()
        .prefetch_related("seats__version__bot", "reviews")
        .defer("log")
    )
    serializer_class = MatchSerializer
    filterset_class = MatchFilter
    lookup_value_regex = ID_PATTERN

    @extend_schema(request=ChallengeSerializer, responses={201: MatchSerializer})
    @action(detail=False, methods=["post"], permission_classes=[permissions.IsAuthenticated])
    def challenge(self, request: Request) -> Response:
        """Request a match between active bot versions and/or house bots."""
        data = ChallengeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        seats: list[SeatInput] = []
        errors: dict[str, list[str]] = {}
        for index, entry in enumerate(data.validated_data["seats"]):
            if entry in builtin_names():
                seats.append(SeatInput(builtin=entry))
            elif (
                entry.isascii()
                and entry.isdigit()
                and len(entry) <= 19
                and int(entry) <= MAX_ID
                and BotVersion.objects.filter(pk=int(entry)).exists()
            ):
                seats.append(SeatInput(version=BotVersion.objects.get(pk=int(entry))))
            else:
                errors[f"seats.{index}"] = [
                    f"{entry!r} is neither a bot version id nor a house bot."
                ]
        if errors:
            raise serializers.ValidationError(errors)
        match = challenge_create(
            seats=seats,
            by=logged_in(request),
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
        response = Response(log_for_viewer(match, request.user))
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.json"'
        return response
