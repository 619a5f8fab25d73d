"""naval.md X39: a key given as null where the format shows a list or an object is a problem in
the file, with its path; a key left out takes its default. Rule values are at most 10,000."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.kernel.problems import Checker
from engine.naval import ScenarioError, parse_scenario

BASE: dict[str, Any] = {
    "format": "naval-scenario/1",
    "map": {
        "provinces": [{"id": "k", "kind": "sea"}, {"id": "zealand", "kind": "land"}],
        "adjacent": [["k", "zealand"]],
        "ports": [{"id": "copenhagen", "province": "zealand", "owner": "danes", "waters": ["k"]}],
    },
    "factions": [{"id": "danes", "treasury": 10, "upkeep_priority": ["d1"]}],
    "ship_types": [{"id": "frigate", "cost": 100, "attack": 10, "health": 10}],
    "fleets": [
        {"id": "d1", "owner": "danes", "at": "k", "ships": [{"id": "d1-1", "type": "frigate"}]}
    ],
    "orders": [{"fleet": "d1", "type": "move", "path": ["k"]}],
}


def _problems(doc: dict[str, Any]) -> list[str]:
    try:
        parse_scenario(doc)
    except ScenarioError as error:
        return [str(p) for p in error.problems]
    return []


def _with_null(path: tuple[str | int, ...]) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    here: Any = doc
    for key in path[:-1]:
        here = here[key]
    here[path[-1]] = None
    return doc


NULLS = [
    (("fleets",), "fleets: must be a list, not null"),
    (("factions",), "factions: must be a list, not null"),
    (("ship_types",), "ship_types: must be a list, not null"),
    (("relations",), "relations: must be a list, not null"),
    (("orders",), "orders: must be a list, not null"),
    (("dice",), "dice: must be a list, not null"),
    (("rules",), "rules: must be an object, not null"),
    (("map",), "map: must be an object, not null"),
    (("map", "provinces"), "map.provinces: must be a list, not null"),
    (("map", "adjacent"), "map.adjacent: must be a list, not null"),
    (("map", "ports"), "map.ports: must be a list, not null"),
    (("map", "ports", 0, "waters"), "map.ports[0].waters: must be a list, not null"),
    (("map", "ports", 0, "blockaded_by"), "map.ports[0].blockaded_by: must be a list, not null"),
    (("factions", 0, "upkeep_priority"), "factions[0].upkeep_priority: must be a list, not null"),
    (("fleets", 0, "ships"), "fleets[0].ships: must be a list, not null"),
    (("orders", 0, "path"), "orders[0].path: must be a list, not null"),
    (("orders", 0, "evade_to"), "orders[0].evade_to: must be a list, not null"),
]


@pytest.mark.parametrize(("path", "problem"), NULLS, ids=[str(p) for p, _ in NULLS])
def test_a_null_list_or_object_is_a_problem_with_its_path(
    path: tuple[str | int, ...], problem: str
) -> None:
    assert problem in _problems(_with_null(path))


@pytest.mark.parametrize("key", ["fleets", "factions", "relations", "orders", "dice", "rules"])
def test_a_key_left_out_takes_its_default(key: str) -> None:
    doc = copy.deepcopy(BASE)
    if key in ("fleets", "factions"):  # the rest of the file names them
        doc = {"format": doc["format"], "map": {"provinces": [{"id": "k", "kind": "sea"}]}}
    doc.pop(key, None)
    assert _problems(doc) == []


@pytest.mark.parametrize(("value", "ok"), [(10_000, True), (10_001, False)])
def test_rule_values_are_at_most_ten_thousand(value: int, ok: bool) -> None:
    doc = copy.deepcopy(BASE)
    doc["rules"] = {"max_rounds": value}
    assert (_problems(doc) == []) is ok


def test_the_kernel_checker_tells_null_from_left_out() -> None:
    c = Checker()
    assert c.items_at("", {}, "fleets") == []
    assert c.mapping_at("", {}, "rules") is None
    assert c.problems == []
    assert c.items_at("map", {"ports": None}, "ports") == []
    assert c.mapping_at("", {"rules": None}, "rules") is None
    assert [str(p) for p in c.problems] == [
        "map.ports: must be a list, not null",
        "rules: must be an object, not null",
    ]
    assert c.items("old", None) == []  # the old reading is kept for callers that want it
