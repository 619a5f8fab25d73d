"""Generated turns: the invariants hold and every refusal has a code and a message."""

from __future__ import annotations

import pytest

from engine.naval import adjudicate
from engine.naval.refusals import CODES
from tests.engine.naval.invariants import check_invariants
from tests.engine.naval.random_turns import random_turn


@pytest.mark.parametrize("seed", range(300))
def test_invariants_hold_on_generated_turns(seed: int) -> None:
    scenario = random_turn(seed)
    result = adjudicate(scenario)
    check_invariants(scenario, result)
    for refusal in result["refused"]:
        assert refusal["code"] in CODES
        assert refusal["message"]
    for fleet in result["state"]["fleets"]:
        assert 1 <= len(fleet["ships"]) <= scenario["rules"]["fleet_limit"] or fleet["owner"]


def test_generated_turns_fight_battles() -> None:
    battles = sum(
        1
        for seed in range(60)
        for e in adjudicate(random_turn(seed))["events"]
        if e["type"] == "battle"
    )
    assert battles > 30
