"""Resolving a locked turn (called by the Celery task; safe to run twice).

The engine runs on the scenario stored when the turn locked (world, orders, seed), outside any
transaction: it is pure, so a duplicate run computes the same result. Then one short transaction
claims the turn (still locked?) and writes the result, its events, battles and ledger in a fixed
number of statements. A worker killed at any point leaves the turn locked, and a rerun gives the
identical result; a second delivery finds the turn resolved and does nothing. Each start is
counted on the turn first, so a turn that kills its worker every time is failed after
RESOLUTION_STARTS starts instead of being delivered again for ever.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from battles.models import Battle
from campaign.bulk import insert_rows
from campaign.gc_pause import cyclic_gc_paused
from campaign.lifecycle import transition
from campaign.models import Faction, LedgerLine, Turn
from engine.naval import adjudicate

Status = Turn.Status
PROGRESS_SECONDS = 3600
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
    turn = Turn.objects.get(pk=turn_id)
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
    _report(turn_id, "resolving the turn", 10)
    with cyclic_gc_paused():
        result = adjudicate(turn.scenario)
    _report(turn_id, "writing the result", 70)
    with cyclic_gc_paused(), transaction.atomic():
        # Claim: still locked? (a row lock on PostgreSQL; SQLite's IMMEDIATE transactions
        # serialize writers). Only the fields needed, not the scenario again.
        turn = Turn.objects.select_for_update().only("id", "campaign_id", "status").get(pk=turn_id)
        if turn.status != Status.LOCKED:
            return "skipped"
        write_result_rows(turn, result)
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


def write_result_rows(turn: Turn, result: dict[str, Any]) -> None:
    """Battle and ledger rows, for lists and queries (the events themselves, every die included,
    are in the result): three statements in all."""
    events = result["events"]
    battles = [(index, e) for index, e in enumerate(events) if e["type"] == "battle"]
    insert_rows(
        Battle,
        ["turn", "seq", "province", "step", "winner", "outcome", "rounds", "event"],
        [
            (
                turn.pk,
                n,
                b["province"],
                b["step"],
                b["winner"] or "",
                b["outcome"],
                len(b["rounds"]),
                index,
            )
            for n, (index, b) in enumerate(battles)
        ],
    )
    faction_id = dict(Faction.objects.filter(campaign_id=turn.campaign_id).values_list("key", "id"))
    insert_rows(
        LedgerLine,
        ["turn", "faction", "kind", "amount"],
        [
            (turn.pk, faction_id[e["faction"]], e["type"], e["amount"])
            for e in events
            if "amount" in e
        ],
    )
