from django.contrib import admin

from accounts.models import ApiToken, EmailKind, EmailPreferences


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their owners on the account page; the admin can only revoke them."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    search_fields = ["name", "user__username"]
    readonly_fields = ["user", "name", "prefix", "digest", "created_at", "last_used_at"]

    def has_add_permission(self, request):
        return False


@admin.register(EmailPreferences)
class EmailPreferencesAdmin(admin.ModelAdmin):
    """Each person's e-mail choices, and the last e-mail that could not be delivered."""

    list_display = ["user", *EmailKind.values, "failed_at"]
    list_filter = ["failed_at"]
    search_fields = ["user__username", "user__email"]
    readonly_fields = ["user", "failed_at", "failed_address", "failed_reason"]

    def has_add_permission(self, request):
        return False
