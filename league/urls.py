"""The league's pages, under the `league` namespace (the API's router owns the bare
`league-list`/`league-detail` names)."""

from django.urls import path

from league import bgstats_views, club_views, confirmation_views, night_views, views

app_name = "league"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/new/", club_views.league_create, name="create"),
    path("leagues/<slug:slug>/", views.league_detail, name="detail"),
    path("leagues/<slug:slug>/settings/", club_views.league_settings, name="settings"),
    path("leagues/<slug:slug>/seasons/", club_views.season_start, name="season-start"),
    path(
        "leagues/<slug:slug>/seasons/<int:season_id>/close/",
        club_views.season_close,
        name="season-close",
    ),
    path("leagues/<slug:slug>/members/", club_views.members, name="members"),
    path("leagues/<slug:slug>/members/guests/", club_views.guest_add, name="guest-add"),
    path(
        "leagues/<slug:slug>/members/<int:membership_id>/role/",
        club_views.member_role,
        name="member-role",
    ),
    path(
        "leagues/<slug:slug>/members/<int:membership_id>/remove/",
        club_views.member_remove,
        name="member-remove",
    ),
    path(
        "leagues/<slug:slug>/invitations/", club_views.invitation_create, name="invitation-create"
    ),
    path(
        "leagues/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        club_views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("leagues/<slug:slug>/changes/", club_views.audit, name="audit"),
    path("leagues/<slug:slug>/games.csv", club_views.export_games, name="export-games"),
    path("leagues/<slug:slug>/standings.csv", club_views.export_standings, name="export-standings"),
    path("leagues/<slug:slug>/bgstats.json", bgstats_views.export_bgstats, name="export-bgstats"),
    path("leagues/<slug:slug>/import/bgstats/", bgstats_views.import_upload, name="bgstats-upload"),
    path(
        "leagues/<slug:slug>/import/bgstats/preview/",
        bgstats_views.import_preview,
        name="bgstats-preview",
    ),
    path("leagues/<slug:slug>/games/<int:game_id>/", views.game_detail, name="game"),
    path("leagues/<slug:slug>/games/<int:game_id>/edit/", views.game_edit, name="game-edit"),
    path("leagues/<slug:slug>/games/<int:game_id>/delete/", views.game_delete, name="game-delete"),
    path("leagues/<slug:slug>/nights/", night_views.night_list, name="nights"),
    path("leagues/<slug:slug>/nights/new/", night_views.night_open, name="night-open"),
    path("leagues/<slug:slug>/nights/<int:night_id>/", night_views.night_detail, name="night"),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/draw/",
        night_views.round_draw,
        name="night-draw",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/undo/",
        night_views.round_undo,
        name="night-undo",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/people/",
        night_views.attendance,
        name="night-attendance",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/guests/",
        night_views.guest_add,
        name="night-guest",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/tables/<int:table_id>/result/",
        night_views.table_result,
        name="night-table",
    ),
    path(
        "leagues/<slug:slug>/games/<int:game_id>/confirm/",
        confirmation_views.confirm,
        name="game-confirm",
    ),
    path(
        "leagues/<slug:slug>/games/<int:game_id>/dispute/",
        confirmation_views.dispute,
        name="game-dispute",
    ),
    path(
        "leagues/<slug:slug>/disputes/<int:dispute_id>/resolve/",
        confirmation_views.resolve,
        name="dispute-resolve",
    ),
    path("invitations/<str:token>/", club_views.invitation, name="invitation"),
    path("players/<int:player_id>/", views.player_detail, name="player"),
    path("games/new/", views.log_game, name="result-entry"),
]
