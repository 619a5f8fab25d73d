"""The rule cases in tests/scenarios/ (one file per case), run through the real engine."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.naval import adjudicate, parse_scenario
from tests.engine.naval.invariants import check_invariants

CASES = Path(__file__).resolve().parents[2] / "scenarios" / "naval"
CASE_FILES = sorted(CASES.glob("*/*.yaml"))
CASE_KEYS = {"id", "rules", "title", "scenario", "expect"}


def load_case(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        case: dict[str, Any] = yaml.safe_load(handle)
    assert set(case) <= CASE_KEYS, f"unknown keys {set(case) - CASE_KEYS}"
    assert path.stem == case["id"], "the file is named after the case id"
    return case


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_rule_case(path: Path) -> None:
    case = load_case(path)
    scenario = case["scenario"]
    original = copy.deepcopy(scenario)
    result = adjudicate(scenario)
    assert scenario == original, "the engine changed its input"
    check_expectations(case.get("expect") or {}, result)
    check_invariants(scenario, result)


def test_case_ids_are_unique_and_cite_rules() -> None:
    seen: set[str] = set()
    for path in CASE_FILES:
        case = load_case(path)
        assert case["id"] not in seen
        seen.add(case["id"])
        assert case["rules"], f"{path.name} cites no rule"
        parse_scenario(case["scenario"])


def check_expectations(expect: dict[str, Any], result: dict[str, Any]) -> None:
    state = result["state"]
    fleets = {f["id"]: f for f in state["fleets"]}
    ships = {s["id"]: {**s, "fleet": f["id"]} for f in state["fleets"] for s in f["ships"]}
    for fleet_id, wanted in (expect.get("fleets") or {}).items():
        if wanted is None:
            assert fleet_id not in fleets, f"fleet {fleet_id} should be gone"
            continue
        assert fleet_id in fleets, f"fleet {fleet_id} should be afloat"
        actual = dict(fleets[fleet_id])
        actual["ships"] = {s["id"]: s["health"] for s in actual["ships"]}
        assert_matches(wanted, actual, f"fleets.{fleet_id}")
    for ship_id, wanted in (expect.get("ships") or {}).items():
        if wanted is None:
            assert ship_id not in ships, f"ship {ship_id} should be gone"
            continue
        assert ship_id in ships, f"ship {ship_id} should be afloat"
        assert_matches(wanted, ships[ship_id], f"ships.{ship_id}")
    treasuries = {f["id"]: f["treasury"] for f in state["factions"]}
    for faction, amount in (expect.get("treasury") or {}).items():
        assert treasuries[faction] == amount, f"treasury of {faction}"
    ports = {p["id"]: p["blockaded_by"] for p in state["ports"]}
    for port, blockaders in (expect.get("blockades") or {}).items():
        assert sorted(ports[port]) == sorted(blockaders), f"blockade of {port}"
    if "refused" in expect:
        actual_refused = sorted((r["order"], r["code"]) for r in result["refused"])
        wanted_refused = sorted((r["order"], r["code"]) for r in expect["refused"] or [])
        assert actual_refused == wanted_refused, result["refused"]
    events = result["events"]
    position = 0
    for wanted in expect.get("events") or []:
        while position < len(events) and not matches(wanted, events[position]):
            position += 1
        assert position < len(events), f"no event matching {wanted} (in order) in {events}"
        position += 1
    for unwanted in expect.get("no_events") or []:
        assert not any(matches(unwanted, e) for e in events), f"unexpected event {unwanted}"


def matches(wanted: Any, actual: Any) -> bool:
    """Dicts: every key listed matches; lists: same length, element by element; else equal."""
    if isinstance(wanted, dict):
        return isinstance(actual, dict) and all(
            k in actual and matches(v, actual[k]) for k, v in wanted.items()
        )
    if isinstance(wanted, list):
        return (
            isinstance(actual, list)
            and len(wanted) == len(actual)
            and all(matches(w, a) for w, a in zip(wanted, actual, strict=True))
        )
    return bool(wanted == actual)


def assert_matches(wanted: Any, actual: Any, where: str) -> None:
    assert matches(wanted, actual), f"{where}: expected {wanted}, got {actual}"


# Every clause and ruling of naval.md, by id (sections W, M, E, S, D, R, B, P, U, T and X).
CLAUSES = (
    [f"W{n}" for n in range(1, 9)]
    + [f"M{n}" for n in range(1, 8)]
    + [f"E{n}" for n in range(1, 5)]
    + [f"S{n}" for n in range(1, 4)]
    + [f"D{n}" for n in range(1, 11)]
    + [f"R{n}" for n in range(1, 6)]
    + [f"B{n}" for n in range(1, 4)]
    + [f"P{n}" for n in range(1, 4)]
    + [f"U{n}" for n in range(1, 5)]
    + ["T1", "T2"]
    + [f"X{n}" for n in range(1, 40)]
)


def test_every_clause_has_a_rule_case() -> None:
    cited = {rule for path in CASE_FILES for rule in load_case(path)["rules"]}
    missing = [clause for clause in CLAUSES if clause not in cited]
    assert not missing, f"clauses without a rule case: {missing}"
