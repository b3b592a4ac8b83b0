"""The pages of games in and out (BG Stats, CSV), included in `league.urls` (so under its
`league` namespace)."""

from django.urls import path

from league.interop import views

urlpatterns = [
    path("leagues/<slug:slug>/games.csv", views.export_games, name="export-games"),
    path("leagues/<slug:slug>/standings.csv", views.export_standings, name="export-standings"),
    path("leagues/<slug:slug>/bgstats.json", views.export_bgstats, name="export-bgstats"),
    path("leagues/<slug:slug>/import/bgstats/", views.import_upload, name="bgstats-upload"),
    path(
        "leagues/<slug:slug>/import/bgstats/preview/",
        views.import_preview,
        name="bgstats-preview",
    ),
]
