"""Resolution through a real Redis broker and real Celery workers (marked `queue`).

The in-thread worker sees the test database because these tests commit (transaction=True); the
killed-worker test starts worker processes on the same database file (SQLite) or database
(PostgreSQL) and kills one in the middle of writing a result.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.db import connection

from campaign import lifecycle
from campaign.campaign_files import read_campaign_file
from campaign.importing import campaign_import
from campaign.models import AuditEntry, Turn
from campaign.tasks import turn_resolve_task
from config.celery import app
from engine import adjudicate
from fleets.models import Order
from tests.conftest import skirmish_campaign_document

pytestmark = [pytest.mark.queue, pytest.mark.django_db(transaction=True)]

BROKER = os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
ROOT = Path(__file__).resolve().parents[2]
Status = Turn.Status


@pytest.fixture
def broker():
    """The Celery app sending to a real, empty Redis database instead of running eagerly."""
    redis.Redis.from_url(BROKER).flushdb()
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=BROKER, task_always_eager=False)
    reset_connections()
    yield BROKER
    app.conf.update(saved)
    reset_connections()
    redis.Redis.from_url(BROKER).flushdb()


def reset_connections() -> None:
    """Drop the app's broker connections so the next message uses the current broker_url."""
    app._pool = None
    app.amqp._producer_pool = None


def open_turn_with_orders(slug: str = "skirmish") -> Turn:
    campaign = campaign_import(read_campaign_file(skirmish_campaign_document(slug=slug)))
    turn = lifecycle.turn_open(campaign.current_turn, user=None)
    swedes = campaign.factions.get(key="swedes")
    Order.objects.create(
        turn=turn,
        faction=swedes,
        slot="fleet:s1",
        payload={"fleet": "s1", "type": "move", "path": ["oresund"]},
    )
    return turn


def wait_for(turn: Turn, status: str, seconds: float) -> Turn:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        turn.refresh_from_db()
        if turn.status == status:
            return turn
        time.sleep(0.2)
    raise AssertionError(f"turn still {turn.status} after {seconds} s (wanted {status})")


def test_a_real_worker_resolves_a_locked_turn(broker) -> None:
    turn = open_turn_with_orders()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        lifecycle.turn_lock(turn, user=None)  # queued through Redis after the commit
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert turn.result == adjudicate(turn.scenario)
    assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1


def test_the_same_task_delivered_twice_resolves_once(broker) -> None:
    turn = open_turn_with_orders()
    lifecycle.turn_lock(turn, user=None)  # queued once by the lock…
    turn_resolve_task.delay(turn.pk)  # …and again, as a redelivery or a second click would
    turn_resolve_task.delay(turn.pk)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        turn = wait_for(turn, Status.RESOLVED, 30)
        time.sleep(1.0)  # let the duplicates run
    assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1
    assert turn.battles.count() == sum(e["type"] == "battle" for e in turn.result["events"])
    assert turn.attempts == 1


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, host, port = settings["USER"], settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


WORKER = [
    "-m",
    "celery",
    "-A",
    "config",
    "worker",
    "--pool=solo",
    "--loglevel=WARNING",
    "--without-gossip",
    "--without-mingle",
    "--without-heartbeat",
]
PAUSED_WORKER = [str(ROOT / "tests" / "campaign" / "paused_worker.py")]


def worker_process(args: list[str], **env: str) -> subprocess.Popen[bytes]:
    """A worker process on the test's database and broker; a lost task comes back after 4 s."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": BROKER,
        "CELERY_VISIBILITY_TIMEOUT": "4",
        "CELERY_UNACKED_RESTORE_INTERVAL": "1",
        **env,
    }
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()


def test_a_worker_killed_while_writing_leaves_the_turn_locked(broker, tmp_path) -> None:
    turn = open_turn_with_orders()
    marker = tmp_path / "paused"
    first = worker_process(PAUSED_WORKER, PAUSE_MARKER=str(marker))
    try:
        lifecycle.turn_lock(turn, user=None)
        deadline = time.monotonic() + 60
        while not marker.exists():
            assert time.monotonic() < deadline, "the paused worker never took the task"
            assert first.poll() is None, first.stderr.read().decode() if first.stderr else ""
            time.sleep(0.1)
        first.kill()  # SIGKILL in the middle of the writing transaction
        first.wait(10)
    finally:
        stop(first)
    turn.refresh_from_db()
    assert turn.status == Status.LOCKED  # exactly as before: nothing half-written
    assert (turn.result, turn.ledger.count(), turn.battles.count()) == (None, 0, 0)
    # Redis gives the task, never acknowledged (acks_late), to the next worker: same result.
    second = worker_process(WORKER)
    try:
        turn = wait_for(turn, Status.RESOLVED, 90)
    finally:
        stop(second)
    assert turn.result == adjudicate(turn.scenario)
    assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1


def test_turns_of_the_bundled_campaign_with_a_real_worker(broker) -> None:
    from tests.campaign.test_campaign_run import baltic, play_turn

    campaign = baltic()

    def resolve_on_the_worker(turn: Turn) -> Turn:
        lifecycle.turn_lock(turn, user=None)  # committed: the task goes through Redis
        return wait_for(turn, Status.RESOLVED, 60)

    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        for number in (1, 2, 3):
            play_turn(campaign, number, resolve_on_the_worker)
    assert campaign.current_turn.number == 4
