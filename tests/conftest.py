"""Fixtures shared by the Django tests: a small campaign imported from a campaign document, and
everyone the players' pages and the access tests need."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from campaign import lifecycle
from campaign.models import Membership
from fleets.campaign_files import read_campaign_file
from fleets.importing import campaign_import

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = json.loads((ROOT / "examples" / "baltic-skirmish.scenario.json").read_text())


def _worker_broker() -> None:
    """Each pytest-xdist worker (PYTEST_XDIST_WORKER: gw0, gw1, ...) flushes and fills its own
    Redis database: the base one (TEST_BROKER_URL, default 15) minus the worker's number. Set
    at the root conftest's import, before any test module reads TEST_BROKER_URL. The test
    databases need nothing: pytest-django gives each worker its own (a name ending _gw0 ...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    base = os.environ.get("TEST_BROKER_URL", "redis://127.0.0.1:6379/15")
    server, _, number = base.rpartition("/")
    db = int(number or 0) - int(worker[2:])
    if db < 0:
        raise pytest.UsageError(f"{base}: too few Redis databases below it for worker {worker}")
    os.environ["TEST_BROKER_URL"] = f"{server}/{db}"


_worker_broker()


# Django's default hasher takes 0.18 s a password here, by design; the fixtures create a
# great many users. The tests use Django's fast hasher (as Django's testing docs advise): what
# they check is who may log in and what they see, not the cost of a hash. Production keeps
# the default (tests/test_settings.py checks it).
def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _where(lon: float, lat: float) -> tuple[int, int]:
    """A place's position on the map: longitude and latitude projected (equirectangular, true
    at 56° N, where the Sound is), so that the skirmish's map looks like the western Baltic."""
    return round(60 + 190 * 0.559 * (lon - 8.5)), round(60 + 190 * (58.3 - lat))


# Each province where it is (its middle, by eye): the README's pictures are drawn from these.
SKIRMISH_AT = {
    "skagerrak": _where(9.6, 57.9),
    "kattegat": _where(11.6, 57.1),
    "oresund": _where(12.75, 55.95),
    "belt_sea": _where(10.9, 55.0),
    "arkona_basin": _where(13.6, 54.85),
    "bornholm_basin": _where(15.9, 55.4),
    "jutland": _where(9.2, 56.1),
    "zealand": _where(11.8, 55.45),
    "scania": _where(13.4, 56.35),
    "holstein": _where(10.6, 54.0),
    "smaland": _where(15.4, 57.2),
}


def skirmish_campaign_document(**changes: Any) -> dict[str, Any]:
    """The bundled skirmish scenario as a campaign file, its orders removed."""
    doc = copy.deepcopy(SKIRMISH)
    doc.pop("orders")
    doc.pop("seed")
    doc["format"] = "naval-campaign/1"
    doc["name"] = "Skirmish in the Sound"
    for province in doc["map"]["provinces"]:
        province["x"], province["y"] = SKIRMISH_AT[province["id"]]
    doc.update(changes)
    return doc


@pytest.fixture
def skirmish(db):
    """The skirmish campaign, its first turn a draft."""
    return campaign_import(read_campaign_file(skirmish_campaign_document()))


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_user("mod", "mod@example.org", "pw")


SKIRMISH_ORDERS = SKIRMISH["orders"]


def resolve_with_the_swedes_attacking(campaign):
    """Open the campaign's turn (unless open), order the Swedish s1 into Øresund (a battle with
    the Danish d1), lock and resolve it here; the resolved turn."""
    from campaign.resolution import turn_resolve
    from fleets.models import Order

    turn = campaign.current_turn
    if turn.status == turn.Status.DRAFT:
        turn = lifecycle.turn_open(turn, user=None)
    Order.objects.create(
        turn=turn,
        faction=campaign.factions.get(key="swedes"),
        slot="fleet:s1",
        payload={"fleet": "s1", "type": "move", "path": ["oresund"]},
    )
    lifecycle.turn_lock(turn, user=None)
    turn_resolve(turn_id=turn.pk)
    turn.refresh_from_db()
    return turn


# Everyone: a player per faction of the skirmish and its moderator, someone with no membership,
# and the moderator of another campaign (imported from the same file as "elsewhere").
RIVAL_SLUG = "elsewhere"


@pytest.fixture
def open_skirmish(skirmish):
    lifecycle.turn_open(skirmish.current_turn, user=None)
    return skirmish


@pytest.fixture
def people(open_skirmish, django_user_model):
    """username -> user: danes, swedes, hanse (players); mod (the moderator, staff, as the admin
    needs); stranger (logged in, no membership); rival (staff, moderator of the campaign
    "elsewhere", imported from the same file, and of nothing here)."""
    users = {}
    for key in ("danes", "swedes", "hanse"):
        users[key] = django_user_model.objects.create_user(key, f"{key}@example.org", "pw")
        Membership.objects.create(
            user=users[key],
            campaign=open_skirmish,
            role=Membership.Role.PLAYER,
            faction=open_skirmish.factions.get(key=key),
        )
    users["mod"] = django_user_model.objects.create_user(
        "mod", "mod@example.org", "pw", is_staff=True
    )
    Membership.objects.create(
        user=users["mod"], campaign=open_skirmish, role=Membership.Role.MODERATOR
    )
    users["stranger"] = django_user_model.objects.create_user("stranger", "s@example.org", "pw")
    elsewhere = campaign_import(
        read_campaign_file(skirmish_campaign_document(slug=RIVAL_SLUG, name="Elsewhere"))
    )
    lifecycle.turn_open(elsewhere.current_turn, user=None)
    users["rival"] = django_user_model.objects.create_user(
        "rival", "rival@example.org", "pw", is_staff=True
    )
    Membership.objects.create(
        user=users["rival"], campaign=elsewhere, role=Membership.Role.MODERATOR
    )
    return users
