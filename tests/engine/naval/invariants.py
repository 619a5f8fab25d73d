"""Invariants that hold after every turn, whatever the case (tests/scenarios/README.md)."""

from __future__ import annotations

import copy
import json
from typing import Any

from engine.naval import adjudicate, parse_scenario, state_to_dict


def check_invariants(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    ships_accounted_for(scenario, result)
    treasuries_follow_the_ledger(scenario, result)
    same_seed_same_json(scenario, result)
    state_round_trips(scenario, result)


def ships_accounted_for(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    """Every ship is afloat, sunk or captured exactly once; new ships come from hires."""
    before = [s["id"] for f in scenario.get("fleets") or [] for s in f["ships"]]
    after = [s["id"] for f in result["state"]["fleets"] for s in f["ships"]]
    assert len(after) == len(set(after)), "a ship is in two fleets"
    sunk = [s for e in result["events"] if e["type"] == "battle" for s in e["sunk"]]
    assert len(sunk) == len(set(sunk)), "a ship sank twice"
    hired = [s for e in result["events"] if e["type"] == "hired" for s in e["ships"]]
    assert set(after) == (set(before) - set(sunk)) | set(hired)
    assert not set(sunk) & set(after)
    captured = {s for e in result["events"] if e["type"] == "captured" for s in e["ships"]}
    assert captured <= set(after) | set(sunk), "a captured ship vanished"
    assert captured <= set(before), "only ships that existed are captured"


def treasuries_follow_the_ledger(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    """A treasury changes only by the signed amounts of the events that name its faction, and
    never goes below 0, not even for a moment between two payments (X33)."""
    before = {f["id"]: f.get("treasury", 0) for f in scenario.get("factions") or []}
    after = {f["id"]: f["treasury"] for f in result["state"]["factions"]}
    balance = dict(before)
    for event in result["events"]:
        if "amount" in event:
            faction = event["faction"]
            balance[faction] += event["amount"]
            assert balance[faction] >= 0, f"{faction}'s treasury below 0 after {event}"
    for faction in before:
        assert after[faction] == balance[faction], faction


def same_seed_same_json(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    again = adjudicate(copy.deepcopy(scenario))
    assert json.dumps(again, sort_keys=True) == json.dumps(result, sort_keys=True)


def state_round_trips(scenario: dict[str, Any], result: dict[str, Any]) -> None:
    """The result's state fed back as a scenario reads back to the same state."""
    state = result["state"]
    fed_back = copy.deepcopy(scenario)
    fed_back["factions"] = state["factions"]
    fed_back["fleets"] = state["fleets"]
    fed_back["map"]["ports"] = state["ports"]
    fed_back["orders"] = []
    fed_back.pop("dice", None)
    world = parse_scenario(fed_back).world
    assert json.loads(json.dumps(state_to_dict(world))) == json.loads(json.dumps(state))
