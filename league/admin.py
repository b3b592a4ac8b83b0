"""Django admin for organisers. Games are saved through the same services as the API, so the
validation messages and the rating rebuilds are the same whichever way a result comes in."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpResponseRedirect

from league.models import (
    AuditEntry,
    Game,
    League,
    Membership,
    Participant,
    Player,
    PlayerRating,
    Season,
)
from league.results import checks
from league.results import services as result_services


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name", "user__username"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 1
    autocomplete_fields = ["player"]


class SeasonInline(admin.TabularInline):
    model = Season
    extra = 0


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "is_public", "k_factor", "created_at"]
    list_filter = ["game", "is_public"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline, SeasonInline]
    actions = ["rebuild_ratings"]
    # Changed in the league's settings page, which rebuilds every rating under the new system.
    readonly_fields = ["rating_system"]

    @admin.action(description="Rebuild ratings from scratch and check zero-sum")
    def rebuild_ratings(self, request, queryset):
        for league in queryset:
            report = result_services.ratings_rebuild(league=league, by=request.user)
            level = messages.SUCCESS if report.zero_sum else messages.ERROR
            self.message_user(
                request,
                f"{league}: {report.games_rated} games rated for {report.players} players; "
                f"largest imbalance in one game {report.max_game_imbalance:.2e}.",
                level,
            )


class ParticipantForm(forms.ModelForm):
    result = forms.JSONField(
        help_text='The result fields as JSON, e.g. {"total_vp": 31, "fed_cats": 5}.'
    )

    class Meta:
        model = Participant
        fields = ["player", "seat", "result"]


class ParticipantInline(admin.TabularInline):
    model = Participant
    form = ParticipantForm
    extra = 4
    autocomplete_fields = ["player"]
    fields = [
        "player",
        "seat",
        "result",
        "rank",
        "rating_before",
        "rating_after",
        "expected_score",
        "actual_score",
    ]
    readonly_fields = ["rank", "rating_before", "rating_after", "expected_score", "actual_score"]


class GameForm(forms.ModelForm):
    details = forms.JSONField(
        required=False,
        initial=dict,
        help_text='Game-level fields, e.g. {"cat_player_vp": 40} in solitaire.',
    )

    class Meta:
        model = Game
        fields = [
            "league",
            "edition",
            "played_on",
            "played_time",
            "season",
            "place",
            "notes",
            "details",
        ]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    form = GameForm
    inlines = [ParticipantInline]
    list_display = ["__str__", "league", "edition", "played_on", "rated", "status", "logged_by"]
    list_filter = ["league", "game", "edition", "rated", "status", "played_on"]
    search_fields = ["participants__player__name", "place", "notes"]
    date_hierarchy = "played_on"
    # Confirmation goes through the game's page or the API (`league.results.confirmation.game_confirm`).
    readonly_fields = [
        "game",
        "rated",
        "status",
        "confirmed_at",
        "logged_by",
        "created_at",
        "updated_at",
    ]

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        if obj is not None:
            form.base_fields["league"].disabled = True
        return form

    def _participants_from(self, formsets) -> list[checks.ParticipantInput]:
        rows = []
        for formset in formsets:
            for form in formset.forms:
                data = getattr(form, "cleaned_data", None)
                if not data or data.get("DELETE") or not data.get("player"):
                    continue
                result = data.get("result") or {}
                if not isinstance(result, dict):
                    result = {}
                rows.append(
                    checks.ParticipantInput(
                        player_id=data["player"].pk, seat=data.get("seat"), result=result
                    )
                )
        return rows

    def _apply_errors(self, form, formsets, error: ValidationError) -> None:
        inline_forms = [
            f
            for fs in formsets
            for f in fs.forms
            if getattr(f, "cleaned_data", None)
            and f.cleaned_data.get("player")
            and not f.cleaned_data.get("DELETE")
        ]
        for path, messages_ in error.message_dict.items():
            parts = path.split(".")
            if parts[0] == "participants" and len(parts) >= 2 and parts[1].isdigit():
                target = inline_forms[int(parts[1])]
                field = parts[2] if len(parts) > 2 else None
                field = "result" if field not in ("player", "seat") else field
                for message in messages_:
                    target.add_error(field, message)
            else:
                field = parts[0] if parts[0] in form.fields else None
                for message in messages_:
                    form.add_error(field, f"{path}: {message}" if field is None else message)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        # Saving runs through the services: validate and write in one transaction, and show
        # every service error beside its field, exactly as the API reports it.
        if request.method != "POST":
            return super().changeform_view(request, object_id, form_url, extra_context)
        obj = self.get_object(request, object_id) if object_id else None
        ModelForm = self.get_form(request, obj, change=obj is not None)
        form = ModelForm(request.POST, request.FILES, instance=obj)
        form_valid = form.is_valid()
        # ModelAdmin's own helper for the inline formsets: private, so django-stubs omit it.
        formsets, inline_instances = self._create_formsets(  # type: ignore[attr-defined]
            request, obj or Game(), change=obj is not None
        )
        if form_valid and all(fs.is_valid() for fs in formsets):
            data = form.cleaned_data
            values = dict(
                edition=data["edition"],
                played_on=data["played_on"],
                played_time=data.get("played_time"),
                season=data.get("season"),
                place=data.get("place", ""),
                notes=data.get("notes", ""),
                details=data.get("details") or {},
                participants=self._participants_from(formsets),
            )
            try:
                with transaction.atomic():
                    if obj is None:
                        game = result_services.game_record(
                            league=data["league"], logged_by=request.user, **values
                        )
                    else:
                        game = result_services.game_edit(game=obj, by=request.user, **values)
            except ValidationError as error:
                self._apply_errors(form, formsets, error)
            else:
                self.message_user(request, f"Saved {game}; ratings updated.", messages.SUCCESS)
                return HttpResponseRedirect(
                    f"../{game.pk}/change/" if obj is None else request.path
                )
        admin_form = helpers.AdminForm(
            form,
            # Django's changeform_view passes get_fieldsets() the same way; django-stubs type
            # AdminForm's parameter more narrowly than get_fieldsets' result.
            list(self.get_fieldsets(request, obj)),  # type: ignore[arg-type]
            self.get_prepopulated_fields(request, obj),
            self.get_readonly_fields(request, obj),
            model_admin=self,
        )
        inline_formsets = self.get_inline_formsets(request, formsets, inline_instances, obj)
        context = {
            **self.admin_site.each_context(request),
            "title": "Change game" if obj else "Add game",
            "adminform": admin_form,
            "object_id": object_id,
            "original": obj,
            "is_popup": False,
            "to_field": None,
            "media": self.media + admin_form.media,
            "inline_admin_formsets": inline_formsets,
            "errors": helpers.AdminErrorList(form, formsets),
            "preserved_filters": self.get_preserved_filters(request),
        }
        context.update(extra_context or {})
        return self.render_change_form(
            request, context, add=obj is None, change=obj is not None, obj=obj, form_url=form_url
        )

    def delete_model(self, request, obj):
        result_services.game_delete(game=obj, by=request.user)

    def delete_queryset(self, request, queryset):
        for game in queryset:
            result_services.game_delete(game=game, by=request.user)


@admin.register(PlayerRating)
class PlayerRatingAdmin(admin.ModelAdmin):
    list_display = ["player", "league", "rating", "games_played", "wins", "trend"]
    list_filter = ["league"]
    search_fields = ["player__name"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "user", "action", "object_type", "object_id", "league"]
    list_filter = ["action", "object_type", "league"]
    readonly_fields = [
        "at",
        "user",
        "action",
        "object_type",
        "object_id",
        "league",
        "pretty_changes",
    ]
    exclude = ["changes"]

    @admin.display(description="Changes")
    def pretty_changes(self, obj):
        return json.dumps(obj.changes, indent=2, sort_keys=True)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
