"""Faults around a turn's resolution, produced for real (marked `queue`): two moderators pressing
the same button at the same moment (two requests on two database connections), the database
connection of a worker dropped by the server (PostgreSQL: pg_terminate_backend) or the database
file locked for longer than the timeout (SQLite), and Redis unreachable or stuck when the
moderator locks a turn. No mocks: real Redis, real workers, real sockets.
"""

from __future__ import annotations

import socket
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from campaign import lifecycle
from campaign.deadlines import check_deadlines
from campaign.models import ArchivedResult, AuditEntry, Membership, Turn
from campaign.resolution import turn_resolve
from tests.campaign.workers import (
    BROKER,
    Paused,
    assert_nothing_written,
    assert_resolved_as_the_engine_says,
    in_thread_worker,
    open_turn_with_orders,
    queue_drained,
    use_broker,
    wait_for,
)
from tests.concurrent import at_once

pytestmark = [pytest.mark.queue, pytest.mark.django_db(transaction=True)]

Status = Turn.Status
postgresql_only = pytest.mark.skipif(
    "connection.vendor != 'postgresql'",
    reason="SQLite has no server connection to drop; its file lock is tested instead",
)
sqlite_only = pytest.mark.skipif(
    "connection.vendor != 'sqlite'",
    reason="a database file locked by another process is SQLite's fault; PostgreSQL locks rows",
)


def queued() -> int:
    """Resolution tasks waiting in Redis."""
    return redis.Redis.from_url(BROKER).llen("celery")


def dashboard(campaign_id: int) -> str:
    return reverse("admin:campaign_dashboard", args=[campaign_id])


def action_url(campaign_id: int, action: str) -> str:
    return reverse("admin:campaign_turn_action", args=[campaign_id, action])


# Two moderators at once ---------------------------------------------------------------------


def moderators(turn: Turn, django_user_model) -> list[Any]:
    users = []
    for name in ("anna", "bert"):
        user = django_user_model.objects.create_user(name, f"{name}@example.org", "pw")
        user.is_staff = True
        user.save()
        Membership.objects.create(user=user, campaign=turn.campaign, role=Membership.Role.MODERATOR)
        users.append(user)
    return users


def turn_ready_for(action: str) -> Turn:
    """A turn in the state the action starts from; nothing waiting in the queue."""
    turn = open_turn_with_orders()
    if action != "lock":
        lifecycle.turn_lock(turn, user=None)
        if action == "retry":
            Turn.objects.filter(pk=turn.pk).update(status=Status.FAILED, error="a test failure")
        else:
            assert turn_resolve(turn_id=turn.pk) == "resolved"
        redis.Redis.from_url(BROKER).flushdb()
    turn.refresh_from_db()
    return turn


def assert_done_once(turn: Turn, action: str) -> None:
    assert AuditEntry.objects.filter(turn=turn, action=action).count() == 1
    if action in ("lock", "retry"):
        assert queued() == 1  # one resolution sent
    elif action == "publish":
        assert Turn.objects.filter(campaign=turn.campaign, number=2).count() == 1
    elif action == "rollback":
        assert ArchivedResult.objects.filter(turn=turn).count() == 1


@pytest.mark.parametrize("action", ["lock", "retry", "publish", "rollback"])
def test_two_moderators_pressing_the_same_button_at_once(broker, django_user_model, action) -> None:
    """Two requests through the dashboard at the same moment: one does it, the other is told
    plainly that it is already done (no error page), one audit entry, one resolution."""
    turn = turn_ready_for(action)
    clients = []
    for user in moderators(turn, django_user_model):
        client = Client()
        client.force_login(user)
        clients.append(client)
    press = [
        lambda c=c: c.post(
            action_url(turn.campaign_id, action),
            {"reason": "appeal", "turn": turn.pk},  # as the dashboard's form sends it
            follow=True,
        )
        for c in clients
    ]
    responses = at_once(*press)
    assert [r.status_code for r in responses] == [200, 200], responses
    pages = sorted(r.content.decode() for r in responses)
    done = f"Turn {turn.number}: {lifecycle.PAST[action]}."
    assert sum(done in page for page in pages) == 1
    assert sum("Nothing done" in page and "already" in page for page in pages) == 1
    assert_done_once(turn, action)


