from rest_framework.routers import DefaultRouter

from arena.api import BotViewSet, LadderViewSet, MatchViewSet, TournamentViewSet

router = DefaultRouter()
router.register("bots", BotViewSet, basename="bot")
router.register("matches", MatchViewSet, basename="match")
router.register("ladders", LadderViewSet, basename="ladder")
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = router.urls
