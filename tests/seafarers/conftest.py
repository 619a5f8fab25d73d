"""Seafaring games on the platform: users, and a small-isles game of three human seats."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from seafarers.services import game_create, game_start


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(username=name, email=f"{name}@example.org", password="x")
        for name in ("mod", "ann", "bob", "cid", "dee")
    }


@pytest.fixture
def game(people):
    """Small Isles (three seats: ann red, bob blue, cid white), started: red to settle."""
    created = game_create(
        name="Small Isles",
        slug="isles",
        moderator=people["mod"],
        board="small-isles",
        seats=["ann", "bob", "cid"],
    )
    return game_start(game=created, user=people["mod"])