@pytest.mark.parametrize("action", ["lock", "retry", "publish", "rollback"])
def test_two_moderators_with_the_same_page_open_act_at_once(
    broker, django_user_model, action
) -> None:
    """Both read the turn before either acts (their pages were loaded together), so both get
    past the status check: the compare-and-set on the database lets one through."""
    turn = turn_ready_for(action)
    users = moderators(turn, django_user_model)
    seen = [Turn.objects.get(pk=turn.pk) for _ in users]
    service = getattr(lifecycle, f"turn_{action}")
    calls = [
        lambda t=t, u=u: service(t, user=u, reason="appeal")
        for t, u in zip(seen, users, strict=True)
    ]
    outcomes = at_once(*calls)
    refused = [o for o in outcomes if isinstance(o, lifecycle.TransitionError)]
    assert len(refused) == 1, outcomes
    assert sum(isinstance(o, Turn) for o in outcomes) == 1, outcomes
    status = lifecycle.ACTIONS[action][1]
    assert f"Nothing done: turn {turn.number} is already {status}" in str(refused[0])
    assert_done_once(turn, action)


# The database connection dropped (PostgreSQL) ------------------------------------------------


def terminate(backend: int) -> None:
    """The server ends the worker's session, as a restart or a network cut would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])
        assert cursor.fetchone() == (True,)


@postgresql_only
@pytest.mark.parametrize("moment", ["engine", "write"])
def test_the_database_connection_dropped_mid_resolution(broker, tmp_path, moment) -> None:
    """Dropped while the engine runs (before any write), or inside the writing transaction with
    the battle and ledger rows inserted: nothing is half-written, and the task's retry (a new
    connection) writes the identical result once."""
    turn = open_turn_with_orders()
    worker = Paused(tmp_path, moment)
    try:
        lifecycle.turn_lock(turn, user=None)
        scenario = Turn.objects.get(pk=turn.pk).scenario
        terminate(worker.wait()["backend"])
        assert_nothing_written(turn)  # the server rolled the transaction back
        worker.go_on()  # its next statement fails: OperationalError, retried in 1 s
        turn = wait_for(turn, Status.RESOLVED, 60)
    finally:
        worker.stop()
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.attempts == 2  # the dropped run and the retry


@postgresql_only
def test_the_database_dropping_every_time_fails_the_turn_and_retry_resolves_it(
    broker, tmp_path, django_user_model
) -> None:
    turn = open_turn_with_orders()
    worker = Paused(tmp_path, "write", PAUSE_EVERY="1", RESOLUTION_RETRIES="1")
    try:
        lifecycle.turn_lock(turn, user=None)
        scenario = Turn.objects.get(pk=turn.pk).scenario
        for _ in range(2):  # the first run and its one retry
            terminate(worker.wait()["backend"])
            worker.go_on()
        turn = wait_for(turn, Status.FAILED, 60)
    finally:
        worker.stop()
    assert "The database failed 2 times" in turn.error
    assert "nothing was written" in turn.error
    assert "Press Retry" in turn.error
    assert (turn.result, turn.ledger.count(), turn.battles.count()) == (None, 0, 0)
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    Membership.objects.create(user=moderator, campaign=turn.campaign, role="moderator")
    client = Client()
    client.force_login(moderator)
    page = client.get(dashboard(turn.campaign_id)).content.decode()
    assert "The database failed 2 times" in page
    assert ">Retry</button>" in page
    with in_thread_worker():
        client.post(action_url(turn.campaign_id, "retry"), {"reason": "database back"})
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert_resolved_as_the_engine_says(turn, scenario)


# The database file locked (SQLite) -------------------------------------------------------------


@contextmanager
def file_locked() -> Iterator[sqlite3.Connection]:
    """Another process's write transaction on the database file (a backup, a long admin edit)."""
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield other
    finally:
        other.execute("ROLLBACK")
        other.close()


@sqlite_only
def test_the_database_file_locked_for_a_while_delays_the_result(broker, tmp_path) -> None:
    """Locked for longer than the worker's timeout (1 s here) when it comes to write: the
    attempt fails with nothing written, and a retry, once the lock is gone, writes it."""
    turn = open_turn_with_orders()
    worker = Paused(
        tmp_path, "engine", SQLITE_TIMEOUT="1", RESOLUTION_RETRIES="3", WORKER_LOGLEVEL="INFO"
    )
    try:
        lifecycle.turn_lock(turn, user=None)
        scenario = Turn.objects.get(pk=turn.pk).scenario
        worker.wait()
        with file_locked():
            worker.go_on()
            worker.wait_for_log("database is locked")  # the write waited 1 s and failed
            worker.wait_for_log("retry: Retry in")
            assert_nothing_written(turn)
        turn = wait_for(turn, Status.RESOLVED, 60)
    finally:
        worker.stop()
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.attempts >= 2  # at least one attempt failed on the lock first


