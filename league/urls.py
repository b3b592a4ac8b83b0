"""The league's public pages, under the `league` namespace (the API's router owns the bare
`league-list`/`league-detail` names)."""

from django.urls import path

from league import views

app_name = "league"

urlpatterns = [
    path("leagues/", views.league_list, name="list"),
    path("leagues/<slug:slug>/", views.league_detail, name="detail"),
]
