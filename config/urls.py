from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config import health
from home import views as home_views

urlpatterns = [
    path("", home_views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("", include("league.urls")),
    path("arena/", include("arena.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its script as a file: the Content-Security-Policy allows no inline one.
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/arena/", include("arena.api_urls")),
    path("api/", include("league.api_urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
]

handler400 = "config.api.errors.bad_request"
handler403 = "config.api.errors.permission_denied"
handler404 = "config.api.errors.page_not_found"
# 503 while the database is down (config.db_down), else the usual 500 answers.
handler500 = "config.db_down.server_error"
