"""Seafaring games on the platform: users, and a small-isles game of three human seats."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tests.seafarers.offer_helpers import seeded_isles


@pytest.fixture
def people(db):
    make = get_user_model().objects.create_user
    return {
        name: make(username=name, email=f"{name}@example.org", password="x")
        for name in ("mod", "ann", "bob", "cid", "dee")
    }


@pytest.fixture
def game(people):
    """Small Isles (three seats: ann red, bob blue, cid white), started: red to settle. Its
    seed is fixed (not the drawn one, G2), so that a test playing on gets the same dice on
    every run: a drawn seed once ended a game before the discard a test waited for."""
    return seeded_isles(people["mod"], seed=5, name="Small Isles")
