"""Fixtures for the players' pages: the skirmish campaign with a player per faction and its
moderator, its first turn open."""

from __future__ import annotations

import pytest

from campaign import lifecycle
from campaign.models import Membership


@pytest.fixture
def open_skirmish(skirmish):
    lifecycle.turn_open(skirmish.current_turn, user=None)
    return skirmish


@pytest.fixture
def people(open_skirmish, django_user_model):
    """username -> user: danes, swedes, hanse players; mod (moderator); stranger (no membership);
    rival (moderator of another campaign)."""
    users = {}
    for key in ("danes", "swedes", "hanse"):
        users[key] = django_user_model.objects.create_user(key, f"{key}@example.org", "pw")
        Membership.objects.create(
            user=users[key],
            campaign=open_skirmish,
            role=Membership.Role.PLAYER,
            faction=open_skirmish.factions.get(key=key),
        )
    users["mod"] = django_user_model.objects.create_user("mod", "mod@example.org", "pw")
    Membership.objects.create(
        user=users["mod"], campaign=open_skirmish, role=Membership.Role.MODERATOR
    )
    users["stranger"] = django_user_model.objects.create_user("stranger", "s@example.org", "pw")
    return users
