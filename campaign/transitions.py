"""The turn's transitions: which action may start from which status, the compare-and-set that
carries one out, and its audit entry. The lowest layer of the turn's life: the moderator's
actions (lifecycle.py) and the worker's outcome (resolution.py) both move a turn through here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from campaign.models import AuditEntry, Turn

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
        user=acting_user(user),
        action=action,
        reason=reason,
        detail=detail,
    )


def transition(turn: Turn, *, action: str, user: User, reason: str = "", **fields: Any) -> Turn:
    """Carry out the action if the turn's status allows it and nobody moved the turn first
    (compare-and-set: UPDATE … WHERE status = the status we saw); write the audit entry."""
    starts, to = ACTIONS[action]
    if turn.status not in starts:
        raise TransitionError(refusal(turn, action, turn.status))
    moved = Turn.objects.filter(pk=turn.pk, status=turn.status).update(status=to, **fields)
    if moved != 1:  # someone moved it since this turn was read: say where it is now
        now = Turn.objects.filter(pk=turn.pk).values_list("status", flat=True).first()
        raise TransitionError(refusal(turn, action, now or "deleted", raced=True))
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


def refusal(turn: Turn, action: str, status: str, *, raced: bool = False) -> str:
    """Why the action was not done, in the moderator's words. When the turn already is where the
    action would take it (a second click, a second moderator), say so and who did it."""
    to = ACTIONS[action][1]
    if status == to:
        done = (
            AuditEntry.objects.filter(turn_id=turn.pk, action=action)
            .select_related("user")
            .order_by("-id")
            .first()
        )
        who = (
            f" ({PAST[action]} by {done.user or 'the system'} at {done.created_at:%H:%M:%S} UTC)"
            if done
            else ""
        )
        return f"Nothing done: turn {turn.number} is already {to}{who}."
    if raced:
        return (
            f"Nothing done: turn {turn.number} was changed by someone else a moment ago "
            f"(it is now {status}); reload the page."
        )
    return f"A {status} turn cannot be {PAST[action]}."


def acting_user(user: User) -> Any:
    """The user to record: None for the system (a task, the deadline) and for anonymous."""
    return user if user is not None and getattr(user, "is_authenticated", False) else None
