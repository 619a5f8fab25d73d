"""The seafaring rule cases in tests/scenarios/seafarers/ (one file per case), run through the
real engine, matched as tests/scenarios/seafarers/README.md says, then the invariants."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.seafarers import adjudicate, parse_scenario
from engine.seafarers.board import Board
from engine.seafarers.rules import RESOURCES
from tests.engine.seafarers.invariants import check_invariants

CASES = Path(__file__).resolve().parents[2] / "scenarios" / "seafarers"
CASE_FILES = sorted(CASES.glob("*/*.yaml"))
CASE_KEYS = {"id", "rules", "title", "scenario", "expect"}
EXPECT_KEYS = {
    "refused",
    "events",
    "no_events",
    "players",
    "bank",
    "holders",
    "turn",
    "dev_deck",
    "routes",
    "vp",
    "rates",
    "movable",
}
NODE_KEYS = {"node", "settlements", "cities", "setup_node"}
EDGE_KEYS = {"edge", "roads", "ships", "movable"}
SET_KEYS = {"roads", "ships", "settlements", "cities", "movable"}
RESOURCE_SET = set(RESOURCES)


def load_case(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as handle:
        case: dict[str, Any] = yaml.safe_load(handle)
    assert set(case) <= CASE_KEYS, f"unknown keys {set(case) - CASE_KEYS}"
    assert path.stem == case["id"], "the file is named after the case id"
    assert set(case.get("expect") or {}) <= EXPECT_KEYS, "unknown expect keys"
    return case


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_rule_case(path: Path) -> None:
    case = load_case(path)
    scenario = case["scenario"]
    original = copy.deepcopy(scenario)
    result = adjudicate(scenario)
    assert scenario == original, "the engine changed its input"
    board = parse_scenario(scenario).state.board
    check_expectations(case.get("expect") or {}, result, board)
    check_invariants(scenario, result)


def test_case_ids_are_unique_and_cite_rules() -> None:
    assert CASE_FILES, "no seafaring cases"
    seen: set[str] = set()
    for path in CASE_FILES:
        case = load_case(path)
        assert case["id"] not in seen
        seen.add(case["id"])
        assert case["rules"], f"{path.name} cites no rule"
        assert case["id"].split("-")[0] == case["rules"][0], "the id starts with the first clause"
        assert path.parent.name == _area(case["rules"][0]), "the case lies in its clause's area"
        parse_scenario(case["scenario"])


def _area(clause: str) -> str:
    letters = "".join(ch for ch in clause if ch.isalpha()).lower()
    return letters


# -- matching (README "Matching") ------------------------------------------------------------
def canonical(value: Any, key: str | None, board: Board, event_type: str | None = None) -> Any:
    """Nodes and edges in any notation made canonical, told apart by the key."""
    if key in NODE_KEYS:
        if isinstance(value, list):
            return [canonical(v, key, board) for v in value]
        n = board.node_of(value)
        return value if n is None else board.node_names[n]
    if key in SET_KEYS and isinstance(value, list):
        return [canonical(v, "edge", board) for v in value]
    if isinstance(value, dict) and "edge" in value:
        return {**value, "edge": canonical(value["edge"], "edge", board)}
    e = board.edge_of(value)
    return value if e is None else board.edge_name(e)


def normalise(
    value: Any, board: Board, key: str | None = None, event_type: str | None = None
) -> Any:
    if isinstance(value, dict):
        kind = value.get("type", event_type) if isinstance(value.get("type"), str) else event_type
        out = {}
        for k, v in value.items():
            if k == "movable" and key is None:  # player -> edges
                out[k] = {pid: canonical(edges, k, board) for pid, edges in v.items()}
            elif k in NODE_KEYS or k in EDGE_KEYS or (kind == "ship_moved" and k in ("from", "to")):
                out[k] = canonical(v, k, board, kind)
            elif kind == "route_closed" and k == "ships":
                out[k] = [canonical(x, "edge", board) for x in v]
            else:
                out[k] = normalise(v, board, k, kind)
        return out
    if isinstance(value, list):
        return [normalise(v, board, key, event_type) for v in value]
    return value


def is_resources(value: Any) -> bool:
    return isinstance(value, dict) and bool(value) and set(value) <= RESOURCE_SET


def matches(
    wanted: Any, actual: Any, key: str | None = None, event_type: str | None = None
) -> bool:
    if key == "rates" and isinstance(wanted, dict):  # rates are never 0: a partial match
        return isinstance(actual, dict) and all(actual.get(k) == v for k, v in wanted.items())
    if is_resources(wanted) or (
        isinstance(wanted, dict)
        and not wanted
        and key in ("hand", "cards", "give", "get", "take", "bank")
    ):
        if not isinstance(actual, dict):
            return False
        return {k: v for k, v in wanted.items() if v} == {k: v for k, v in actual.items() if v}
    if isinstance(wanted, dict):
        if not isinstance(actual, dict):
            return False
        kind = wanted.get("type", event_type)
        return all(k in actual and matches(v, actual[k], k, kind) for k, v in wanted.items())
    if isinstance(wanted, list):
        if not isinstance(actual, list) or len(wanted) != len(actual):
            return False
        if key in SET_KEYS or (event_type == "route_closed" and key == "ships"):
            return set_matches(wanted, actual)
        return all(matches(w, a, key, event_type) for w, a in zip(wanted, actual, strict=True))
    return bool(wanted == actual)


def set_matches(wanted: list[Any], actual: list[Any]) -> bool:
    """Pieces in any order; a ship as an edge matches the ship object whatever its flags."""

    def edge_of(item: Any) -> Any:
        return item["edge"] if isinstance(item, dict) else item

    left = list(actual)
    for w in wanted:
        for i, a in enumerate(left):
            if isinstance(w, dict):
                ok = isinstance(a, dict) and all(a.get(k) == v for k, v in w.items())
            else:
                ok = edge_of(a) == w
            if ok:
                del left[i]
                break
        else:
            return False
    return True


def check_expectations(expect: dict[str, Any], result: dict[str, Any], board: Board) -> None:
    expect = normalise(expect, board)
    state = result["state"]
    last = result["steps"][-1] if result["steps"] else result["start"]
    if "refused" in expect:
        actual = sorted((r["action"], r["code"]) for r in result["refused"])
        wanted = sorted((r["action"], r["code"]) for r in expect["refused"] or [])
        assert actual == wanted, result["refused"]
    events = result["events"]
    position = 0
    for wanted in expect.get("events") or []:
        while position < len(events) and not matches(wanted, events[position]):
            position += 1
        assert position < len(events), f"event {wanted} missing (in order) from {events}"
        position += 1
    for unwanted in expect.get("no_events") or []:
        assert not any(matches(unwanted, e) for e in events), f"event {unwanted} should not appear"
    players = {p["id"]: p for p in state["players"]}
    for pid, wanted in (expect.get("players") or {}).items():
        assert pid in players, pid
        for k, v in wanted.items():
            assert matches(v, players[pid][k], k), f"players.{pid}.{k}: {players[pid][k]} != {v}"
    if "bank" in expect:
        assert matches(expect["bank"], state["bank"], "bank"), state["bank"]
    if "holders" in expect:
        assert matches(expect["holders"], state["holders"]), state["holders"]
    if "turn" in expect:
        assert matches(expect["turn"], state["turn"]), state["turn"]
    if "dev_deck" in expect:
        assert expect["dev_deck"] == state["dev_deck"], state["dev_deck"]
    for key in ("routes", "vp", "rates", "movable"):
        for pid, wanted in (expect.get(key) or {}).items():
            assert matches(wanted, last[key][pid], key), (
                f"{key}.{pid}: {last[key][pid]} != {wanted}"
            )
