"""API shapes. Serializers parse and present; the rules live in services and the catalogue."""

from __future__ import annotations

from rest_framework import serializers

from league.catalogue import GAMES
from league.models import AuditEntry, Game, League, Membership, Participant, Player, Season


class PlayerSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True, default=None)

    class Meta:
        model = Player
        fields = ["id", "name", "username", "created_at"]
        read_only_fields = ["created_at"]


class LeagueSerializer(serializers.ModelSerializer):
    game = serializers.ChoiceField(choices=sorted(GAMES), default="cat-lady")

    class Meta:
        model = League
        fields = [
            "id", "name", "slug", "description", "game", "is_public", "k_factor",
            "initial_rating", "provisional_games", "created_at",
        ]
        read_only_fields = ["created_at"]
        # Uniqueness is checked by the service, with the same message for API and admin.
        extra_kwargs = {"slug": {"validators": []}}


class LeagueUpdateSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["name", "description", "is_public", "provisional_games"]


class MembershipSerializer(serializers.ModelSerializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "player", "player_name", "role", "joined_at"]
        read_only_fields = ["joined_at"]
        validators: list = []


class SeasonSerializer(serializers.ModelSerializer):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on"]
        validators: list = []


class ParticipantInputSerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1)
    seat = serializers.IntegerField(required=False, min_value=1)
    result = serializers.DictField(help_text="The game's result fields; see /api/catalogue/.")


class ParticipantSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)
    rating_delta = serializers.FloatField(read_only=True, allow_null=True)

    class Meta:
        model = Participant
        fields = [
            "player", "player_name", "seat", "result", "score", "rank", "rating_before",
            "rating_after", "rating_delta", "expected_score", "actual_score",
        ]


class GameWriteSerializer(serializers.Serializer):
    league = serializers.PrimaryKeyRelatedField(queryset=League.objects.all())
    game = serializers.CharField(required=False)
    edition = serializers.CharField(required=False)
    played_on = serializers.DateField()
    played_time = serializers.TimeField(required=False, allow_null=True)
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(), required=False, allow_null=True
    )
    place = serializers.CharField(required=False, allow_blank=True, max_length=120, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")
    details = serializers.DictField(required=False, default=dict)
    participants = ParticipantInputSerializer(many=True, allow_empty=False)


class GameEditSerializer(serializers.Serializer):
    edition = serializers.CharField(required=False)
    played_on = serializers.DateField(required=False)
    played_time = serializers.TimeField(required=False, allow_null=True)
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(), required=False, allow_null=True
    )
    place = serializers.CharField(required=False, allow_blank=True, max_length=120)
    notes = serializers.CharField(required=False, allow_blank=True)
    details = serializers.DictField(required=False)
    participants = ParticipantInputSerializer(many=True, allow_empty=False, required=False)


class GameSerializer(serializers.ModelSerializer):
    participants = ParticipantSerializer(many=True, read_only=True)
    logged_by = serializers.CharField(source="logged_by.username", read_only=True, default=None)

    class Meta:
        model = Game
        fields = [
            "id", "league", "season", "game", "edition", "played_on", "played_time", "place",
            "notes", "details", "rated", "logged_by", "created_at", "updated_at", "participants",
        ]


class StandingSerializer(serializers.Serializer):
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


class RatingHistorySerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="game_id")
    league = serializers.IntegerField(source="game.league_id")
    played_on = serializers.DateField(source="game.played_on")
    rating_delta = serializers.FloatField(allow_null=True)

    class Meta:
        model = Participant
        fields = [
            "game", "league", "played_on", "seat", "rank", "rating_before", "rating_after",
            "rating_delta", "expected_score", "actual_score",
        ]


class AuditEntrySerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username", read_only=True, default=None)

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "user", "action", "object_type", "object_id", "changes"]


class ErrorSerializer(serializers.Serializer):
    """The shape of every API error (see config/api_errors.py)."""

    error = serializers.CharField()
    detail = serializers.CharField()
    fields = serializers.DictField(child=serializers.ListField(child=serializers.CharField()),
                                   required=False)
