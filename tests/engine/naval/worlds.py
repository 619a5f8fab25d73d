"""Small worlds for engine unit tests, written as scenario documents (the format is the API)."""

from __future__ import annotations

import copy
from typing import Any

from engine.naval import World, parse_scenario

# Three seas in a row (west - middle - east), a land province with a port on the middle one.
SEA_LANE: dict[str, Any] = {
    "format": "naval-scenario/1",
    "map": {
        "provinces": [
            {"id": "west", "kind": "sea"},
            {"id": "middle", "kind": "sea"},
            {"id": "east", "kind": "sea"},
            {"id": "isle", "kind": "land"},
        ],
        "adjacent": [["west", "middle"], ["middle", "east"], ["isle", "middle"]],
        "ports": [{"id": "haven", "province": "isle", "owner": "blue", "waters": ["middle"]}],
    },
    "factions": [{"id": "blue", "treasury": 1000}, {"id": "red", "treasury": 1000}],
    "relations": [{"between": ["blue", "red"], "state": "war"}],
    "ship_types": [{"id": "frigate", "cost": 100, "attack": 4, "health": 10}],
    "fleets": [],
}


def fleet(fid: str, owner: str, at: str, ships: int = 1, **extra: Any) -> dict[str, Any]:
    return {
        "id": fid,
        "owner": owner,
        "at": at,
        "ships": [{"id": f"{fid}-{n}", "type": "frigate"} for n in range(1, ships + 1)],
        **extra,
    }


def sea_lane(*fleets: dict[str, Any], **changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(SEA_LANE)
    doc["fleets"] = list(fleets)
    doc.update(changes)
    return doc


def world_of(doc: dict[str, Any]) -> World:
    return parse_scenario(doc).world
