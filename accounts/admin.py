from django.contrib import admin

from accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens are made by their owners on the account page; the admin can only revoke them."""

    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    search_fields = ["name", "user__username"]
    readonly_fields = ["user", "name", "prefix", "digest", "created_at", "last_used_at"]

    def has_add_permission(self, request):
        return False
