"""The turn lifecycle (issue 3): draft → open → locked → (resolving) → resolved → published,
with failed, reopen, extend, retry and rollback. Every transition is a compare-and-set on the
turn's status (an UPDATE … WHERE status = the expected one), so two moderators, or a redelivered
task, cannot both move a turn; and every transition is written to the audit log with who and why.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone

from campaign.mapping import apply_state, orders_document, world_document
from campaign.models import ArchivedResult, AuditEntry, Turn

Status = Turn.Status
User = AbstractBaseUser | AnonymousUser | None

# Each action: the statuses it may start from, and where it takes the turn.
ACTIONS: dict[str, tuple[frozenset[str], str]] = {
    "open": (frozenset({Status.DRAFT}), Status.OPEN),
    "lock": (frozenset({Status.OPEN}), Status.LOCKED),
    "reopen": (frozenset({Status.LOCKED, Status.FAILED}), Status.OPEN),
    "resolve": (frozenset({Status.LOCKED}), Status.RESOLVED),  # the worker
    "fail": (frozenset({Status.LOCKED}), Status.FAILED),  # the worker
    "retry": (frozenset({Status.FAILED}), Status.LOCKED),
    "publish": (frozenset({Status.RESOLVED}), Status.PUBLISHED),
    "rollback": (frozenset({Status.RESOLVED, Status.PUBLISHED}), Status.OPEN),
}
PAST = {
    "open": "opened",
    "lock": "locked",
    "reopen": "reopened",
    "resolve": "resolved",
    "fail": "marked failed",
    "retry": "retried",
    "publish": "published",
    "rollback": "rolled back",
}


class TransitionError(Exception):
    """A transition that is not allowed now, with a message for the moderator."""


def can(turn: Turn, action: str) -> bool:
    """Whether the action is allowed from the turn's status (the dashboard offers these)."""
    return turn.status in ACTIONS[action][0]


def audit(turn: Turn, *, user: User, action: str, reason: str = "", **detail: Any) -> None:
    AuditEntry.objects.create(
        campaign_id=turn.campaign_id,
        turn=turn,
        user=_real(user),
        action=action,
        reason=reason,
        detail=detail,
    )


def transition(turn: Turn, *, action: str, user: User, reason: str = "", **fields: Any) -> Turn:
    """Carry out the action if the turn's status allows it and nobody moved the turn first
    (compare-and-set: UPDATE … WHERE status = the status we saw); write the audit entry."""
    starts, to = ACTIONS[action]
    if turn.status not in starts:
        raise TransitionError(f"A {turn.status} turn cannot be {PAST[action]}.")
    moved = Turn.objects.filter(pk=turn.pk, status=turn.status).update(status=to, **fields)
    if moved != 1:
        raise TransitionError("The turn was changed by someone else a moment ago; reload.")
    audit(turn, user=user, action=action, reason=reason, **{"from": turn.status, "to": to})
    # The instance follows what was written; only computed values (F expressions) are read back,
    # so a turn's large scenario and result are not loaded again.
    computed = [name for name, value in fields.items() if hasattr(value, "resolve_expression")]
    for name, value in fields.items():
        if name not in computed:
            setattr(turn, name, value)
    turn.status = to
    if computed:
        turn.refresh_from_db(fields=computed)
    return turn


@transaction.atomic
def turn_open(turn: Turn, *, user: User, deadline: datetime | None = None) -> Turn:
    deadline = deadline or timezone.now() + timedelta(hours=turn.campaign.turn_hours)
    return transition(turn, user=user, action="open", deadline=deadline, opened_at=timezone.now())


@transaction.atomic
def turn_extend(turn: Turn, *, user: User, deadline: datetime, reason: str = "") -> Turn:
    if turn.status != Status.OPEN:
        raise TransitionError("Only an open turn's deadline can be moved.")
    old = turn.deadline
    Turn.objects.filter(pk=turn.pk).update(deadline=deadline, reminded_at=None)
    audit(
        turn,
        user=user,
        action="extend",
        reason=reason,
        old=old.isoformat() if old else None,
        new=deadline.isoformat(),
    )
    turn.refresh_from_db()
    return turn


