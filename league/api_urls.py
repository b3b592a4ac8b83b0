from django.urls import include, path
from rest_framework.routers import DefaultRouter

from config.api.auth import TokenLoginView
from league.clubs.api import LeagueViewSet, PlayerViewSet
from league.nights.api import NightViewSet
from league.results.api import CatalogueView, DisputeViewSet, GameViewSet

router = DefaultRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("leagues", LeagueViewSet, basename="league")
router.register("games", GameViewSet, basename="game")
router.register("nights", NightViewSet, basename="night")
router.register("disputes", DisputeViewSet, basename="dispute")

urlpatterns = [
    path("catalogue/", CatalogueView.as_view(), name="catalogue"),
    path("auth/token/", TokenLoginView.as_view(), name="api-token"),
    path("", include(router.urls)),
]
