"""Fixtures for the access tests: a campaign with a history (everyone: tests/conftest.py)."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from campaign import lifecycle
from campaign.models import ArchivedResult, AuditEntry
from fleets.models import Order
from tests.conftest import resolve_with_the_swedes_attacking


@pytest.fixture
def played(people, open_skirmish):
    """Turn 1 resolved with a battle (the Swedes attack Øresund) and published, turn 2 open; an
    order of the Danes for turn 2, an archived result and a group, so that every admin page has
    an object of this campaign to show. Returns `people`."""
    from django.contrib.auth.models import Group

    turn = resolve_with_the_swedes_attacking(open_skirmish)
    lifecycle.turn_publish(turn, user=None)
    ArchivedResult.objects.create(turn=turn, scenario={}, result={}, reason="an old appeal")
    Order.objects.create(
        turn=open_skirmish.current_turn,
        faction=open_skirmish.factions.get(key="danes"),
        slot="fleet:d2",
        payload={"fleet": "d2", "type": "hold"},
    )
    assert AuditEntry.objects.filter(campaign=open_skirmish).exists()
    Group.objects.create(name="captains")
    return people


@pytest.fixture(autouse=True)
def _empty_cache():
    """The login limiter counts in the cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()