@transaction.atomic
def turn_lock(turn: Turn, *, user: User, reason: str = "") -> Turn:
    """No more orders: the world and the orders as they stand and the seed (T2) are stored with
    the turn, then its resolution is queued (after the commit). The turn's row is locked first,
    so an order being given now is either in before the orders are read or refused after
    (`fleets.services.order_submit` holds the row while it writes)."""
    Turn.objects.select_for_update().filter(pk=turn.pk).values_list("status").first()
    seed = turn.seed if turn.seed is not None else secrets.randbits(31)
    scenario = {**world_document(turn.campaign), "seed": seed, "orders": orders_document(turn)}
    turn = transition(
        turn,
        user=user,
        action="lock",
        reason=reason,
        seed=seed,
        scenario=scenario,
        locked_at=timezone.now(),
        error="",
    )
    queue_resolution(turn)
    return turn


@transaction.atomic
def turn_reopen(turn: Turn, *, user: User, reason: str = "") -> Turn:
    """Back to open (orders can change again); the seed stays, so the dice do too."""
    return transition(turn, user=user, action="reopen", reason=reason, scenario=None)


@transaction.atomic
def turn_retry(turn: Turn, *, user: User, reason: str = "") -> Turn:
    turn = transition(turn, user=user, action="retry", reason=reason, error="")
    queue_resolution(turn)
    return turn


def turn_fail(turn_id: int, *, error: str) -> None:
    """The worker gave up: the moderator sees the error and a retry button."""
    with transaction.atomic():
        turn = Turn.objects.get(pk=turn_id)
        if turn.status == Status.LOCKED:
            transition(turn, user=None, action="fail", error=error[:4000])


@transaction.atomic
def turn_publish(turn: Turn, *, user: User, reason: str = "") -> Turn:
    """Players see the result; the world takes the result's state; the next turn opens."""
    turn = transition(
        turn,
        user=user,
        action="publish",
        reason=reason,
        published_at=timezone.now(),
    )
    assert turn.result is not None  # a resolved turn always has one
    apply_state(turn.campaign, turn.result["state"])
    following = Turn.objects.create(campaign=turn.campaign, number=turn.number + 1)
    turn_open(following, user=user)
    from campaign.notifications import queue_bulletin  # the webhook goes out after the commit

    queue_bulletin(turn)
    return turn


@transaction.atomic
def turn_rollback(turn: Turn, *, user: User, reason: str) -> Turn:
    """The appeals window: the result is archived (never deleted), a published turn's world is
    restored as it was when the turn locked, a later turn not yet resolved is cancelled, and the
    turn is open again with its seed, for corrected orders and the same dice."""
    if not reason.strip():
        raise TransitionError("Say why the turn is rolled back; players will ask.")
    later = Turn.objects.filter(campaign=turn.campaign, number__gt=turn.number, archived=False)
    if later.exclude(status__in=[Status.DRAFT, Status.OPEN, Status.LOCKED]).exists():
        raise TransitionError("A later turn is already resolved: roll that one back first.")
    was_published, scenario, result = turn.status == Status.PUBLISHED, turn.scenario, turn.result
    turn = transition(
        turn,
        action="rollback",
        user=user,
        reason=reason,
        result=None,
        scenario=None,
        resolved_at=None,
        published_at=None,
    )
    if was_published:
        assert scenario is not None
        apply_state(turn.campaign, scenario)  # the world as it was when the turn locked
        later.update(archived=True)
    ArchivedResult.objects.create(
        turn=turn, scenario=scenario, result=result, archived_by=_real(user), reason=reason
    )
    turn.ledger.all().delete()
    turn.battles.all().delete()
    return turn


def queue_resolution(turn: Turn) -> None:
    """Send the turn to a worker once the current transaction commits."""
    from campaign.tasks import turn_resolve_task

    turn_id = turn.pk
    transaction.on_commit(lambda: turn_resolve_task.delay(turn_id))


def _real(user: User) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None
