"""The turn lifecycle (issue 3): draft → open → locked → (resolving) → resolved → published,
with failed, reopen, extend, retry and rollback. Every transition is a compare-and-set on the
turn's status (an UPDATE … WHERE status = the expected one), so two moderators, or a redelivered
task, cannot both move a turn; and every transition is written to the audit log with who and why.
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaign.models import ArchivedResult, Turn
from campaign.notifications import queue_bulletin
from campaign.resolution import turn_resolve_task
from campaign.rulesets import OpeningProblems, ruleset_of
from campaign.transitions import ACTIONS as ACTIONS  # the table of transitions, read here too
from campaign.transitions import PAST as PAST
from campaign.transitions import TransitionError, User, acting_user, audit, transition

Status = Turn.Status

# What the moderator reads when a locked turn's task could not be sent (stored as its error).
QUEUE_DOWN = (
    "The turn is locked, but the queue (Redis) is unavailable, so resolution has not started. "
    "It will be sent again automatically when the queue is back (the periodic check), "
    "or press 'Queue again'."
)

logger = logging.getLogger(__name__)


@transaction.atomic
def turn_open(turn: Turn, *, user: User, deadline: datetime | None = None) -> Turn:
    deadline = deadline or timezone.now() + timedelta(hours=turn.campaign.turn_hours)
    return transition(turn, user=user, action="open", deadline=deadline, opened_at=timezone.now())


class OpeningRefused(TransitionError):
    """The draft turn was not opened: its ruleset's check found the world's problems (R-72)."""

    def __init__(self, turn: Turn, problems: OpeningProblems) -> None:
        super().__init__(
            f"Nothing done: turn {turn.number} was not opened, {problems.message} "
            f"({problems.code})."
        )
        self.problems = problems


@transaction.atomic
def turn_open_checked(turn: Turn, *, user: User) -> Turn:
    """The moderator's *Open* of a draft turn (R-72): a world with problems is refused
    (OpeningRefused, nothing written), else the turn opens as `turn_open` opens it. The turn's
    row is held first, with the statement `turn_lock` holds it with (the world editor's edits
    hold it too), so no edit lands between the check and the opening. A turn that is not a
    draft is left to `turn_open`'s refusal (already open, or moved by someone else): the check
    says nothing about it."""
    Turn.objects.select_for_update().filter(pk=turn.pk).values_list("status").first()
    if turn.status == Status.DRAFT:
        problems = ruleset_of(turn.campaign).opening_problems(turn)
        if problems is not None:
            raise OpeningRefused(turn, problems)
    return turn_open(turn, user=user)


@transaction.atomic
def turn_extend(turn: Turn, *, user: User, deadline: datetime, reason: str = "") -> Turn:
    if turn.status != Status.OPEN:
        raise TransitionError("Only an open turn's deadline can be moved.")
    if deadline <= timezone.now():
        raise TransitionError(
            f"Nothing done: the new deadline ({deadline:%Y-%m-%d %H:%M} UTC) has passed already."
        )
    if not reason.strip():
        raise TransitionError("Nothing done: say why the deadline moves (players will ask).")
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
    scenario = ruleset_of(turn.campaign).turn_document(turn, seed=seed)
    turn = transition(
        turn,
        user=user,
        action="lock",
        reason=reason,
        seed=seed,
        scenario=scenario,
        locked_at=timezone.now(),
        error="",
        attempts=0,
    )
    queue_resolution(turn)
    return turn


@transaction.atomic
def turn_reopen(turn: Turn, *, user: User, reason: str = "") -> Turn:
    """Back to open (orders can change again); the seed stays, so the dice do too."""
    return transition(turn, user=user, action="reopen", reason=reason, scenario=None)


@transaction.atomic
def turn_retry(turn: Turn, *, user: User, reason: str = "") -> Turn:
    turn = transition(turn, user=user, action="retry", reason=reason, error="", attempts=0)
    queue_resolution(turn)
    return turn


def turn_requeue(turn: Turn, *, user: User, reason: str = "") -> bool:
    """'Queue again': send a locked turn's resolution once more (its task was lost, or the queue
    was down when it locked). Harmless if a task is already on its way: resolution happens once.
    Whether the queue took it."""
    if turn.status != Status.LOCKED:
        raise TransitionError(f"Only a locked turn is queued; this one is {turn.status}.")
    audit(turn, user=user, action="requeue", reason=reason)
    Turn.objects.filter(pk=turn.pk).update(locked_at=timezone.now())
    return send_resolution(turn.pk)


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
    ruleset_of(turn.campaign).state_apply(turn.campaign, result_state(turn))
    following = Turn.objects.create(campaign=turn.campaign, number=turn.number + 1)
    turn_open(following, user=user)
    queue_bulletin(turn)  # the webhook goes out after the commit
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
        # The world as it was when the turn locked.
        ruleset_of(turn.campaign).state_apply(turn.campaign, scenario)
        later.update(archived=True)
    ArchivedResult.objects.create(
        turn=turn, scenario=scenario, result=result, archived_by=acting_user(user), reason=reason
    )
    ruleset_of(turn.campaign).result_rows_delete(turn)
    return turn


def result_state(turn: Turn) -> dict[str, Any]:
    """The result's state (the world after the turn): from the turn if its result was read, else
    only that part of the stored result (not its events, most of its bytes)."""
    if "result" not in turn.get_deferred_fields():
        assert turn.result is not None  # a resolved turn always has one
        return turn.result["state"]  # type: ignore[no-any-return]
    state = Turn.objects.filter(pk=turn.pk).values_list("result__state", flat=True).get()
    assert isinstance(state, dict)
    return state


def queue_resolution(turn: Turn) -> None:
    """Send the turn to a worker once the current transaction commits."""
    turn_id = turn.pk
    transaction.on_commit(lambda: send_resolution(turn_id))


def send_resolution(turn_id: int) -> bool:
    """Give the turn's task to the queue now. The lock is already committed, so a queue that is
    down or stuck must neither hang the request nor undo the lock: the send gets a bounded
    connection (a few seconds at most, one retry) and, if it fails, the locked turn records
    QUEUE_DOWN for the dashboard; the periodic check (or 'Queue again') sends it later."""
    try:
        if turn_resolve_task.app.conf.task_always_eager:  # the embedded default: no broker
            turn_resolve_task.delay(turn_id)
        else:
            app = turn_resolve_task.app
            options = {**app.conf.broker_transport_options, **settings.QUEUE_SEND_TIMEOUTS}
            with app.connection_for_write(transport_options=options) as connection:
                turn_resolve_task.apply_async(
                    (turn_id,),
                    connection=connection,
                    retry=True,
                    retry_policy=settings.QUEUE_SEND_RETRY,
                )
    except Exception as error:  # kombu's OperationalError, a timeout, a refused connection …
        logger.warning("turn %s: resolution not queued: %r", turn_id, error)
        Turn.objects.filter(pk=turn_id, status=Status.LOCKED).update(
            error=f"{QUEUE_DOWN}\n\n(The queue said: {error})"
        )
        return False
    Turn.objects.filter(pk=turn_id, status=Status.LOCKED).exclude(error="").update(error="")
    return True
