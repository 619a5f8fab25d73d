"""Many campaigns, many workers (issue 5), small: five generated campaigns locked in one
transaction, so their five resolutions are queued on Redis at once, resolved by two worker
processes on the same broker and database. Each turn is resolved exactly once, with the result
the engine gives for its own scenario, and nothing of another campaign is touched.
(`python -m bench.scale_out` is the measured version: 20 campaigns, one worker against two.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
import redis
from django.db import connection, transaction

from battles.models import Battle
from bench.generate import Spec
from bench.service import generated_campaign
from campaign import lifecycle
from campaign.mapping import orders_document, world_document
from campaign.models import AuditEntry, LedgerLine, Turn
from config.celery import app
from engine import adjudicate
from fleets.models import Fleet, Ship

pytestmark = [pytest.mark.queue, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BROKER = os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
ROOT = Path(__file__).resolve().parents[2]
CAMPAIGNS = 5
SUCCEEDED = re.compile(r"turn_resolve_task\[[^\]]+\] succeeded in [0-9.]+s: '(\w+)'")


@pytest.fixture
def broker() -> Iterator[str]:
    """The Celery app sending to a real, empty Redis database instead of running eagerly."""
    redis.Redis.from_url(BROKER).flushdb()
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}
    app.conf.update(broker_url=BROKER, task_always_eager=False)
    app._pool = app.amqp._producer_pool = None  # the next message uses this broker_url
    yield BROKER
    app.conf.update(saved)
    app._pool = app.amqp._producer_pool = None
    redis.Redis.from_url(BROKER).flushdb()


def canonical(document: Any) -> str:
    return json.dumps(document, sort_keys=True)


def database_url() -> str:
    """The test database, for the worker processes."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user, host, port = settings["USER"], settings["HOST"] or "127.0.0.1", settings["PORT"] or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


def start_worker(name: str, log: IO[bytes], broker_url: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "DATABASE_URL": database_url(), "CELERY_BROKER_URL": broker_url}
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"]
    return subprocess.Popen(
        [*command, "-n", f"{name}@%h"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def test_two_workers_resolve_many_campaigns_each_exactly_once(broker, tmp_path) -> None:
    campaigns = [
        generated_campaign(
            Spec(fleets=40, sea=30, land=6, factions=5, seed=k), f"many-{k}", orders=True
        )
        for k in range(CAMPAIGNS)
    ]
    turns = [Turn.objects.get(campaign=c, number=1) for c in campaigns]
    expected = {
        t.pk: canonical(
            adjudicate({**world_document(t.campaign), "seed": t.seed, "orders": orders_document(t)})
        )
        for t in turns
    }
    assert len(set(expected.values())) == CAMPAIGNS  # five different turns
    fleets_before = sorted(Fleet.objects.values_list("campaign_id", "key", "province_id"))
    ships_before = sorted(Ship.objects.values_list("campaign_id", "key", "health"))

    logs = [(tmp_path / f"worker{i}.log").open("wb") for i in (1, 2)]
    workers = [start_worker(f"many{i}", log, broker) for i, log in enumerate(logs, 1)]
    try:
        deadline = time.monotonic() + 60
        while len(app.control.ping(timeout=0.5) or []) < 2:  # both ready before the locks
            assert time.monotonic() < deadline, "the workers did not start"
            assert all(w.poll() is None for w in workers), "a worker exited"
        with transaction.atomic():  # every resolution is queued when this commits
            for turn in turns:
                lifecycle.turn_lock(turn, user=None)
        deadline = time.monotonic() + 60
        while Turn.objects.filter(pk__in=expected, status=Turn.Status.RESOLVED).count() < CAMPAIGNS:
            assert time.monotonic() < deadline, "the turns were not all resolved"
            time.sleep(0.1)
        time.sleep(0.5)  # a duplicate delivery, if any, would run now
    finally:
        for w in workers:
            stop(w)
        for log in logs:
            log.close()

    for turn in Turn.objects.filter(pk__in=expected):
        assert canonical(turn.result) == expected[turn.pk]  # its own scenario's result
        assert AuditEntry.objects.filter(turn=turn, action="resolve").count() == 1
        assert turn.attempts == 1
        events = turn.result["events"]
        assert Battle.objects.filter(turn=turn).count() == sum(
            e["type"] == "battle" for e in events
        )
        assert LedgerLine.objects.filter(turn=turn).count() == sum("amount" in e for e in events)
    # Each task ran once, and resolved its turn (none skipped as already done).
    outcomes = [
        o for i in (1, 2) for o in SUCCEEDED.findall((tmp_path / f"worker{i}.log").read_text())
    ]
    assert sorted(outcomes) == ["resolved"] * CAMPAIGNS
    # Resolving writes no fleet or ship (publishing does): no campaign's world was touched.
    assert sorted(Fleet.objects.values_list("campaign_id", "key", "province_id")) == fleets_before
    assert sorted(Ship.objects.values_list("campaign_id", "key", "health")) == ships_before
