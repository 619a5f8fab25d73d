"""Helpers for the tests with a real Redis and real Celery workers (test_queue.py,
test_faults.py): the broker, worker processes on the test's database, paused workers, waiting
for a turn, and a result compared byte for byte."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.db import connection, connections

from bench.service import WORKER_ARGS
from campaign import lifecycle
from campaign.models import Turn
from config.celery import app
from engine.naval import adjudicate
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import
from fleets.models import Order
from tests.conftest import skirmish_campaign_document

BROKER = os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
ROOT = Path(__file__).resolve().parents[2]
Status = Turn.Status


@pytest.fixture
def broker():
    """The Celery app sending to a real, empty Redis database instead of running eagerly."""
    redis.Redis.from_url(BROKER).flushdb()
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    use_broker(BROKER)
    yield BROKER
    app.conf.update(saved)
    reset_connections()
    redis.Redis.from_url(BROKER).flushdb()


def use_broker(url: str) -> None:
    """Send tasks to this broker (a real one, or an address where no Redis answers)."""
    app.conf.update(broker_url=url, task_always_eager=False)
    reset_connections()


def reset_connections() -> None:
    """Drop the app's broker connections so the next message uses the current broker_url."""
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def in_thread_worker() -> Iterator[Any]:
    """A worker in this process (a thread, solo pool) that closes its thread's database
    connections after every task, whatever CONN_MAX_AGE says, so that no session of the worker
    thread outlives the test and PostgreSQL's test database is dropped cleanly at the end."""

    def close(**_: Any) -> None:
        connections.close_all()

    task_postrun.connect(close, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
            yield w
    finally:
        task_postrun.disconnect(close)


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


def canonical(document: Any) -> bytes:
    """A JSON document as bytes with sorted keys (PostgreSQL's jsonb does not keep key order)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":")).encode()


def assert_resolved_as_the_engine_says(turn: Turn, scenario: dict[str, Any]) -> None:
    """The stored result is, byte for byte, the engine's on the scenario stored at the lock,
    written once: one resolve entry, a battle row per battle event, a ledger line per amount."""
    from campaign.models import AuditEntry

    turn.refresh_from_db()
    assert canonical(turn.scenario) == canonical(scenario)  # the lock's world, orders and seed
    expected = adjudicate(scenario)
    assert canonical(turn.result) == canonical(expected)
    assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1
    events = expected["events"]
    assert turn.battles.count() == sum(e["type"] == "battle" for e in events) > 0
    assert turn.ledger.count() == sum("amount" in e for e in events) > 0


def assert_nothing_written(turn: Turn) -> None:
    turn.refresh_from_db()
    assert turn.status == Status.LOCKED
    assert (turn.result, turn.resolved_at, turn.ledger.count(), turn.battles.count()) == (
        None,
        None,
        0,
        0,
    )


def database_url() -> str:
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, host, port = settings["USER"], settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


WORKER = WORKER_ARGS  # the worker the benches start, with its options
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
    # Its log goes to a file: a pipe nobody reads would block a worker that logs a lot.
    log = tempfile.TemporaryFile()  # noqa: SIM115 (closed by stop())
    process = subprocess.Popen(
        [sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log
    )
    process.log = log  # type: ignore[attr-defined]
    return process


def log_of(process: subprocess.Popen[bytes]) -> str:
    process.log.seek(0)  # type: ignore[attr-defined]
    return process.log.read().decode(errors="replace")  # type: ignore[attr-defined]


class Paused:
    """A paused worker process (paused_worker.py) and its marker: wait for the pause, read where
    it is, let it go on, or kill it there."""

    def __init__(self, folder: Path, at: str, name: str = "paused", **env: str) -> None:
        self.marker = folder / name
        self.process = worker_process(
            PAUSED_WORKER, PAUSE_AT=at, PAUSE_MARKER=str(self.marker), **env
        )

    def wait(self, seconds: float = 60) -> dict[str, Any]:
        """Until the worker pauses: what it wrote (turn, pid, backend); the marker is consumed."""
        deadline = time.monotonic() + seconds
        while not self.marker.exists():
            assert time.monotonic() < deadline, "the paused worker never paused"
            assert self.process.poll() is None, self.errors()
            time.sleep(0.05)
        paused = json.loads(self.marker.read_text())
        self.marker.unlink()
        return paused

    def go_on(self) -> None:
        Path(f"{self.marker}.go").touch()

    def kill(self) -> None:
        self.process.kill()  # SIGKILL: no cleanup, no acknowledgement, no rollback sent
        self.process.wait(10)

    def errors(self) -> str:
        return log_of(self.process)

    def wait_for_log(self, text: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.errors():
            assert time.monotonic() < deadline, f"never logged {text!r}: {self.errors()}"
            assert self.process.poll() is None, self.errors()
            time.sleep(0.1)

    def stop(self) -> None:
        stop(self.process)


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
    process.log.close()  # type: ignore[attr-defined]


def queue_drained(seconds: float = 30) -> None:
    """Until Redis holds no message, delivered-but-unacknowledged ones included."""
    client = redis.Redis.from_url(BROKER)
    deadline = time.monotonic() + seconds
    while client.llen("celery") or client.hlen("unacked"):
        assert time.monotonic() < deadline, "the queue never drained"
        time.sleep(0.2)
