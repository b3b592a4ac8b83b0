"""The API's token login: throttled per client address, and every failure logged."""

from __future__ import annotations

import logging
from typing import Any

from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle

from config.api.parsers import BoundedJSONParser

logger = logging.getLogger("catleague.auth")


class TokenLoginView(ObtainAuthToken):
    """POST `username` and `password`; the answer's `token` goes in `Authorization: Token …`."""

    parser_classes = (BoundedJSONParser, FormParser, MultiPartParser)
    throttle_classes = (ScopedRateThrottle,)
    throttle_scope = "auth-token"

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            username = request.data.get("username") if hasattr(request.data, "get") else None
            logger.warning(
                "API token login failed for %r from %s",
                str(username)[:150],
                ScopedRateThrottle().get_ident(request),
            )
            raise