@sqlite_only
def test_the_database_file_locked_past_every_retry_leaves_the_turn_locked(broker, tmp_path) -> None:
    """Locked through every retry: the turn cannot be marked failed either (that is a write
    too), so it stays locked, consistent, and the periodic check sends it again later."""
    turn = open_turn_with_orders()
    worker = Paused(tmp_path, "engine", SQLITE_TIMEOUT="1", RESOLUTION_RETRIES="1")
    try:
        lifecycle.turn_lock(turn, user=None)
        scenario = Turn.objects.get(pk=turn.pk).scenario
        worker.wait()
        with file_locked():
            worker.go_on()
            queue_drained(60)  # the task gave up
            assert_nothing_written(turn)
        # Fifteen minutes later, the periodic check: the task is sent again and resolves it.
        Turn.objects.filter(pk=turn.pk).update(locked_at=timezone.now() - timedelta(minutes=16))
        assert check_deadlines()["requeued"] == 1
        turn = wait_for(turn, Status.RESOLVED, 60)
    finally:
        worker.stop()
    assert_resolved_as_the_engine_says(turn, scenario)


# Redis unavailable when the moderator locks ----------------------------------------------------

CLOSED_PORT = "redis://127.0.0.1:1/0"  # nothing listens there: connections are refused


@contextmanager
def silent_redis() -> Iterator[str]:
    """A Redis address that accepts connections and never answers (a stuck or overloaded
    server, a half-open network path): a plain `delay()` would wait for ever."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)  # never accepted: the kernel completes the handshake, nobody replies
    try:
        yield f"redis://127.0.0.1:{server.getsockname()[1]}/0"
    finally:
        server.close()


def test_redis_down_when_the_moderator_locks_from_the_dashboard(
    broker, django_user_model, settings
) -> None:
    turn = open_turn_with_orders()
    moderator = django_user_model.objects.create_user("mod", is_staff=True)
    Membership.objects.create(user=moderator, campaign=turn.campaign, role="moderator")
    client = Client()
    client.force_login(moderator)
    use_broker(CLOSED_PORT)
    caches = settings.CACHES
    settings.CACHES = {  # the progress cache is that Redis too
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CLOSED_PORT,
            "OPTIONS": {"socket_connect_timeout": 2, "socket_timeout": 2},
        }
    }
    started = time.monotonic()
    response = client.post(action_url(turn.campaign_id, "lock"), {"reason": "deadline"})
    assert time.monotonic() - started < 5
    assert response.status_code == 302
    page = client.get(dashboard(turn.campaign_id))
    assert page.status_code == 200
    text = page.content.decode()
    assert "the queue (Redis) is unavailable, so resolution has not started" in text
    assert ">Queue again</button>" in text
    turn.refresh_from_db()
    assert turn.status == Status.LOCKED  # the lock stands: world, orders and seed stored
    assert turn.seed is not None
    assert turn.scenario["orders"]
    assert turn.error.startswith(lifecycle.QUEUE_DOWN)
    scenario = turn.scenario
    # Still down: 'Queue again' says so, and is audited.
    response = client.post(action_url(turn.campaign_id, "requeue"), follow=True)
    assert response.status_code == 200
    assert "the queue (Redis) is unavailable" in response.content.decode()
    # The queue is back: 'Queue again' sends it, a worker resolves it to the same result.
    use_broker(BROKER)
    settings.CACHES = caches
    with in_thread_worker():
        response = client.post(action_url(turn.campaign_id, "requeue"), {"reason": "Redis up"})
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.error == ""
    requeues = AuditEntry.objects.filter(turn=turn, action="requeue")
    assert [(e.user, e.reason) for e in requeues.order_by("id")] == [
        (moderator, ""),
        (moderator, "Redis up"),
    ]


def test_a_stuck_redis_does_not_hang_the_lock_and_the_periodic_check_recovers(broker) -> None:
    turn = open_turn_with_orders()
    with silent_redis() as address:
        use_broker(address)
        started = time.monotonic()
        lifecycle.turn_lock(turn, user=None, reason="the deadline passed")
        took = time.monotonic() - started
    assert took < 6, took  # a bounded send (2 s socket timeouts, one retry), not a hang
    turn.refresh_from_db()
    assert turn.status == Status.LOCKED
    assert turn.error.startswith(lifecycle.QUEUE_DOWN)
    scenario = turn.scenario
    use_broker(BROKER)
    with in_thread_worker():
        counts = check_deadlines()  # the periodic check, once the queue is back
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert counts["requeued"] == 1
    assert_resolved_as_the_engine_says(turn, scenario)
    entry = AuditEntry.objects.get(turn=turn, action="requeue")
    assert (entry.user, entry.reason) == (None, "the queue was unavailable")
