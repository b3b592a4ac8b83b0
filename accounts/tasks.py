"""Sending e-mail, off the web request: a slow or absent mail server never slows a page.

The task fetches the person (their address and choices now, not when the e-mail was asked
for), composes and sends. A failure to reach the mail server (`OSError`, of which
`smtplib.SMTPException` is one) is retried with exponential backoff a bounded number of
times; when the last try fails too the account page tells the person.
"""

# mypy: disable-error-code="untyped-decorator"
# (Celery ships no types, so its task decorator is untyped, as in arena.tasks and league.tasks.)

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.contrib.auth import get_user_model

from accounts import emails, services
from accounts.models import EmailPreferences

logger = logging.getLogger(__name__)

# Tries after the first, and the backoff: about 30 s, 1, 2, 4, 8 and 16 minutes (with
# jitter), so an e-mail waits for a mail server that is down for about half an hour.
EMAIL_RETRIES = 6
EMAIL_BACKOFF_S = 30
EMAIL_BACKOFF_MAX_S = 20 * 60


@shared_task(
    bind=True,
    autoretry_for=(OSError,),
    retry_backoff=EMAIL_BACKOFF_S,
    retry_backoff_max=EMAIL_BACKOFF_MAX_S,
    retry_jitter=True,
    max_retries=EMAIL_RETRIES,
    ignore_result=True,
)
def send_email(
    self: Task, kind: str, context: dict[str, Any], user_id: int | None = None, to: str = ""
) -> bool:
    """Send one e-mail of `kind`: to the person `user_id` (skipped if they have no address any
    more, or turned this kind off since), or to the address `to` (an invitation). True if sent."""
    if user_id is not None:
        user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
        address = getattr(user, "email", "") if user is not None else ""
        if not address or not EmailPreferences.objects.of(user_id).wants(kind):
            return False
        to = address
    if not to:
        return False
    message = emails.compose(kind=kind, context=context, to=to, user_id=user_id)
    try:
        message.send()
    except OSError as exc:
        if self.request.retries >= EMAIL_RETRIES:
            logger.error("could not send a %s e-mail to %s: %s", kind, to, exc)
            if user_id is not None:
                services.email_failure_record(
                    user_id=user_id, address=to, reason=str(exc) or type(exc).__name__
                )
        raise  # retried with backoff (autoretry_for), or the task fails after the last try
    if user_id is not None:
        services.email_failure_clear(user_id=user_id)
    return True
