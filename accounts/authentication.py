"""`Authorization: Token <key>` for both kinds of key: a named token from the account page, or
the single token `/api/auth/token/` hands out (rest_framework.authtoken)."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from accounts.models import ApiToken
from accounts.services import key_digest

# Writing last_used_at on every request would turn each API read into a write.
LAST_USED_RESOLUTION = dt.timedelta(minutes=5)


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        token = ApiToken.objects.select_related("user").filter(digest=key_digest(key)).first()
        if token is None:
            return super().authenticate_credentials(key)
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
