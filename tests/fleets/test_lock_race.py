"""An order being written while the moderator locks the turn (found by bench/load.py's deadline
rush): the lock waits for it, and the locked turn holds it. Two threads, two connections, real
commits; on PostgreSQL the order holds the turn's row (FOR SHARE) and the lock waits for it (FOR
UPDATE); on SQLite the IMMEDIATE transactions take turns."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from campaign import lifecycle
from campaign.models import Turn
from fleets.models import Order
from fleets.services import order_submit

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_lock_waits_for_an_order_being_written(skirmish, monkeypatch) -> None:
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    danes = skirmish.factions.get(key="danes")
    written, release = threading.Event(), threading.Event()
    create = Order.objects.create

    def paused_create(**fields):  # type: ignore[no-untyped-def]
        row = create(**fields)
        written.set()  # the row is written, its transaction not yet committed
        release.wait(20)
        return row

    monkeypatch.setattr(Order.objects, "create", paused_create)
    outcome: dict[str, object] = {}

    def give() -> None:
        try:
            order = {"fleet": "d1", "type": "move", "path": ["kattegat"]}
            outcome["order"] = order_submit(turn=turn, faction=danes, order=order)
        finally:
            connection.close()

    def lock() -> None:
        try:
            lifecycle.turn_lock(Turn.objects.get(pk=turn.pk), user=None)
        finally:
            connection.close()

    giver = threading.Thread(target=give)
    giver.start()
    assert written.wait(20)
    locker = threading.Thread(target=lock)
    locker.start()
    time.sleep(0.5)
    assert locker.is_alive()  # waiting for the order's transaction
    release.set()
    giver.join(20)
    locker.join(20)
    assert isinstance(outcome["order"], Order)  # accepted…
    turn.refresh_from_db()
    assert turn.status != Turn.Status.OPEN  # locked (and, Celery being eager here, resolved)
    assert turn.scenario["orders"] == [{"fleet": "d1", "type": "move", "path": ["kattegat"]}]
