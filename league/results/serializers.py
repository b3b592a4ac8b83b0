"""API shapes of games, their players, disputes, standings and rating history, and the
catalogue. Serializers parse and present; the rules live in services and the catalogue."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from league.models import (
    Game,
    GameDispute,
    League,
    Participant,
    Season,
)
from league.results import selectors as result_selectors
from league.results.checks import ParticipantInput

# Ids are PostgreSQL bigints: a larger number can name nothing, so it is refused as a bad value.
MAX_ID = 2**63 - 1

# The catalogue's serializers below have fields named `label` and `required`, which the stubs
# take for Field's own attributes of those names. DRF's serializer metaclass pops declared
# fields out of the class, so they shadow nothing: hence the targeted ignores.


def login_name(login: str, **options: Any) -> serializers.CharField:
    """The read-only username of the login ``login`` (a foreign key to a User), null when
    there is none (a guest player, a deleted account, nobody)."""
    return serializers.CharField(
        source=f"{login}.username", read_only=True, default=None, allow_null=True, **options
    )


class CatalogueEditionSerializer(serializers.Serializer[Any]):
    key = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    rated = serializers.BooleanField()
    card_data = serializers.CharField(allow_null=True)
    card_data_status = serializers.CharField(allow_null=True)


class CatalogueFieldSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]
    type = serializers.ChoiceField(choices=["int", "bool", "choice"])
    required = serializers.BooleanField()  # type: ignore[assignment]
    minimum = serializers.IntegerField(required=False)
    choices = serializers.ListField(child=serializers.CharField(), required=False)
    help = serializers.CharField(required=False)


class CatalogueGameSerializer(serializers.Serializer[Any]):
    """One game of /api/catalogue/ (the answer is a list of these)."""

    key = serializers.CharField()
    name = serializers.CharField()
    editions = CatalogueEditionSerializer(many=True)
    result_fields = CatalogueFieldSerializer(many=True)
    game_fields = CatalogueFieldSerializer(many=True)


class ParticipantInputSerializer(serializers.Serializer[Any]):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID)
    seat = serializers.IntegerField(required=False, min_value=1, max_value=32767)
    result = serializers.DictField(help_text="The game's result fields; see /api/catalogue/.")


def participant_inputs(rows: Iterable[Mapping[str, Any]]) -> list[ParticipantInput]:
    """`ParticipantInputSerializer` rows, validated, as the services take them."""
    return [
        ParticipantInput(player_id=row["player"], seat=row.get("seat"), result=row["result"])
        for row in rows
    ]


# What one game did to a participant's rating, as a game's seats and a rating history show it.
RATING_CHANGE_FIELDS = (
    "rating_before",
    "rating_after",
    "rating_delta",
    "expected_score",
    "actual_score",
)


class ParticipantSerializer(serializers.ModelSerializer[Participant]):
    player_name = serializers.CharField(source="player.name", read_only=True)
    rating_delta = serializers.FloatField(read_only=True, allow_null=True)

    class Meta:
        model = Participant
        fields = [
            "player",
            "player_name",
            "seat",
            "result",
            "score",
            "rank",
            *RATING_CHANGE_FIELDS,
            "cards",
        ]
        read_only_fields = ["cards"]
        extra_kwargs = {
            "cards": {
                "help_text": "What the card calculator scored the result from (cats, strays, "
                "boxes, counts) when the game's `scored_with` names card data; empty otherwise."
            }
        }


@extend_schema_field(OpenApiTypes.INT)
class VisibleLeagueField(serializers.PrimaryKeyRelatedField[League]):
    """A league the requesting user may see: any other id is answered like one that does not
    exist, so a refusal never tells that a private league is there."""

    def get_queryset(self) -> QuerySet[League]:
        return League.objects.visible_to(self.context["request"].user)


@extend_schema_field(OpenApiTypes.INT)
class VisibleSeasonField(serializers.PrimaryKeyRelatedField[Season]):
    def get_queryset(self) -> QuerySet[Season]:
        return Season.objects.filter(
            league__in=League.objects.visible_to(self.context["request"].user)
        )


# Both game serializers need the request in their context (`context={"request": request}`).
class GameWriteSerializer(serializers.Serializer[Any]):
    league = VisibleLeagueField()
    game = serializers.CharField(required=False, max_length=40)
    edition = serializers.CharField(required=False, max_length=40)
    played_on = serializers.DateField()
    played_time = serializers.TimeField(required=False, allow_null=True)
    season = VisibleSeasonField(required=False, allow_null=True)
    place = serializers.CharField(required=False, allow_blank=True, max_length=120, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    details = serializers.DictField(required=False, default=dict)
    participants = ParticipantInputSerializer(many=True, allow_empty=False)


class GameEditSerializer(serializers.Serializer[Any]):
    edition = serializers.CharField(required=False, max_length=40)
    played_on = serializers.DateField(required=False)
    played_time = serializers.TimeField(required=False, allow_null=True)
    season = VisibleSeasonField(required=False, allow_null=True)
    place = serializers.CharField(required=False, allow_blank=True, max_length=120)
    notes = serializers.CharField(required=False, allow_blank=True)
    details = serializers.DictField(required=False)
    participants = ParticipantInputSerializer(many=True, allow_empty=False, required=False)


class GameSerializer(serializers.ModelSerializer[Game]):
    participants = ParticipantSerializer(many=True, read_only=True)
    logged_by = login_name("logged_by")

    class Meta:
        model = Game
        fields = [
            "id",
            "league",
            "season",
            "game",
            "edition",
            "played_on",
            "played_time",
            "place",
            "notes",
            "details",
            "rated",
            "scored_with",
            "status",
            "confirmed_at",
            "logged_by",
            "created_at",
            "updated_at",
            "participants",
        ]
        read_only_fields = ["status", "confirmed_at", "scored_with"]
        extra_kwargs = {
            "scored_with": {
                "help_text": "The card data the result page scored the players' cards with; "
                "empty when totals were entered. New participants in a correction replace "
                "the cards with their totals."
            }
        }


def game_data(game: Game) -> Any:
    """``game`` as the API shows it, read again with what :class:`GameSerializer` needs
    (after a write, the instance in hand lacks its related rows)."""
    return GameSerializer(result_selectors.games_for().get(pk=game.pk)).data


class DisputeSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=2000, help_text="What is wrong with the result.")


MAX_CONFIRMED_AT_ONCE = 500


class GamesConfirmSerializer(serializers.Serializer[Any]):
    games = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        allow_empty=False,
        max_length=MAX_CONFIRMED_AT_ONCE,
        help_text="Ids of games waiting for confirmation in leagues you organise.",
    )


class ConfirmedSerializer(serializers.Serializer[Any]):
    confirmed = serializers.ListField(
        child=serializers.IntegerField(), help_text="The games confirmed and rated now."
    )
    disputed = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Disputed games left as they are: settle each with its dispute.",
    )


def confirmed_data(result: Any) -> dict[str, list[int]]:
    return {
        "confirmed": [game.pk for game in result.confirmed],
        "disputed": [game.pk for game in result.disputed],
    }


class GameDisputeSerializer(serializers.ModelSerializer[GameDispute]):
    game = serializers.IntegerField(
        source="game_id", allow_null=True, help_text="null once the game is deleted."
    )
    raised_by = login_name("raised_by")
    resolved_by = login_name("resolved_by")

    class Meta:
        model = GameDispute
        fields = [
            "id",
            "league",
            "game",
            "reason",
            "raised_by",
            "raised_at",
            "resolution",
            "resolved_by",
            "resolved_at",
            "note",
        ]
        extra_kwargs = {"resolution": {"help_text": "Empty while the dispute is open."}}


class DisputeResolveSerializer(serializers.Serializer[Any]):
    delete = serializers.BooleanField(
        default=False, help_text="Delete the game (ratings are rebuilt) rather than confirm it."
    )
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class StandingSerializer(serializers.Serializer[Any]):
    position = serializers.IntegerField()
    player_id = serializers.IntegerField()
    player_name = serializers.CharField()
    rating = serializers.FloatField()
    provisional = serializers.BooleanField()
    games_played = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_placement = serializers.FloatField(allow_null=True)
    trend = serializers.FloatField()
    last_played_on = serializers.DateField(allow_null=True)


class RatingHistorySerializer(serializers.ModelSerializer[Participant]):
    game = serializers.IntegerField(source="game_id")
    league = serializers.IntegerField(source="game.league_id")
    played_on = serializers.DateField(source="game.played_on")
    rating_delta = serializers.FloatField(allow_null=True)

    class Meta:
        model = Participant
        fields = [
            "game",
            "league",
            "played_on",
            "seat",
            "rank",
            *RATING_CHANGE_FIELDS,
        ]
