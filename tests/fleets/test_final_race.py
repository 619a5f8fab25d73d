"""The last two marks of "my orders are final" given together (docs/rulings.md R-90): the marks
of one turn are taken one at a time, the turn's row held as the moderator's Lock holds it, so
the second sees the first and the turn locks once. Two threads, two connections, real commits
(tests/fleets/test_lock_race.py's pattern): on PostgreSQL the second mark waits at FOR UPDATE,
on SQLite at its IMMEDIATE transaction's BEGIN."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from campaign import lifecycle
from campaign.models import AuditEntry, Membership, Turn
from fleets.final import EARLY_REASON, Marked, orders_final_mark
from fleets.models import FinalOrders, NavalSettings

pytestmark = pytest.mark.django_db(transaction=True)


def test_two_last_marks_together_lock_the_turn_once(
    skirmish, django_user_model, monkeypatch
) -> None:
    turn = lifecycle.turn_open(skirmish.current_turn, user=None)
    NavalSettings.objects.filter(campaign=skirmish).update(resolve_early=True)
    for key in ("danes", "swedes", "hanse"):
        user = django_user_model.objects.create_user(key, f"{key}@example.org", "pw")
        Membership.objects.create(
            user=user,
            campaign=skirmish,
            role=Membership.Role.PLAYER,
            faction=skirmish.factions.get(key=key),
        )
    assert orders_final_mark(turn=turn, faction=skirmish.factions.get(key="hanse")).locked is False

    written, release = threading.Event(), threading.Event()
    get_or_create = FinalOrders.objects.get_or_create

    def paused(**fields):  # type: ignore[no-untyped-def]
        row = get_or_create(**fields)
        if fields["faction"].key == "danes":
            written.set()  # the Danes' mark is being written, its transaction not committed
            release.wait(20)
        return row

    monkeypatch.setattr(FinalOrders.objects, "get_or_create", paused)
    outcome: dict[str, object] = {}

    def mark(key: str) -> None:
        try:
            faction = skirmish.factions.get(key=key)
            outcome[key] = orders_final_mark(turn=turn, faction=faction)
        finally:
            connection.close()

    danes = threading.Thread(target=mark, args=("danes",))
    danes.start()
    assert written.wait(20)
    swedes = threading.Thread(target=mark, args=("swedes",))
    swedes.start()
    time.sleep(0.5)
    assert swedes.is_alive()  # waiting for the Danes' mark
    release.set()
    danes.join(20)
    swedes.join(20)
    first, second = outcome["danes"], outcome["swedes"]
    assert isinstance(first, Marked)
    assert isinstance(second, Marked)
    assert (first.locked, second.locked) == (False, True)  # the second saw the first
    assert Turn.objects.get(pk=turn.pk).status != Turn.Status.OPEN
    locks = AuditEntry.objects.filter(turn=turn, action="lock")
    assert list(locks.values_list("reason", flat=True)) == [EARLY_REASON]  # once
