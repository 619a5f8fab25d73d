"""The seafaring ruleset behind the seam (campaign/rulesets.py): registered by its app, reached
by the platform only through ruleset_of; the sequential cadence's input_apply."""

from __future__ import annotations

import pytest

from campaign.rulesets import Cadence, ruleset_get, ruleset_of
from engine.seafarers import bot_action
from seafarers.ruleset import SEAFARERS
from seafarers.services import GameRefused
from tests.seafarers.helpers import position

pytestmark = pytest.mark.django_db


def test_registered_and_sequential(game):
    assert ruleset_get("seafarers") is SEAFARERS
    assert ruleset_of(game.campaign) is SEAFARERS
    assert SEAFARERS.cadence is Cadence.SEQUENTIAL
    assert ruleset_get("naval").cadence is Cadence.SIMULTANEOUS  # the naval one unchanged


def test_input_apply_and_the_seats_inputs(game, people):
    seat = game.seats.get(player="red")
    legal = SEAFARERS.legal_inputs(turn=None, seat=seat)
    assert legal
    assert SEAFARERS.input_check(turn=None, seat=seat, entry=legal[0]) is None
    refusal = SEAFARERS.input_check(
        turn=None, seat=seat, entry={"type": "end_turn", "player": "red"}
    )
    assert refusal is not None
    assert refusal.code == "wrong_phase"
    assert SEAFARERS.seats_waiting(game.campaign) == [seat]
    action = bot_action(position(game), "red", 0)
    applied = SEAFARERS.input_apply(
        campaign=game.campaign, user=people["ann"], entry=action, expected_index=0
    )
    assert applied["index"] == 0
    with pytest.raises(GameRefused) as refused:
        SEAFARERS.input_apply(
            campaign=game.campaign, user=people["ann"], entry=action, expected_index=0
        )
    assert refused.value.code == "game_moved_on"
    assert SEAFARERS.campaign_document(game.campaign)["actions"] == [action]
