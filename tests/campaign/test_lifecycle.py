"""The turn lifecycle: every transition, the refused ones, the audit log, and a full turn."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from campaign import lifecycle
from campaign.lifecycle import TransitionError
from campaign.models import AuditEntry, Turn
from engine.naval import adjudicate
from fleets.models import Faction, Fleet, Ship
from fleets.services import order_submit
from tests.conftest import SKIRMISH_ORDERS

Status = Turn.Status


def give_orders(turn: Turn, orders: list[dict]) -> None:
    """Each order submitted by the faction that commands its fleet (or that it names)."""
    owners = dict(Fleet.objects.filter(campaign=turn.campaign).values_list("key", "owner__key"))
    for order in orders:
        acting = order["faction"] if order["type"] in ("hire", "buyout") else None
        key = acting or owners.get(order.get("fleet"), "danes")
        faction = Faction.objects.get(campaign=turn.campaign, key=key)
        order_submit(turn=turn, faction=faction, order=order)


def test_a_turn_from_draft_to_published(skirmish, moderator, django_capture_on_commit_callbacks):
    turn = skirmish.current_turn
    assert turn.status == Status.DRAFT
    lifecycle.turn_open(turn, user=moderator)
    assert turn.status == Status.OPEN
    assert turn.deadline > timezone.now() + timedelta(hours=71)
    give_orders(turn, SKIRMISH_ORDERS)
    Turn.objects.filter(pk=turn.pk).update(seed=1805)  # the skirmish's seed: a known battle
    turn.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        lifecycle.turn_lock(turn, user=moderator, reason="all orders in")
    assert len(callbacks) == 1  # the resolution is queued after the commit, not before
    turn.refresh_from_db()
    assert turn.status == Status.RESOLVED  # eager Celery ran it in-process
    assert turn.seed is not None
    assert turn.result == adjudicate(turn.scenario)  # the stored result is the engine's
    assert turn.battles.count() == sum(e["type"] == "battle" for e in turn.result["events"])
    assert turn.battles.count() == 2
    lifecycle.turn_publish(turn, user=moderator)
    assert turn.status == Status.PUBLISHED
    # The world took the result's state: the Swedish ships captured at Oresund are Danish now.
    assert Ship.objects.get(key="svard").owner.key == "danes"
    assert not Ship.objects.filter(key="solen").exists()  # sunk
    assert Faction.objects.get(campaign=skirmish, key="danes").treasury == 564
    following = skirmish.current_turn
    assert (following.number, following.status) == (2, Status.OPEN)
    actions = list(AuditEntry.objects.filter(campaign=skirmish).values_list("action", flat=True))
    assert {"import", "open", "lock", "resolve", "publish"} <= set(actions)


@pytest.mark.parametrize(
    ("status", "service"),
    [
        (Status.DRAFT, "turn_lock"),
        (Status.DRAFT, "turn_publish"),
        (Status.OPEN, "turn_publish"),
        (Status.OPEN, "turn_retry"),
        (Status.RESOLVED, "turn_lock"),
        (Status.PUBLISHED, "turn_publish"),
        (Status.LOCKED, "turn_open"),
    ],
)
def test_transitions_not_allowed_are_refused(skirmish, moderator, status, service) -> None:
    turn = skirmish.current_turn
    Turn.objects.filter(pk=turn.pk).update(status=status, result={"state": {}, "events": []})
    turn.refresh_from_db()
    with pytest.raises(TransitionError):
        getattr(lifecycle, service)(turn, user=moderator)
    turn.refresh_from_db()
    assert turn.status == status


def test_two_moderators_pressing_at_once_move_the_turn_once(skirmish, moderator) -> None:
    first = skirmish.current_turn
    second = Turn.objects.get(pk=first.pk)  # the other moderator's page, loaded before
    lifecycle.turn_open(first, user=moderator)
    with pytest.raises(TransitionError, match="already open"):
        lifecycle.turn_open(second, user=moderator)
    assert AuditEntry.objects.filter(action="open").count() == 1


def test_reopen_keeps_the_seed_and_extend_moves_the_deadline(skirmish, moderator) -> None:
    turn = lifecycle.turn_open(skirmish.current_turn, user=moderator)
    later = timezone.now() + timedelta(days=5)
    lifecycle.turn_extend(turn, user=moderator, deadline=later, reason="holiday")
    assert turn.deadline == later
    Turn.objects.filter(pk=turn.pk).update(seed=1234)  # as a lock would have drawn
    turn.refresh_from_db()
    turn.status = Status.OPEN
    locked = Turn.objects.filter(pk=turn.pk)
    locked.update(status=Status.LOCKED)
    turn.refresh_from_db()
    lifecycle.turn_reopen(turn, user=moderator, reason="a player's order went astray")
    assert (turn.status, turn.seed, turn.scenario) == (Status.OPEN, 1234, None)
    entry = AuditEntry.objects.filter(action="reopen").get()
    assert (entry.user, entry.reason) == (moderator, "a player's order went astray")
