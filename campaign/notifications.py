"""Telling people: the ruleset's public bulletin to a webhook on publish, reminders by e-mail."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction

from campaign.models import AuditEntry, Turn
from campaign.rulesets import bulletin_of
from campaign.webhooks import WebhookRefused, post_json, webhook_body

log = logging.getLogger(__name__)


def queue_bulletin(turn: Turn) -> None:
    """After the commit, post the bulletin if the campaign has a webhook."""
    if not turn.campaign.webhook_url:
        return
    turn_id = turn.pk
    transaction.on_commit(lambda: post_bulletin_task.delay(turn_id))


def post_bulletin(turn_id: int) -> None:
    """POST the bulletin as Discord-compatible JSON (`{"content": …}`, pinging no one), to a
    public address only (campaign/webhooks.py). The bulletin is the ruleset's (bulletin_of)."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    bulletin = bulletin_of(turn.campaign)
    if bulletin is None:
        return
    try:
        post_json(turn.campaign.webhook_url, webhook_body(bulletin(turn)))
    except WebhookRefused as error:
        # Checked again at the post: the address was entered before a rule changed, or its
        # name resolves elsewhere now. Retrying would not help; the moderator reads why.
        log.warning("%s: %s (turn %s)", error.code, error, turn.pk)
        AuditEntry.objects.create(
            campaign=turn.campaign,
            turn=turn,
            action="webhook refused",
            reason=str(error),
            detail={"code": error.code},
        )


def remind(addresses: list[str], *, campaign: str, number: int, deadline: str) -> None:
    if addresses:
        send_mail(
            subject=f"{campaign}: your orders for turn {number}",
            message=(
                f"Turn {number} of {campaign} locks at {deadline}, and your faction has "
                "given no orders yet. Fleets without orders hold."
            ),
            from_email=None,
            recipient_list=addresses,
        )


def tell_moderators(addresses: list[str], *, campaign: str, number: int) -> None:
    if addresses:
        send_mail(
            subject=f"{campaign}: turn {number} is past its deadline",
            message=(
                f"The deadline of turn {number} of {campaign} has passed. Lock it when "
                "you are ready (the campaign does not resolve turns by itself)."
            ),
            from_email=None,
            recipient_list=addresses,
        )


@shared_task(name="campaign.tasks.post_bulletin_task", acks_late=True, max_retries=3)
def post_bulletin_task(turn_id: int) -> None:
    post_bulletin(turn_id)
