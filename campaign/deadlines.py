"""What the periodic task does: deadlines and reminders (issue 3, "Deadlines", "Reminders").

Factions that sent no orders hold: a fleet without an order holds (naval.md X23), and the
moderator sees who is missing on the dashboard before locking.
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from campaign.lifecycle import QUEUE_DOWN, turn_lock, turn_requeue
from campaign.models import AuditEntry, Membership, Turn
from campaign.notifications import remind, tell_moderators
from campaign.rulesets import mail_footer_of, ruleset_of

STALLED = timedelta(minutes=15)  # far longer than any resolution takes (docs/benchmarks.md)


@shared_task(name="campaign.tasks.deadlines_task", acks_late=True)  # beat names it so
def deadlines_task() -> dict[str, int]:
    """Every few minutes (Celery beat): lock turns past their deadline (or tell the moderator),
    remind players who have not ordered, and queue again resolutions that never reached a
    worker."""
    return check_deadlines()


def check_deadlines() -> dict[str, int]:
    now = timezone.now()
    counts = {"locked": 0, "moderators_told": 0, "reminded": 0, "requeued": 0}
    # A turn locked long ago and still unresolved lost its task (say, Redis restarted with
    # nothing on disk), and one whose task could not be sent at all (the queue was down when it
    # locked: its error says so) never had one: queue them again. Resolution is idempotent, so a
    # late duplicate is harmless.
    lost = Q(locked_at__lt=now - STALLED) | Q(error__startswith=QUEUE_DOWN)
    for turn in Turn.objects.filter(lost, status=Turn.Status.LOCKED):
        requeue_resolution(turn)
        counts["requeued"] += 1
    due = Turn.objects.filter(status=Turn.Status.OPEN, archived=False, deadline__lte=now)
    for turn in due.select_related("campaign"):
        if turn.campaign.auto_resolve:
            turn_lock(turn, user=None, reason="the deadline passed")
            counts["locked"] += 1
        elif not AuditEntry.objects.filter(turn=turn, action="deadline_passed").exists():
            AuditEntry.objects.create(campaign=turn.campaign, turn=turn, action="deadline_passed")
            tell_moderators(
                _emails(turn, Q(role=Membership.Role.MODERATOR)),
                campaign=turn.campaign.name,
                number=turn.number,
            )
            counts["moderators_told"] += 1
    soon = Turn.objects.filter(
        status=Turn.Status.OPEN, archived=False, reminded_at__isnull=True, deadline__gt=now
    )
    for turn in soon.select_related("campaign"):
        assert turn.deadline is not None
        if turn.deadline - timedelta(hours=turn.campaign.reminder_hours) > now:
            continue
        missing = ruleset_of(turn.campaign).seats_waiting(turn)
        remind(
            _recipients(turn, Q(faction__in=missing)),
            campaign=turn.campaign.name,
            number=turn.number,
            deadline=f"{turn.deadline:%Y-%m-%d %H:%M} UTC",
        )
        Turn.objects.filter(pk=turn.pk).update(reminded_at=now)
        counts["reminded"] += len(missing)
    return counts


def _emails(turn: Turn, who: Q) -> list[str]:
    return sorted(
        e
        for e in Membership.objects.filter(who, campaign=turn.campaign).values_list(
            "user__email", flat=True
        )
        if e
    )


def _recipients(turn: Turn, who: Q) -> list[tuple[str, str]]:
    """Each member's address with the ruleset's footer for them (mail_footer_of)."""
    footer = mail_footer_of(turn.campaign)
    members = Membership.objects.filter(who, campaign=turn.campaign).select_related(
        "user", "campaign"
    )
    return sorted(
        (m.user.email, footer(m) if footer else "")
        for m in members.exclude(user__email="").order_by("pk")
    )


def requeue_resolution(turn: Turn) -> None:
    why = "the queue was unavailable" if turn.error else "locked for more than 15 minutes"
    turn_requeue(turn, user=None, reason=why)
