"""The pages of game nights, included in `league.urls` (so under its `league` namespace)."""

from django.urls import path

from league.nights import views

urlpatterns = [
    path("leagues/<slug:slug>/nights/", views.night_list, name="nights"),
    path("leagues/<slug:slug>/nights/new/", views.night_open, name="night-open"),
    path("leagues/<slug:slug>/nights/<int:night_id>/", views.night_detail, name="night"),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/draw/",
        views.round_draw,
        name="night-draw",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/undo/",
        views.round_undo,
        name="night-undo",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/confirm/",
        views.night_confirm,
        name="night-confirm",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/people/",
        views.attendance,
        name="night-attendance",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/guests/",
        views.guest_add,
        name="night-guest",
    ),
    path(
        "leagues/<slug:slug>/nights/<int:night_id>/tables/<int:table_id>/result/",
        views.table_result,
        name="night-table",
    ),
]
