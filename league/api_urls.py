from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from league.api import CatalogueView, GameViewSet, LeagueViewSet, PlayerViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("leagues", LeagueViewSet, basename="league")
router.register("games", GameViewSet, basename="game")

urlpatterns = [
    path("catalogue/", CatalogueView.as_view(), name="catalogue"),
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("", include(router.urls)),
]
