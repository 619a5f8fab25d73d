"""Many campaigns, many workers (issue 5), small: five generated campaigns locked in one
transaction, so their five resolutions are queued on Redis at once, resolved by two worker
processes on the same broker and database. Each turn is resolved exactly once, with the result
the engine gives for its own scenario, and nothing of another campaign is touched.
(`python -m bench.scale_out` is the measured version: 20 campaigns, one worker against two.)
"""

from __future__ import annotations

import re
import time

import pytest
from django.db import transaction

from battles.models import Battle
from bench.generate import Spec
from bench.service import generated_campaign
from campaign import lifecycle
from campaign.models import AuditEntry, Turn
from config.celery import app
from engine.naval import adjudicate
from fleets.mapping import orders_document, world_document
from fleets.models import Fleet, LedgerLine, Ship
from tests.campaign.workers import WORKER, canonical, log_of, stop, worker_process

pytestmark = [pytest.mark.queue, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CAMPAIGNS = 5
SUCCEEDED = re.compile(r"turn_resolve_task\[[^\]]+\] succeeded in [0-9.]+s: '(\w+)'")


def test_two_workers_resolve_many_campaigns_each_exactly_once(broker) -> None:
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

    # INFO: each task's outcome is logged; no quick redelivery (these tasks are never lost).
    workers = [
        worker_process(
            [*WORKER, "--loglevel=INFO", "-n", f"many{i}@%h"], CELERY_VISIBILITY_TIMEOUT="3600"
        )
        for i in (1, 2)
    ]
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
        logs = [log_of(w) for w in workers]
    finally:
        for w in workers:
            stop(w)

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
    outcomes = [o for log in logs for o in SUCCEEDED.findall(log)]
    assert sorted(outcomes) == ["resolved"] * CAMPAIGNS
    # Resolving writes no fleet or ship (publishing does): no campaign's world was touched.
    assert sorted(Fleet.objects.values_list("campaign_id", "key", "province_id")) == fleets_before
    assert sorted(Ship.objects.values_list("campaign_id", "key", "health")) == ships_before
