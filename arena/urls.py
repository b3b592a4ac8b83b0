"""Arena pages under /arena/."""

from django.urls import path

from arena import live_views, views

app_name = "arena"

urlpatterns = [
    path("", views.home, name="home"),
    path("ladders/<int:pk>/", views.ladder_detail, name="ladder"),
    path("bots/new/", views.bot_create, name="bot-new"),
    path("bots/<slug:name>/", views.bot_detail, name="bot"),
    path("bots/<slug:name>/v<int:number>/source/", views.version_source, name="version-source"),
    path("matches/", views.matches_list, name="matches"),
    path("matches/<int:pk>/", views.match_detail, name="match"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament"),
    path("play/", live_views.play, name="play"),
    path("play/<int:pk>/", live_views.table, name="play-table"),
    path("play/<int:pk>/state/", live_views.table_state, name="play-state"),
    path("play/<int:pk>/move/", live_views.table_move, name="play-move"),
]
