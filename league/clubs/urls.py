"""The pages of leagues, players, members, invitations and seasons, included in `league.urls`
(so under its `league` namespace)."""

from django.urls import path

from league.clubs import pages, views

urlpatterns = [
    path("leagues/", pages.league_list, name="list"),
    path("leagues/new/", views.league_create, name="create"),
    path("leagues/<slug:slug>/", pages.league_detail, name="detail"),
    path("leagues/<slug:slug>/settings/", views.league_settings, name="settings"),
    path("leagues/<slug:slug>/seasons/", views.season_start, name="season-start"),
    path(
        "leagues/<slug:slug>/seasons/<int:season_id>/close/",
        views.season_close,
        name="season-close",
    ),
    path("leagues/<slug:slug>/members/", views.members, name="members"),
    path("leagues/<slug:slug>/members/guests/", views.guest_add, name="guest-add"),
    path(
        "leagues/<slug:slug>/members/<int:membership_id>/role/",
        views.member_role,
        name="member-role",
    ),
    path(
        "leagues/<slug:slug>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member-remove",
    ),
    path("leagues/<slug:slug>/invitations/", views.invitation_create, name="invitation-create"),
    path(
        "leagues/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        views.invitation_revoke,
        name="invitation-revoke",
    ),
    path("leagues/<slug:slug>/changes/", views.audit, name="audit"),
    path("invitations/<str:token>/", views.invitation, name="invitation"),
    path("players/<int:player_id>/", pages.player_detail, name="player"),
]
