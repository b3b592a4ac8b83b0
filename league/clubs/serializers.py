"""API shapes of players, leagues, members, seasons and the change log. Serializers parse and
present; the rules live in services."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from league.catalogue import GAMES
from league.clubs.limits import (
    CONFIRMATION_DAYS_RANGE,
    INITIAL_RATING_RANGE,
    K_FACTOR_RANGE,
    PROVISIONAL_GAMES_RANGE,
)
from league.models import AuditEntry, League, Membership, Player, Season
from league.results.serializers import login_name


class PlayerSerializer(serializers.ModelSerializer[Player]):
    username = login_name("user", help_text="null for a player with no login.")

    class Meta:
        model = Player
        fields = ["id", "name", "username", "created_at"]
        read_only_fields = ["created_at"]


class LeagueSerializer(serializers.ModelSerializer[League]):
    game = serializers.ChoiceField(choices=sorted(GAMES), default="cat-lady")
    k_factor = serializers.FloatField(
        min_value=K_FACTOR_RANGE[0], max_value=K_FACTOR_RANGE[1], default=32.0
    )
    initial_rating = serializers.FloatField(
        min_value=INITIAL_RATING_RANGE[0], max_value=INITIAL_RATING_RANGE[1], default=1500.0
    )
    provisional_games = serializers.IntegerField(
        min_value=PROVISIONAL_GAMES_RANGE[0], max_value=PROVISIONAL_GAMES_RANGE[1], default=5
    )

    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "slug",
            "description",
            "game",
            "is_public",
            "k_factor",
            "initial_rating",
            "provisional_games",
            "rating_system",
            "confirmation",
            "confirmation_days",
            "created_at",
        ]
        # Chosen on the league's settings page (the rating system rebuilds every rating); how
        # results become final is set on an existing league (PATCH).
        read_only_fields = ["rating_system", "created_at", "confirmation", "confirmation_days"]
        # Uniqueness is checked by the service, with the same message for API and admin.
        extra_kwargs: dict[str, dict[str, Any]] = {"slug": {"validators": []}}


class LeagueUpdateSerializer(serializers.ModelSerializer[League]):
    provisional_games = serializers.IntegerField(
        min_value=PROVISIONAL_GAMES_RANGE[0], max_value=PROVISIONAL_GAMES_RANGE[1], required=False
    )

    confirmation_days = serializers.IntegerField(
        min_value=CONFIRMATION_DAYS_RANGE[0], max_value=CONFIRMATION_DAYS_RANGE[1], required=False
    )

    class Meta:
        model = League
        fields = [
            "name",
            "description",
            "is_public",
            "provisional_games",
            "confirmation",
            "confirmation_days",
        ]


class MembershipSerializer(serializers.ModelSerializer[Membership]):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "player", "player_name", "role", "joined_at"]
        read_only_fields = ["joined_at"]
        validators: list[Any] = []


class SeasonSerializer(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on"]
        validators: list[Any] = []


class AuditEntrySerializer(serializers.ModelSerializer[AuditEntry]):
    user = login_name("user")

    class Meta:
        model = AuditEntry
        fields = ["id", "at", "user", "action", "object_type", "object_id", "changes"]
