"""Small scenario documents for the report tests; the engine resolves them for real."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engine.naval import adjudicate
from reports import Names

Doc = dict[str, Any]

SKIRMISH = Path(__file__).resolve().parents[2] / "examples" / "baltic-skirmish.scenario.json"

# Three seas in a row (west - middle - east); blue's port haven looks onto middle, red's port
# fort onto east.
_SEAS: Doc = {
    "format": "naval-scenario/1",
    "map": {
        "provinces": [
            {"id": "west", "kind": "sea"},
            {"id": "middle", "kind": "sea"},
            {"id": "east", "kind": "sea"},
            {"id": "isle", "kind": "land"},
            {"id": "cape", "kind": "land"},
        ],
        "adjacent": [
            ["west", "middle"],
            ["middle", "east"],
            ["isle", "middle"],
            ["cape", "east"],
        ],
        "ports": [
            {"id": "haven", "province": "isle", "owner": "blue", "waters": ["middle"]},
            {"id": "fort", "province": "cape", "owner": "red", "waters": ["east"]},
        ],
    },
    "relations": [{"between": ["blue", "red"], "state": "war"}],
    "ship_types": [
        {"id": "frigate", "cost": 100, "attack": 4, "health": 10},
        {"id": "galley", "cost": 40, "attack": 2, "health": 6},
    ],
}

NAMES = Names(
    factions={"blue": "Azure Crown", "red": "Scarlet League", "danes": "Denmark"},
    provinces={"middle": "Middle Sea", "oresund": "Øresund"},
    ports={"haven": "Safe Haven", "copenhagen": "Copenhagen"},
    colours={"blue": "#1d4f91", "red": "#a3271b", "danes": "not a colour"},
)


def ships(prefix: str, count: int, kind: str = "frigate", **extra: Any) -> list[Doc]:
    return [{"id": f"{prefix}-{n}", "type": kind, **extra} for n in range(1, count + 1)]


def seas(**changes: Any) -> Doc:
    doc = copy.deepcopy(_SEAS)
    doc.update(changes)
    return doc


def economy_world() -> Doc:
    """Blue hires, repairs and wins a buy-out; red is outbid, disbands a ship, cannot pay all its
    upkeep (mutiny) and has an order refused."""
    return seas(
        factions=[
            {"id": "blue", "treasury": 500, "income": 50},
            {"id": "red", "treasury": 25, "income": 0},
        ],
        fleets=[
            {"id": "b1", "owner": "blue", "at": "middle", "ships": ships("b1", 1)},
            {
                "id": "b2",
                "owner": "blue",
                "at": "haven",
                "docked": True,
                "ships": ships("b2", 1, health=3),
            },
            {"id": "r1", "owner": "red", "at": "east", "ships": ships("r1", 3)},
            {"id": "r2", "owner": "red", "at": "fort", "docked": True, "ships": ships("r2", 2)},
            {
                "id": "p1",
                "owner": "pirates",
                "at": "middle",
                "adrift": True,
                "ships": ships("p1", 2, "galley", owner="pirates"),
            },
        ],
        orders=[
            {"type": "hire", "faction": "blue", "port": "haven", "ship_type": "galley", "count": 1},
            {"type": "repair", "fleet": "b2"},
            {"type": "buyout", "faction": "blue", "fleet": "b1", "adrift_fleet": "p1", "offer": 4},
            {"type": "buyout", "faction": "red", "fleet": "r1", "adrift_fleet": "p1", "offer": 3},
            {"type": "disband", "fleet": "r2", "ships": ["r2-2"]},
            {"fleet": "r1", "type": "move", "path": ["west"]},
        ],
    )


def blockade_world() -> Doc:
    """Red's r1 blockades blue's haven from middle; blue's b1 sails in from west and beats it;
    r1 gets away (D6) but finds blue fleets in both neighbouring seas and surrenders (R5)."""
    return seas(
        # Round 1: initiative 6-1 for blue (D1); r1's retreat roll 6 against 1 succeeds (D6).
        dice=[6, 1, 6, 1],
        factions=[{"id": "blue", "treasury": 200}, {"id": "red", "treasury": 200}],
        fleets=[
            {"id": "b1", "owner": "blue", "at": "west", "ships": ships("b1", 4)},
            {"id": "b3", "owner": "blue", "at": "west", "ships": ships("b3", 1)},
            {"id": "b4", "owner": "blue", "at": "east", "ships": ships("b4", 1)},
            {
                "id": "r1",
                "owner": "red",
                "at": "middle",
                "blockading": "haven",
                "ships": ships("r1", 3),
            },
        ],
        orders=[
            {"fleet": "b1", "type": "move", "path": ["middle"]},
            {"fleet": "r1", "type": "hold", "retreat": {"below": 0.9}},
        ],
    )


def skirmish() -> Doc:
    doc: Doc = json.loads(SKIRMISH.read_text(encoding="utf-8"))
    return doc


def resolved(doc: Doc) -> tuple[Doc, Doc]:
    """The stored pair a campaign keeps for a turn: the locked scenario and its result."""
    return doc, adjudicate(copy.deepcopy(doc))
