from rest_framework.routers import DefaultRouter

from arena.ladders.api import LadderViewSet
from arena.matches.api import MatchViewSet
from arena.submissions.api import BotViewSet
from arena.tournaments.api import TournamentViewSet

router = DefaultRouter()
router.register("bots", BotViewSet, basename="bot")
router.register("matches", MatchViewSet, basename="match")
router.register("ladders", LadderViewSet, basename="ladder")
router.register("tournaments", TournamentViewSet, basename="tournament")

urlpatterns = router.urls
