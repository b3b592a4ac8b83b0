"""API of tournaments: create one, its standings, final table and places."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from arena.models import BotVersion, Tournament
from arena.tournaments.services import (
    Entrant,
    HouseEntrant,
    tournament_final_table,
    tournament_placings,
    tournament_standings,
    tournament_start,
)
from arena.web import ID_PATTERN, game_names, logged_in


class TournamentSerializer(serializers.ModelSerializer[Tournament]):
    entrants = serializers.PrimaryKeyRelatedField(queryset=BotVersion.objects.all(), many=True)
    house_entrants = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        default=list,
        max_length=10,
        help_text='House bots entered beside the versions, e.g. ["mcts", "greedy"].',
    )
    game = serializers.ChoiceField(
        choices=game_names(),
        required=False,
        help_text="The entrants' game; needed only when every entrant is a house bot.",
    )
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
            "house_entrants",
            "game",
            "created_at",
        ]
        read_only_fields = ["current_round", "status", "created_at"]

    def to_representation(self, instance: Tournament) -> dict[str, Any]:
        data = super().to_representation(instance)
        if instance.status != Tournament.Status.FINISHED:
            data["seed"] = None
        return data


class TournamentPointsSerializer(serializers.Serializer[Any]):
    version = serializers.IntegerField(allow_null=True, help_text="Null for a house bot.")
    house = serializers.CharField(allow_null=True, help_text="The house bot's name, or null.")
    bot = serializers.CharField()
    points = serializers.FloatField()


def _points_row(entrant: Entrant, points: float) -> dict[str, Any]:
    if isinstance(entrant, HouseEntrant):
        return {
            "version": None,
            "house": entrant.name,
            "bot": str(entrant),
            "points": round(points, 4),
        }
    return {
        "version": entrant.pk,
        "house": None,
        "bot": entrant.bot.name,
        "points": round(points, 4),
    }


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
        serializer.instance = tournament_start(
            organiser=logged_in(self.request), **serializer.validated_data
        )

    @extend_schema(responses=TournamentStandingsSerializer)
    @action(detail=True, methods=["get"])
    def standings(self, request: Request, pk: str | None = None) -> Response:
        """Points after each regular round (a win is 1, last place 0, in between shared
        evenly), the final table's result when there is one, and the places."""
        tournament = self.get_object()
        rounds = []
        for number in range(1, min(tournament.current_round, tournament.rounds) + 1):
            rows = tournament_standings(tournament, through_round=number)
            rounds.append(
                {
                    "round": number,
                    "standings": [_points_row(entrant, points) for entrant, points in rows],
                }
            )
        final = tournament_final_table(tournament)
        return Response(
            {
                "status": tournament.status,
                "rounds": rounds,
                "final": None
                if final is None
                else [_points_row(entrant, points) for entrant, points in final],
                "placings": [
                    {
                        "place": p.place,
                        **_points_row(p.version, p.points),
                        "final_points": None
                        if p.final_points is None
                        else round(p.final_points, 4),
                    }
                    for p in tournament_placings(tournament)
                ]
                if tournament.status == Tournament.Status.FINISHED
                else None,
            }
        )
