"""Celery tasks: interfaces that call services and carry no rules.

`turn_resolve_task` follows the reliability pattern of ecosystem-reliability.md §2: late
acknowledgement (a killed worker's task is delivered again), bounded retries with back-off on
database errors, and after the last one the turn is marked failed, never left half-done. Nothing
here loops: a turn that does not exist ends the task, any other error marks the turn failed, and
a turn whose worker dies every time is failed after RESOLUTION_STARTS starts (resolution.py).
"""

from __future__ import annotations

import traceback

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError

RETRYABLE = (OperationalError, InterfaceError)


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True, max_retries=None)
def turn_resolve_task(self, turn_id: int) -> str:  # type: ignore[no-untyped-def]
    from campaign.lifecycle import turn_fail
    from campaign.models import Turn
    from campaign.resolution import WorkerKeptDying, turn_resolve

    retries = settings.RESOLUTION_RETRIES
    try:
        return turn_resolve(turn_id=turn_id)
    except Turn.DoesNotExist:
        return "missing"  # a wrong id, or a turn deleted since: nothing to resolve or retry
    except RETRYABLE as error:
        if self.request.retries >= retries:
            turn_fail(
                turn_id,
                error=(
                    f"The database failed {retries + 1} times while this turn was being "
                    "resolved, so nothing was written (the turn is exactly as it was locked). "
                    f"Press Retry once the database is healthy again. The last error: {error}"
                ),
            )
            raise
        countdown = min(60, 2**self.request.retries)
        raise self.retry(exc=error, countdown=countdown, max_retries=retries) from error
    except WorkerKeptDying as error:
        turn_fail(turn_id, error=str(error))
        raise
    except Exception:
        turn_fail(turn_id, error=traceback.format_exc())
        raise


@shared_task(acks_late=True)
def deadlines_task() -> dict[str, int]:
    """Every few minutes (Celery beat): lock turns past their deadline (or tell the moderator),
    remind players who have not ordered, and queue again resolutions that never reached a
    worker."""
    from campaign.deadlines import check_deadlines

    return check_deadlines()


@shared_task(acks_late=True, max_retries=3)
def post_bulletin_task(turn_id: int) -> None:
    from campaign.notifications import post_bulletin

    post_bulletin(turn_id)
