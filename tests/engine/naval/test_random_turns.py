"""Generated turns: the invariants hold and every refusal has a code and a message."""

from __future__ import annotations

import pytest

from engine.naval import adjudicate
from engine.naval.refusals import CODES
from tests.engine.naval.invariants import check_invariants
from tests.engine.naval.random_turns import random_turn, situation_turn


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


@pytest.mark.parametrize("seed", range(100))
def test_invariants_hold_on_generated_hard_situations(seed: int) -> None:
    scenario = situation_turn(seed)
    result = adjudicate(scenario)
    check_invariants(scenario, result)
    for refusal in result["refused"]:
        assert refusal["code"] in CODES


def test_generated_hard_situations_happen() -> None:
    """The generator does produce what it is for (issue 9): joint fleets with several owners
    going unpaid, several buy-outs by one faction, battles of an alliance chain with a war
    inside, and mixed sides that part."""
    joint_mutiny = buyouts = chain_battles = mixed_partings = 0
    for seed in range(100):
        scenario = situation_turn(seed)
        events = adjudicate(scenario)["events"]
        mutinies: dict[str, set[str]] = {}
        for e in events:
            if e["type"] == "mutiny":
                mutinies.setdefault(e["fleet"], set()).add(e["faction"])
        joint_mutiny += any(len(owners) > 1 for owners in mutinies.values())
        bought = [e["faction"] for e in events if e["type"] == "bought_out"]
        buyouts += len(bought) > len(set(bought))
        owner_of = {f["id"]: f["owner"] for f in scenario["fleets"]}
        for e in events:
            if e["type"] != "battle":
                continue
            owners = {owner_of.get(f) for side in e["sides"].values() for f in side}
            chain_battles += {"alba", "bora", "cato"} <= owners
            moved = {m["fleet"] for m in events if m["type"] == "moved" and m["step"] == e["step"]}
            for side in e["sides"].values():
                mixed = any(f in moved for f in side) and any(f not in moved for f in side)
                mixed_partings += mixed and e["outcome"] == "parted"
    assert joint_mutiny >= 3, joint_mutiny
    assert buyouts >= 3, buyouts
    assert chain_battles >= 3, chain_battles
    assert mixed_partings >= 1, mixed_partings
