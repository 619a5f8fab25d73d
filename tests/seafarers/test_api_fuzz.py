"""The seafaring API through its OpenAPI schema: schemathesis generates requests from
/api/games/openapi.json and sends them to the WSGI app in-process with a seat's key, in a turn
where trades can be offered. Never a server error; every status and body is one the schema
documents (a refusal's code is in its enum); a refusal changes nothing; no answer holds another
seat's hand. With a wrong key, every operation answers 401."""

from __future__ import annotations

import json

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
from seafarers.api import api
from seafarers.keys import seat_key_issue
from seafarers.models import TradeOffer
from tests.fuzz.profile import FUZZ
from tests.seafarers.offer_helpers import seeded_isles, trade_turn

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
SERVED = api.get_openapi_schema(path_prefix="/api/games/")
schema = schemathesis.openapi.from_dict(SERVED)
schema.app = application


@pytest.fixture
def played(people, settings):
    """Small Isles at a turn where a trade can be offered; the current player's key, and an
    open offer to them (so that accept, decline and withdraw can be reached)."""
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    game = seeded_isles(people["mod"], seed=5)
    t = trade_turn(game)
    current = game.seats.get(player=t["current"])
    TradeOffer.objects.create(
        game=game,
        from_seat=game.seats.get(player=t["other"]),
        to_seat=current,
        give=t["get"],
        get=t["give"],
        turn_number=game.state["turn"]["number"],
        made_at_index=game.log_length,
    )
    yield {"game": game, "player": t["current"], "key": seat_key_issue(seat=current)}
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
def test_the_schema_tested_is_the_one_served(client) -> None:
    assert client.get("/api/games/openapi.json").json() == SERVED
    assert client.get("/api/games/docs").status_code == 200


REAL = {"slug": ["isles", "isl\x00es"], "offer_id": [1, 2], "reply": ["accept", "withdraw"]}


@schemathesis.hook
def flatmap_path_parameters(context, path_parameters):
    if not path_parameters:
        return st.just(path_parameters)
    real = {name: st.sampled_from(REAL[name]) for name in path_parameters if name in REAL}
    return st.one_of(st.just(path_parameters), st.fixed_dictionaries(real)).map(
        lambda chosen: {**path_parameters, **chosen}
    )


def others_hands_shown(body: object, me: str) -> bool:
    stack = [body]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            if value.get("id") not in (None, me) and ("hand" in value or "dev_cards" in value):
                return True
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


@pytest.mark.django_db
@schema.parametrize()
@FUZZ
def test_the_api_answers_as_its_schema_says(case, played) -> None:
    game = played["game"]
    game.refresh_from_db()
    before = (game.log_length, game.state, list(TradeOffer.objects.values_list("id", "status")))
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {played['key']}"}, checks=CHECKS
    )
    game.refresh_from_db()
    if response.status_code >= 400:
        after = (game.log_length, game.state, list(TradeOffer.objects.values_list("id", "status")))
        assert after == before, "a refusal changed the game"
    else:
        assert not others_hands_shown(json.loads(response.content or b"null"), played["player"])


@pytest.mark.django_db
@schema.parametrize()
@settings(FUZZ, max_examples=max(10, FUZZ.max_examples // 5))
def test_a_wrong_key_is_401_everywhere(case, played) -> None:
    for headers in ({"Authorization": "Bearer sea_not-a-key"}, {"Authorization": "Basic x"}, {}):
        cache.clear()  # bad keys are limited per address; each request starts uncounted
        response = case.call(headers=headers)
        if case.method.lower() not in SERVED["paths"][case.path]:
            # schemathesis tries methods the path has not: a plain refusal too, not HTML
            assert response.status_code == 405, (case.method, case.path, response.text)
            assert response.json()["code"] == "method_not_allowed"
            continue
        assert response.status_code == 401, (case.method, case.path, response.text)
        assert response.json()["code"] == "unauthorized"
