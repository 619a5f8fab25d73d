"""Resolving a locked turn (called by the Celery task; safe to run twice).

The engine runs on the scenario stored when the turn locked (world, orders, seed), outside any
transaction: it is pure, so a duplicate run computes the same result. Then one short transaction
claims the turn (still locked?) and writes the result, its events, battles and ledger in a fixed
number of statements. A worker killed at any point leaves the turn locked, and a rerun gives the
identical result; a second delivery finds the turn resolved and does nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from battles.models import Battle, BattleRound
from campaign.bulk import insert_rows
from campaign.lifecycle import transition
from campaign.models import Faction, LedgerLine, Turn, TurnEvent
from engine import adjudicate

Status = Turn.Status
PROGRESS_SECONDS = 3600


def progress_key(turn_id: int) -> str:
    return f"turn-progress:{turn_id}"


def turn_progress(turn_id: int) -> dict[str, Any] | None:
    """What a running resolution is doing (phase and percent), for the moderator's page."""
    value = cache.get(progress_key(turn_id))
    return value if isinstance(value, dict) else None


def _report(turn_id: int, phase: str, percent: int) -> None:
    cache.set(progress_key(turn_id), {"phase": phase, "percent": percent}, PROGRESS_SECONDS)


def turn_resolve(*, turn_id: int) -> str:
    """Resolve the turn if it is still locked: "resolved", or "skipped" when it is not."""
    turn = Turn.objects.get(pk=turn_id)
    if turn.status != Status.LOCKED or turn.scenario is None:
        return "skipped"
    _report(turn_id, "resolving the turn", 10)
    result = adjudicate(turn.scenario)
    _report(turn_id, "writing the result", 70)
    with transaction.atomic():
        turn = Turn.objects.select_for_update().get(pk=turn_id)
        if turn.status != Status.LOCKED:
            return "skipped"
        write_result_rows(turn, result)
        transition(
            turn,
            user=None,
            action="resolve",
            result=result,
            resolved_at=timezone.now(),
            attempts=F("attempts") + 1,
        )
    _report(turn_id, "done", 100)
    return "resolved"


def write_result_rows(turn: Turn, result: dict[str, Any]) -> None:
    """Events, battles with their rounds, and ledger lines: six statements in all."""
    events = result["events"]
    insert_rows(
        TurnEvent,
        ["turn", "seq", "type", "data"],
        [(turn.pk, n, e["type"], e) for n, e in enumerate(events)],
    )
    battles = [e for e in events if e["type"] == "battle"]
    insert_rows(
        Battle,
        [
            "turn",
            "seq",
            "province",
            "step",
            "sides",
            "supporters",
            "attacking",
            "winner",
            "outcome",
            "captured",
            "sunk",
        ],
        [
            (
                turn.pk,
                n,
                b["province"],
                b["step"],
                b["sides"],
                b["supporters"],
                b["attacking"] or "",
                b["winner"] or "",
                b["outcome"],
                b["captured"],
                b["sunk"],
            )
            for n, b in enumerate(battles)
        ],
    )
    battle_id = dict(Battle.objects.filter(turn=turn).values_list("seq", "id"))
    insert_rows(
        BattleRound,
        [
            "battle",
            "number",
            "dice_a",
            "dice_b",
            "strength_a",
            "strength_b",
            "losses",
            "sunk",
            "retreat",
        ],
        [
            (
                battle_id[n],
                r["round"],
                r["dice"][0],
                r["dice"][1],
                r["strength"][0],
                r["strength"][1],
                r["losses"],
                r["sunk"],
                r.get("retreat"),
            )
            for n, b in enumerate(battles)
            for r in b["rounds"]
        ],
    )
    faction_id = dict(Faction.objects.filter(campaign_id=turn.campaign_id).values_list("key", "id"))
    insert_rows(
        LedgerLine,
        ["turn", "faction", "kind", "amount", "detail"],
        [
            (turn.pk, faction_id[e["faction"]], e["type"], e["amount"], e)
            for e in events
            if "amount" in e
        ],
    )
