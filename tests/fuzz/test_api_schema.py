"""The API through its OpenAPI schema (issue 5): schemathesis generates requests from
/api/openapi.json and sends them to the WSGI app in-process, with a player's key. Never a server
error; every status and body is the one the schema documents; refusals carry the engine's stable
codes (the schema lists them). With a wrong key, every operation answers 401."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from config.wsgi import application
from engine.naval import parse_scenario, validate_order
from fleets.api import api
from fleets.mapping import orders_document, world_document
from fleets.models import Order
from fleets.services import token_issue
from tests.fuzz.profile import FUZZ

SLUG = "skirmish-in-the-sound"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@pytest.fixture
def in_process(people, settings):
    """The WSGI app called in the test's transaction, as Django's own test client does (no
    connection closed at the end of a request); the host schemathesis' WSGI client sends."""
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def danes_key(in_process, people) -> str:
    return token_issue(membership=people["danes"].memberships.get())


# The schema as the site serves it (the same generator as /api/openapi.json: checked below),
# loaded eagerly: schemathesis' lazy fixture loader does not run on this pytest.
SERVED = api.get_openapi_schema(path_prefix="/api/")
schema = schemathesis.openapi.from_dict(SERVED)
schema.app = application


@pytest.mark.django_db
def test_the_schema_tested_is_the_one_served(client) -> None:
    assert client.get("/api/openapi.json").json() == SERVED


# Random path parameters mostly miss (404, which is checked too); half the time they are swapped
# for real ones, so that the operations behind the permission checks are reached.
REAL = {
    "slug": [SLUG],
    "key": ["d1", "d2", "s1", "p1", "d\x001"],
    "slot": ["fleet:d1", "fleet:d2", "repair:d1", "fleet:s1", "repair:s1", "hire:x", "hire:\x00"],
    "number": [1, 2],
}


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    real = {name: st.sampled_from(REAL[name]) for name in path_parameters if name in REAL}
    return st.one_of(st.just(path_parameters), st.fixed_dictionaries(real)).map(
        lambda chosen: {**path_parameters, **chosen}
    )


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_the_api_answers_as_its_schema_says(case, danes_key) -> None:
    before = list(Order.objects.order_by("pk").values_list("pk", flat=True))
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {danes_key}"}, checks=CHECKS
    )
    added = Order.objects.exclude(pk__in=before).order_by("pk")
    if response.status_code == 200 and case.path.endswith("/final"):  # a mark, no order
        assert not added.exists(), "marking the orders final wrote an order"
        return
    if response.status_code == 200 and case.method == "POST":  # written orders (text/plain)
        lines = response.json()["lines"]
        marks = sum(line["outcome"] == "accepted" and line["written"] == "final" for line in lines)
        # A row for each line accepted, but `final` (a mark, R-89).
        assert added.count() == response.json()["accepted"] - marks
        for row in added:
            world = parse_scenario(world_document(row.turn.campaign)).world
            assert validate_order(world, row.payload) is None
        return
    if response.status_code not in (201, 204):
        assert not added.exists(), "a refusal wrote an order"
        return
    assert added.count() <= 1
    row = added.first()
    if row is not None and row.payload is not None:  # a given order: one the engine accepts
        campaign = row.turn.campaign
        world = parse_scenario(world_document(campaign)).world
        assert validate_order(world, row.payload) is None
        assert row.payload in orders_document(row.turn)


@pytest.mark.django_db
@schema.parametrize()
@settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 5))
def test_a_wrong_key_is_401_everywhere(case, danes_key) -> None:
    for headers in ({"Authorization": "Bearer not-a-key"}, {"Authorization": "Basic x"}, {}):
        # Bad keys are limited per address (429 after 20, tests/access/test_login_limit.py);
        # every request here comes from one address, so each starts uncounted.
        cache.clear()
        response = case.call(headers=headers)
        if case.method.lower() not in SERVED["paths"][case.path]:
            assert response.status_code == 405  # schemathesis tries methods the path has not
            continue
        assert response.status_code == 401, (case.method, case.path, response.text)
