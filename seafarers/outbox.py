"""What the worker owes a seafaring game after a change, kept in the database until done
(issue 14: "Redis down when an action is sent: the action stands; the notification goes later").

A change (an action, an undo, a start …) writes an Outbox row per task it owes — the bot's turn,
the players' news — in its own transaction, and sends the rows' tasks after the commit with a
bounded connection (as the naval lock does, campaign/lifecycle.send_resolution): a Redis that
refuses or never answers costs the sender a few seconds at most, never the action. A row whose
send failed stays; the periodic sweep (`outbox_sweep`, Celery beat) sends it again once Redis is
back, as it does a row queued so long ago that Redis must have lost its task.

The task (`outbox_task`) deletes its row when done, so a second delivery of it (acks_late: the
worker killed after the work, before the acknowledgement) finds no row and does nothing. A bot
row plays from the log's length when it runs (a worker killed mid-turn left part of the turn
committed); each action still goes once (the row lock and the expected index, G1). The news
records each item as it goes, so a worker killed between two items sends only the rest when
the task comes back. What remains is at least once: an item sent just before the kill, not yet
recorded, goes again.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import Q
from django.utils import timezone

from seafarers.models import Game, Outbox
from seafarers.notifications import news_send

log = logging.getLogger(__name__)
Owed = tuple[str, dict[str, Any], int]  # kind, payload, countdown (seconds)
GRACE = timedelta(seconds=30)  # a younger unsent row may still be in its change's send
STALLED = timedelta(minutes=15)  # queued this long ago and not done: its task was lost


class DatabaseUnavailable(Exception):
    """The work met a dropped or locked database: the task is retried (a new connection)."""


# services.bot_play, given here by services.py when it is imported (it imports this module, so
# this one may not import it back: no cycle inside the app). The worker imports services
# through seafarers.tasks, so it is always there when a task runs.
_BOT_PLAY: list[Callable[..., int]] = []


def plays_bots_with(play: Callable[..., int]) -> None:
    _BOT_PLAY[:] = [play]


def owe(game_id: int, owed: list[Owed]) -> None:
    """Rows for these tasks in the current transaction; their tasks sent after it commits, in
    order, stopping at the first send that fails (the sweep sends the rest later)."""
    rows = [
        (Outbox.objects.create(game_id=game_id, kind=kind, payload=payload).pk, countdown)
        for kind, payload, countdown in owed
    ]
    if rows:
        transaction.on_commit(lambda: _send_all(rows))


def _send_all(rows: list[tuple[int, int]]) -> None:
    for pk, countdown in rows:
        if not send(pk, countdown=countdown):
            return  # one bounded wait for a Redis that is down, not one per row


def send(pk: int, *, countdown: int = 0) -> bool:
    """The row's task given to the queue now, with a connection bounded to a few seconds
    (QUEUE_SEND_TIMEOUTS, one retry); False, and the row left for the sweep, if that fails."""
    try:
        if outbox_task.app.conf.task_always_eager:  # the embedded default: no broker
            outbox_task.apply((pk,))
            return True
        app = outbox_task.app
        options = {**app.conf.broker_transport_options, **settings.QUEUE_SEND_TIMEOUTS}
        with app.connection_for_write(transport_options=options) as connection:
            outbox_task.apply_async(
                (pk,),
                countdown=countdown or None,
                connection=connection,
                retry=True,
                retry_policy=settings.QUEUE_SEND_RETRY,
            )
    except Exception as error:  # kombu's OperationalError, a timeout, a refused connection …
        log.warning("seafaring outbox %s: not queued, the sweep will send it: %r", pk, error)
        return False
    Outbox.objects.filter(pk=pk).update(queued_at=timezone.now())
    return True


@shared_task(
    name="seafarers.tasks.outbox_task",
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError, DatabaseUnavailable),
    retry_backoff=1,
    max_retries=5,
)
def outbox_task(pk: int) -> None:
    """Do what the row owes, then delete it (its absence: done already)."""
    row = Outbox.objects.filter(pk=pk).first()
    if row is None:
        return  # a second delivery of a task already done
    if row.kind == Outbox.Kind.BOT:
        # From the log as it is now, not the index the row was owed at: the row still being
        # here means this turn's work is not done, and a worker killed between two of the
        # bot's actions left the first committed; the stale index would play nothing and the
        # game would wait for the bot for ever. Each action at its index still goes once: the
        # game's row lock and the expected index in action_submit (G1).
        game = Game.objects.filter(pk=row.game_id).only("log_length").first()
        if game is not None:
            _BOT_PLAY[0](game_id=game.pk, expected_index=game.log_length)
    else:
        items = list(row.payload["items"])

        def sent(count: int) -> None:  # recorded per item: a retry sends only the rest
            Outbox.objects.filter(pk=pk).update(payload={"items": items, "sent": count})

        news_send(row.game_id, items, sent=int(row.payload.get("sent", 0)), on_sent=sent)
    Outbox.objects.filter(pk=pk).delete()


def outbox_sweep(now: datetime | None = None) -> int:
    """Send again the rows whose task never reached Redis (older than GRACE) or was lost there
    (queued longer than STALLED ago): the rows sent."""
    now = now or timezone.now()
    lost = Q(queued_at__isnull=True, created_at__lt=now - GRACE) | Q(queued_at__lt=now - STALLED)
    pks = list(Outbox.objects.filter(lost).order_by("pk").values_list("pk", flat=True))
    done = 0
    for pk in pks:
        if not send(pk):
            break  # Redis is still down: the next sweep tries again
        done += 1
    return done


@shared_task(name="seafarers.tasks.outbox_sweep_task", acks_late=True)  # beat names it so
def outbox_sweep_task() -> int:
    return outbox_sweep()
