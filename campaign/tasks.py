"""Celery tasks: interfaces that call services and carry no rules.

`turn_resolve_task` follows the reliability pattern of ecosystem-reliability.md §2: late
acknowledgement (a killed worker's task is delivered again), bounded retries with back-off on
database errors, and after the last one the turn is marked failed, never left half-done.
"""

from __future__ import annotations

import traceback

from celery import shared_task
from django.db import InterfaceError, OperationalError

RETRYABLE = (OperationalError, InterfaceError)
MAX_RETRIES = 5


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=MAX_RETRIES)
def turn_resolve_task(self, turn_id: int) -> str:  # type: ignore[no-untyped-def]
    from campaign.lifecycle import turn_fail
    from campaign.resolution import turn_resolve

    try:
        return turn_resolve(turn_id=turn_id)
    except RETRYABLE as error:
        if self.request.retries >= MAX_RETRIES:
            turn_fail(turn_id, error=f"The database kept failing: {error}")
            raise
        raise self.retry(exc=error, countdown=min(60, 2**self.request.retries)) from error
    except Exception:
        turn_fail(turn_id, error=traceback.format_exc())
        raise


@shared_task(acks_late=True)
def deadlines_task() -> dict[str, int]:
    """Every few minutes (Celery beat): lock turns past their deadline (or tell the moderator),
    and remind players who have not ordered."""
    from campaign.deadlines import check_deadlines

    return check_deadlines()


@shared_task(acks_late=True, max_retries=3)
def post_bulletin_task(turn_id: int) -> None:
    from campaign.notifications import post_bulletin

    post_bulletin(turn_id)
