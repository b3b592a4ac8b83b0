"""The pages of games (a game's page, logging, correcting, deleting, confirming and disputing),
included in `league.urls` (so under its `league` namespace)."""

from django.urls import path

from league.results import views

urlpatterns = [
    path("leagues/<slug:slug>/games/<int:game_id>/", views.game_detail, name="game"),
    path("leagues/<slug:slug>/games/<int:game_id>/edit/", views.game_edit, name="game-edit"),
    path("leagues/<slug:slug>/games/<int:game_id>/delete/", views.game_delete, name="game-delete"),
    path(
        "leagues/<slug:slug>/games/<int:game_id>/confirm/",
        views.confirm,
        name="game-confirm",
    ),
    path(
        "leagues/<slug:slug>/games/<int:game_id>/dispute/",
        views.dispute,
        name="game-dispute",
    ),
    path(
        "leagues/<slug:slug>/disputes/<int:dispute_id>/resolve/",
        views.resolve,
        name="dispute-resolve",
    ),
    path("games/new/", views.log_game, name="result-entry"),
    path("games/confirm/", views.games_confirm, name="games-confirm"),
]
