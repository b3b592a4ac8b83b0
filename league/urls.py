"""The league's pages, under the `league` namespace (the API's router owns the bare
`league-list`/`league-detail` names)."""

from django.urls import include, path

app_name = "league"

# Each room's pages; the patterns do not overlap, so their order does not matter.
urlpatterns = [
    path("", include("league.clubs.urls")),
    path("", include("league.results.urls")),
    path("", include("league.nights.urls")),
    path("", include("league.interop.urls")),
]
