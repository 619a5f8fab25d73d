"""Well-formed but illegal actions in every phase, through the API (issue 14, "Bad input"): a game
is played by its seats through the service while, before each of its actions, random actions of
the table's shapes (the playouts' generator) that `legal_actions` does not list are sent with a
seat's key. Each is refused 400 with a code of the schema and a message, and changes nothing:
the log, the state and the offers are as they were (X25, G1)."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client

from engine.seafarers import legal_actions
from seafarers.api import REFUSAL_CODES
from seafarers.keys import seat_key_issue
from seafarers.positions import waiting_for
from tests.engine.seafarers.test_playouts import random_action
from tests.seafarers.helpers import play_one, position
from tests.seafarers.offer_helpers import seeded_isles

pytestmark = pytest.mark.django_db
STEPS = 150  # the setup, rolls and production, 7s with discards and the robber, builds, trades
TRIES = 3  # random actions sent before each real one


def key(action: dict) -> str:
    return json.dumps(action, sort_keys=True)


def test_illegal_actions_in_every_phase_are_refused_and_change_nothing(people):
    game = seeded_isles(people["mod"])
    keys = {seat.player: seat_key_issue(seat=seat) for seat in game.seats.all()}
    client = Client()
    rng = random.Random(14)
    phases, sent = set(), 0
    for _ in range(STEPS):
        game.refresh_from_db()
        state = position(game)
        if not waiting_for(state):
            break
        phases.add("setup" if state.in_setup() else state.phase)
        listed = {key(a) for p in state.players for a in legal_actions(state, p)}
        before = (game.log_length, json.dumps(game.state, sort_keys=True))
        for _ in range(TRIES):
            action = random_action(state, rng)
            if key(action) in listed:
                continue  # legal: it would move the game on, and that is the service's test
            sender = rng.choice(list(keys))  # its own seat's key, or another's
            response = client.post(
                f"/api/games/{game.campaign.slug}/actions",
                json.dumps({"action": action, "expected_index": game.log_length}),
                content_type="application/json",
                headers={"Authorization": f"Bearer {keys[sender]}"},
            )
            assert response.status_code == 400, (action, response.content)
            refusal = response.json()
            assert refusal["code"] in REFUSAL_CODES
            assert refusal["message"]
            sent += 1
            game.refresh_from_db()
            assert (game.log_length, json.dumps(game.state, sort_keys=True)) == before
        play_one(game)
    assert sent >= STEPS  # most random actions are illegal
    assert {"setup", "roll", "action", "discard", "robber"} <= phases, phases
