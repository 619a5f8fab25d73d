"""Telling people: the ruleset's public bulletin to a webhook on publish, reminders by e-mail."""

from __future__ import annotations

import logging

from celery import shared_task
from django.core.mail import send_mail
from django.db import transaction

from campaign.models import AuditEntry, Turn
from campaign.rulesets import bulletin_of, bulletin_picture_of
from campaign.webhooks import (
    WebhookFailed,
    WebhookFile,
    WebhookRefused,
    post_json,
    post_with_files,
    webhook_body,
)

log = logging.getLogger(__name__)


def queue_bulletin(turn: Turn) -> None:
    """After the commit, post the bulletin if the campaign has a webhook."""
    if not turn.campaign.webhook_url:
        return
    turn_id = turn.pk
    transaction.on_commit(lambda: post_bulletin_task.delay(turn_id))


def post_bulletin(turn_id: int) -> None:
    """POST the bulletin as a Discord-compatible message (`content`, pinging no one), to a
    public address only (campaign/webhooks.py). The bulletin is the ruleset's (bulletin_of);
    with the ruleset's picture (bulletin_picture_of: naval, the public map as PNG) attached,
    multipart/form-data as Discord takes files. A picture that cannot be drawn, or that the
    webhook refuses (too large, 400/413), costs only the picture: the text is posted alone."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    bulletin = bulletin_of(turn.campaign)
    if bulletin is None:
        return
    text = bulletin(turn)
    url = turn.campaign.webhook_url
    try:
        picture = _picture(turn)
        if picture is not None:
            try:
                post_with_files(url, text, [picture])
                return
            except WebhookFailed as error:
                if error.status not in (400, 413, 415):
                    raise
                log.warning(
                    "webhook refused the picture (%s), posting the text (turn %s)", error, turn.pk
                )
        post_json(url, webhook_body(text))
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


def _picture(turn: Turn) -> WebhookFile | None:
    writer = bulletin_picture_of(turn.campaign)
    if writer is None:
        return None
    try:
        drawn = writer(turn)
        return None if drawn is None else WebhookFile(drawn[0], drawn[1], description=drawn[2])
    except Exception:  # a drawing that fails must not lose the bulletin
        log.exception("the bulletin's picture could not be drawn (turn %s)", turn.pk)
        return None


def remind(recipients: list[tuple[str, str]], *, campaign: str, number: int, deadline: str) -> None:
    """One e-mail per (address, footer): the footer is the ruleset's words for that member
    alone (naval: their private order address, issue 21 §2)."""
    for address, footer in recipients:
        text = (
            f"Turn {number} of {campaign} locks at {deadline}, and your faction has "
            "given no orders yet. Fleets without orders hold."
        )
        send_mail(
            subject=f"{campaign}: your orders for turn {number}",
            message=f"{text}\n\n{footer}" if footer else text,
            from_email=None,
            recipient_list=[address],
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
