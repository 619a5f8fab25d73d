"""Resolution through a real Redis broker and real Celery workers (marked `queue`).

The in-thread worker sees the test database because these tests commit (transaction=True); the
crash tests start worker processes on the same database file (SQLite) or database (PostgreSQL),
pause them at a chosen moment (paused_worker.py) and kill them there with SIGKILL, or let two of
them race for the same turn.
"""

from __future__ import annotations

import time

import pytest

from campaign import lifecycle
from campaign.models import AuditEntry, Turn
from campaign.tasks import turn_resolve_task
from tests.campaign.workers import (
    WORKER,
    Paused,
    assert_nothing_written,
    assert_resolved_as_the_engine_says,
    in_thread_worker,
    open_turn_with_orders,
    queue_drained,
    stop,
    wait_for,
    worker_process,
)

pytestmark = [pytest.mark.queue, pytest.mark.django_db(transaction=True)]

Status = Turn.Status


def test_a_real_worker_resolves_a_locked_turn(broker) -> None:
    turn = open_turn_with_orders()
    with in_thread_worker():
        lifecycle.turn_lock(turn, user=None)  # queued through Redis after the commit
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert_resolved_as_the_engine_says(turn, turn.scenario)
    assert turn.attempts == 1


def test_the_same_task_delivered_twice_resolves_once(broker) -> None:
    turn = open_turn_with_orders()
    lifecycle.turn_lock(turn, user=None)  # queued once by the lock…
    turn_resolve_task.delay(turn.pk)  # …and again, as a redelivery or a second click would
    turn_resolve_task.delay(turn.pk)
    with in_thread_worker():
        turn = wait_for(turn, Status.RESOLVED, 30)
        queue_drained()  # the duplicates ran too
    assert_resolved_as_the_engine_says(turn, turn.scenario)
    assert turn.attempts == 1  # the duplicates found it resolved before starting


def test_two_deliveries_racing_on_two_workers_resolve_once(broker, tmp_path) -> None:
    """Both copies are computed at the same time, on two workers, and reach the writing
    transaction together: the claim lets exactly one write."""
    turn = open_turn_with_orders()
    workers = [Paused(tmp_path, "claim", name=f"w{n}") for n in (1, 2)]
    try:
        lifecycle.turn_lock(turn, user=None)
        turn_resolve_task.delay(turn.pk)  # the duplicate
        for worker in workers:
            assert worker.wait()["turn"] == turn.pk  # each has the result, before writing
        scenario = Turn.objects.get(pk=turn.pk).scenario
        assert_nothing_written(turn)
        for worker in workers:
            worker.go_on()  # both claim at once
        turn = wait_for(turn, Status.RESOLVED, 30)
        queue_drained()
    finally:
        for worker in workers:
            worker.stop()
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.attempts == 2  # both really ran


@pytest.mark.parametrize("moment", ["engine", "write"])
def test_a_worker_killed_mid_resolution_leaves_the_turn_locked(broker, tmp_path, moment) -> None:
    """SIGKILL during the engine's run, or inside the writing transaction once the battle and
    ledger rows are inserted: the turn is exactly as locked; the unacknowledged task goes to the
    next worker, which writes the identical result once."""
    turn = open_turn_with_orders()
    first = Paused(tmp_path, moment)
    try:
        lifecycle.turn_lock(turn, user=None)
        scenario = Turn.objects.get(pk=turn.pk).scenario
        assert first.wait()["turn"] == turn.pk
        first.kill()
    finally:
        first.stop()
    assert_nothing_written(turn)
    assert turn.attempts == 1  # the killed run had started
    second = worker_process(WORKER)  # Redis gives it the never-acknowledged task
    try:
        turn = wait_for(turn, Status.RESOLVED, 90)
    finally:
        stop(second)
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.attempts == 2


def test_a_turn_whose_worker_dies_every_time_ends_failed(broker, tmp_path) -> None:
    """reject_on_worker_lost delivers a killed worker's task again, for ever if the turn kills
    every worker (out of memory, say): the starts are counted, and past RESOLUTION_STARTS (2
    here) the turn is failed with a message; Retry starts the count again."""
    turn = open_turn_with_orders()
    lifecycle.turn_lock(turn, user=None)
    scenario = Turn.objects.get(pk=turn.pk).scenario
    for n in (1, 2):
        worker = Paused(tmp_path, "engine", name=f"dies{n}", RESOLUTION_STARTS="2")
        try:
            assert worker.wait(90)["turn"] == turn.pk
            worker.kill()
        finally:
            worker.stop()
    third = worker_process(WORKER, RESOLUTION_STARTS="2")
    try:
        turn = wait_for(turn, Status.FAILED, 90)
    finally:
        stop(third)
    assert "started 2 times and never finished" in turn.error
    assert (turn.result, turn.battles.count(), turn.ledger.count()) == (None, 0, 0)
    with in_thread_worker():
        lifecycle.turn_retry(turn, user=None, reason="more memory for the worker")
        turn = wait_for(turn, Status.RESOLVED, 30)
    assert_resolved_as_the_engine_says(turn, scenario)
    assert turn.attempts == 1


def test_a_task_for_a_turn_that_is_gone_ends(broker) -> None:
    """A wrong id, or a turn deleted after its task was sent: the task ends, it is not retried or
    delivered again."""
    turn = open_turn_with_orders()
    lifecycle.turn_lock(turn, user=None)
    Turn.objects.filter(pk=turn.pk).delete()
    turn_resolve_task.delay(10**9)
    with in_thread_worker():
        queue_drained()
        time.sleep(0.5)
        queue_drained()  # and nothing came back (no retry, no redelivery)


def test_turns_of_the_bundled_campaign_with_a_real_worker(broker) -> None:
    from tests.campaign.test_campaign_run import baltic, play_turn

    campaign = baltic()

    def resolve_on_the_worker(turn: Turn) -> Turn:
        lifecycle.turn_lock(turn, user=None)  # committed: the task goes through Redis
        return wait_for(turn, Status.RESOLVED, 60)

    with in_thread_worker():
        for number in (1, 2, 3):
            play_turn(campaign, number, resolve_on_the_worker)
    assert campaign.current_turn.number == 4
    assert AuditEntry.objects.filter(campaign=campaign, action="resolve").count() == 3
