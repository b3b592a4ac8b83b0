from django.contrib import admin

from arena.matches.api import SEAT_OUTCOME_FIELDS
from arena.models import Bot, BotVersion, Ladder, LadderEntry, Match, MatchSeat, Tournament

_VERSION_FIELDS = ("number", "status", "sha256", "size", "created_at")


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    fields = _VERSION_FIELDS
    readonly_fields = _VERSION_FIELDS
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "game", "active_version", "created_at"]
    search_fields = ["name", "owner__username"]
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ["__str__", "status", "size", "created_at"]
    list_filter = ["status"]
    readonly_fields = ["bot", "number", "source", "sha256", "size", "author", "created_at"]


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    readonly_fields = ["seat", *SEAT_OUTCOME_FIELDS]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "status", "ladder", "sandbox_mode", "attempts", "created_at"]
    list_filter = ["kind", "status", "ladder", "sandbox_mode"]
    inlines = [MatchSeatInline]
    exclude = ["log", "house_moves"]  # big, and the house bots' moves while a game runs


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "players", "ranked", "active"]


@admin.register(LadderEntry)
class LadderEntryAdmin(admin.ModelAdmin):
    list_display = ["version", "ladder", "rating", "games", "wins", "forfeits"]
    list_filter = ["ladder"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "table_size", "rounds", "current_round", "status"]
