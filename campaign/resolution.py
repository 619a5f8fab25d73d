"""Resolving a locked turn (called by the Celery task; safe to run twice).

The engine runs on the scenario stored when the turn locked (world, orders, seed), outside any
transaction: it is pure, so a duplicate run computes the same result. Then one short transaction
claims the turn (still locked?) and writes the result, its events, battles and ledger in a fixed
number of statements. A worker killed at any point leaves the turn locked, and a rerun gives the
identical result; a second delivery finds the turn resolved and does nothing. Each start is
counted on the turn first, so a turn that kills its worker every time is failed after
RESOLUTION_STARTS starts instead of being delivered again for ever.

`turn_resolve_task` is the Celery interface (ecosystem-reliability.md §2): late acknowledgement
(a killed worker's task is delivered again), bounded retries with back-off on database errors,
and after the last one the turn is marked failed, never left half-done. Nothing here loops: a
turn that does not exist ends the task, any other error marks the turn failed, and a turn whose
worker dies every time is failed after RESOLUTION_STARTS starts.
"""

from __future__ import annotations

import logging
import traceback
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from campaign.gc_pause import cyclic_gc_paused
from campaign.models import Turn
from campaign.rulesets import ruleset_of
from campaign.transitions import transition

Status = Turn.Status
PROGRESS_SECONDS = 3600
RETRYABLE = (OperationalError, InterfaceError)
logger = logging.getLogger(__name__)


class WorkerKeptDying(Exception):
    """The turn's resolution was started RESOLUTION_STARTS times and never finished."""


def progress_key(turn_id: int) -> str:
    return f"turn-progress:{turn_id}"


def turn_progress(turn_id: int) -> dict[str, Any] | None:
    """What a running resolution is doing (phase and percent), for the moderator's page; None
    when nothing is known, the cache (Redis) being down included."""
    try:
        value = cache.get(progress_key(turn_id))
    except Exception as error:  # redis-py's ConnectionError, TimeoutError …
        logger.warning("turn %s: progress not read: %r", turn_id, error)
        return None
    return value if isinstance(value, dict) else None


def _report(turn_id: int, phase: str, percent: int) -> None:
    """Best effort: a progress bar that cannot be updated must not fail the resolution."""
    try:
        cache.set(progress_key(turn_id), {"phase": phase, "percent": percent}, PROGRESS_SECONDS)
    except Exception as error:
        logger.warning("turn %s: progress not kept: %r", turn_id, error)


def turn_resolve(*, turn_id: int) -> str:
    """Resolve the turn if it is still locked: "resolved", or "skipped" when it is not."""
    turn = Turn.objects.select_related("campaign").get(pk=turn_id)
    if turn.status != Status.LOCKED or turn.scenario is None:
        return "skipped"
    # Count the start first: a turn whose worker dies every time (redelivered by
    # reject_on_worker_lost) must end as failed, not be delivered for ever.
    Turn.objects.filter(pk=turn_id).update(attempts=F("attempts") + 1)
    if turn.attempts + 1 > settings.RESOLUTION_STARTS:
        raise WorkerKeptDying(
            f"Resolution was started {turn.attempts} times and never finished: the worker "
            "stopped each time (killed, or out of memory?). Nothing was written. Look at the "
            "worker's log, then press Retry."
        )
    ruleset = ruleset_of(turn.campaign)
    _report(turn_id, "resolving the turn", 10)
    with cyclic_gc_paused():
        result = ruleset.advance(turn.scenario)
    _report(turn_id, "writing the result", 70)
    with cyclic_gc_paused(), transaction.atomic():
        # Claim: still locked? (a row lock on PostgreSQL; SQLite's IMMEDIATE transactions
        # serialize writers). Only the fields needed, not the scenario again.
        turn = Turn.objects.select_for_update().only("id", "campaign_id", "status").get(pk=turn_id)
        if turn.status != Status.LOCKED:
            return "skipped"
        ruleset.result_rows_write(turn, result)
        transition(
            turn,
            user=None,
            action="resolve",
            result=result,
            resolved_at=timezone.now(),
            error="",
        )
    _report(turn_id, "done", 100)
    return "resolved"


def turn_fail(turn_id: int, *, error: str) -> None:
    """The worker gave up: the moderator sees the error and a retry button."""
    with transaction.atomic():
        turn = Turn.objects.filter(pk=turn_id).first()
        if turn is not None and turn.status == Status.LOCKED:
            transition(turn, user=None, action="fail", error=error[:4000])


@shared_task(
    name="campaign.tasks.turn_resolve_task",  # its name since issue 3: queued ones still run
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=None,
)
def turn_resolve_task(self, turn_id: int) -> str:  # type: ignore[no-untyped-def]
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
