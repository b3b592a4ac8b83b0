"""The league's public pages, under the `league` namespace (the API's router owns the bare
`league-list`/`league-detail` names)."""

from django.urls import path

from league import views

app_name = "league"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/<slug:slug>/", views.league_detail, name="detail"),
    path("leagues/<slug:slug>/games/<int:game_id>/", views.game_detail, name="game"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("games/new/", views.log_game, name="result-entry"),
]
