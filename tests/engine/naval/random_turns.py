"""Random but reproducible turns: small maps, many factions, orders good and bad.

Used to check the invariants on turns nobody wrote by hand (like MILA's hash check after every
case, but over generated games).
"""

from __future__ import annotations

import random
from typing import Any

KINDS = [
    {"id": "sloop", "cost": 40, "attack": 1, "health": 4},
    {"id": "frigate", "cost": 105, "attack": 3, "health": 10},
    {"id": "liner", "cost": 300, "attack": 8, "health": 20},
]
STANCES = ["engage", "engage", "evade"]
RETREATS: list[Any] = ["never", {"below": 0.5}, {"after_round": 2}, {"after_round": 5}]


def random_turn(seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    seas = [f"s{n:02}" for n in range(rng.randint(4, 12))]
    lands = [f"l{n}" for n in range(rng.randint(1, 4))]
    adjacent = {tuple(sorted((seas[i], seas[i + 1]))) for i in range(len(seas) - 1)}
    for _ in range(len(seas)):
        a, b = rng.sample(seas, 2)
        adjacent.add(tuple(sorted((a, b))))
    factions = [f"f{n}" for n in range(rng.randint(2, 5))]
    ports = []
    for n, land in enumerate(lands):
        waters = sorted(rng.sample(seas, rng.randint(1, 2)))
        for water in waters:
            adjacent.add(tuple(sorted((land, water))))
        ports.append(
            {"id": f"port{n}", "province": land, "owner": rng.choice(factions), "waters": waters}
        )
    relations = []
    for i, a in enumerate(factions):
        for b in factions[i + 1 :]:
            relations.append(
                {"between": [a, b], "state": rng.choice(["war", "war", "peace", "alliance"])}
            )
    fleets = []
    ship_no = 0
    for n in range(rng.randint(2, 14)):
        owner = rng.choice([*factions, "pirates"])
        docked = bool(ports) and rng.random() < 0.2 and owner != "pirates"
        at = rng.choice(ports)["id"] if docked else rng.choice(seas)
        ships = []
        for _ in range(rng.randint(1, 6)):
            kind = rng.choice(KINDS)
            ship_no += 1
            ships.append(
                {
                    "id": f"x{ship_no:03}",
                    "type": kind["id"],
                    "health": rng.randint(1, kind["health"]),
                }
            )
        fleets.append(
            {
                "id": f"fl{n:02}",
                "owner": owner,
                "at": at,
                "docked": docked,
                "adrift": owner == "pirates" and rng.random() < 0.3,
                "mp_penalty": rng.choice([0, 0, 1]),
                "ships": ships,
            }
        )
    doc = {
        "format": "naval-scenario/1",
        "seed": seed,
        "rules": {"max_rounds": rng.randint(2, 10), "fleet_limit": rng.choice([6, 8, 20])},
        "map": {
            "provinces": [{"id": s, "kind": "sea"} for s in seas]
            + [{"id": land, "kind": "land"} for land in lands],
            "adjacent": [list(pair) for pair in sorted(adjacent)],
            "ports": ports,
        },
        "factions": [
            {"id": f, "treasury": rng.randint(0, 400), "income": rng.randint(0, 50)}
            for f in factions
        ],
        "relations": relations,
        "ship_types": KINDS,
        "fleets": fleets,
    }
    doc["orders"] = [_order(rng, doc, f) for f in fleets] + _economy(rng, doc)
    return doc


def _order(rng: random.Random, doc: dict[str, Any], fleet: dict[str, Any]) -> dict[str, Any]:
    seas = [p["id"] for p in doc["map"]["provinces"] if p["kind"] == "sea"]
    ports = doc["map"]["ports"]
    neighbours: dict[str, list[str]] = {}
    for a, b in doc["map"]["adjacent"]:
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    start = fleet["at"]
    here = (
        rng.choice(next(p for p in ports if p["id"] == start)["waters"])
        if fleet["docked"]
        else start
    )
    path = [here] if fleet["docked"] else []
    for _ in range(rng.randint(1, 2)):
        options = [p for p in neighbours.get(here, []) if p in seas] or seas
        here = rng.choice(options)
        path.append(here)
    path = path[:2]
    kind = rng.choice(
        ["move", "move", "move", "hold", "support", "enter_port", "blockade", "split", "merge"]
    )
    order: dict[str, Any] = {
        "fleet": fleet["id"],
        "type": kind,
        "stance": rng.choice(STANCES),
        "retreat": rng.choice(RETREATS),
        "prefer": rng.choice(["sink", "capture"]),
        "if_cornered": rng.choice(["surrender", "attack"]),
    }
    if kind == "move":
        order["path"] = path
    elif kind in ("enter_port", "blockade") and ports:
        order["port"] = rng.choice(ports)["id"]
        order["path"] = path[:1]
    elif kind == "support":
        order["faction"] = rng.choice([f["id"] for f in doc["factions"]])
    elif kind == "split" and len(fleet["ships"]) > 1:
        order["ships"] = [fleet["ships"][0]["id"]]
        order["new_fleet"] = f"{fleet['id']}-split"
    elif kind == "merge":
        order["into"] = rng.choice(doc["fleets"])["id"] if doc.get("fleets") else fleet["id"]
    else:
        order = {"fleet": fleet["id"], "type": "hold"}
    return order


def _economy(rng: random.Random, doc: dict[str, Any]) -> list[dict[str, Any]]:
    orders: list[dict[str, Any]] = []
    factions = [f["id"] for f in doc["factions"]]
    for port in doc["map"]["ports"]:
        if rng.random() < 0.6:
            orders.append(
                {
                    "type": "hire",
                    "faction": rng.choice(factions),
                    "port": port["id"],
                    "ship_type": rng.choice(KINDS)["id"],
                    "count": rng.randint(1, 3),
                }
            )
    for fleet in doc["fleets"]:
        roll = rng.random()
        if roll < 0.15:
            orders.append({"type": "repair", "fleet": fleet["id"]})
        elif roll < 0.25 and fleet["owner"] != "pirates":
            orders.append(
                {"type": "disband", "fleet": fleet["id"], "ships": [fleet["ships"][0]["id"]]}
            )
        elif roll < 0.45 and fleet["owner"] != "pirates":
            adrift = [f for f in doc["fleets"] if f["adrift"]]
            if adrift:
                orders.append(
                    {
                        "type": "buyout",
                        "faction": fleet["owner"],
                        "fleet": fleet["id"],
                        "adrift_fleet": rng.choice(adrift)["id"],
                    }
                )
    return orders


def situation_turn(seed: int) -> dict[str, Any]:
    """A generated turn built for the audit's hard situations (issue 9): an alliance chain with a
    war inside it (X27), joint fleets of several owners short of money (X21, X35), several
    buy-outs by one faction and one buyer fleet (X33), and mixed sides, holders and newcomers of
    one side together, that want to part (D6, X29, X30)."""
    rng = random.Random(f"situation:{seed}")
    seas = [f"s{n:02}" for n in range(rng.randint(3, 7))]
    adjacent = {tuple(sorted((seas[i], seas[i + 1]))) for i in range(len(seas) - 1)}
    for _ in range(len(seas) // 2):
        a, b = rng.sample(seas, 2)
        adjacent.add(tuple(sorted((a, b))))
    # An alliance chain alba - bora - cato with a war inside it (alba - cato); dora at war with
    # some of them. Listed out of order so that the engine's own order is what counts.
    factions = ["cato", "alba", "dora", "bora"]
    relations = [
        {"between": ["alba", "bora"], "state": "alliance"},
        {"between": ["bora", "cato"], "state": "alliance"},
        {"between": ["alba", "cato"], "state": "war"},
    ]
    for other in ("alba", "bora", "cato"):
        relations.append({"between": [other, "dora"], "state": rng.choice(["war", "peace"])})
    allies = {"alba": ["bora"], "bora": ["alba", "cato"], "cato": ["bora"], "dora": []}
    fleets: list[dict[str, Any]] = []
    ship_no = 0
    counters: dict[str, int] = {}
    for _ in range(rng.randint(4, 10)):
        owner = rng.choice(factions)
        counters[owner] = counters.get(owner, 0) + 1
        ships = []
        for _ in range(rng.randint(1, 4)):
            kind = rng.choice(KINDS)
            ship_no += 1
            ship: dict[str, Any] = {
                "id": f"x{ship_no:03}",
                "type": kind["id"],
                "health": rng.randint(1, kind["health"]),
            }
            if allies[owner] and rng.random() < 0.4:  # a joint fleet (W7)
                ship["owner"] = rng.choice(allies[owner])
            ships.append(ship)
        fleets.append(
            {
                "id": f"{owner[:2]}-{counters[owner]}",
                "owner": owner,
                "at": rng.choice(seas),
                "ships": ships,
            }
        )
    for n in range(rng.randint(1, 3)):  # adrift crews, for several buy-outs
        ship_no += 1
        kind = rng.choice(KINDS)
        fleets.append(
            {
                "id": f"pi-{n + 1}",
                "owner": "pirates",
                "at": rng.choice(seas),
                "adrift": True,
                "ships": [{"id": f"x{ship_no:03}", "type": kind["id"]}],
            }
        )
    doc: dict[str, Any] = {
        "format": "naval-scenario/1",
        "seed": seed,
        "rules": {"max_rounds": rng.randint(2, 6)},
        "map": {
            "provinces": [{"id": s, "kind": "sea"} for s in seas],
            "adjacent": [list(pair) for pair in sorted(adjacent)],
        },
        "factions": [{"id": f, "treasury": rng.randint(0, 60)} for f in factions],
        "relations": relations,
        "ship_types": KINDS,
        "fleets": fleets,
    }
    doc["orders"] = [_situation_order(rng, doc, f) for f in fleets if f["owner"] != "pirates"]
    doc["orders"] += _situation_buyouts(rng, fleets)
    return doc


def _situation_order(
    rng: random.Random, doc: dict[str, Any], fleet: dict[str, Any]
) -> dict[str, Any]:
    """Holders stay, newcomers come in; most want to part after a round (both sides wanting to
    retreat part without a roll, D6)."""
    neighbours = [
        b if a == fleet["at"] else a for a, b in doc["map"]["adjacent"] if fleet["at"] in (a, b)
    ]
    order: dict[str, Any] = {
        "fleet": fleet["id"],
        "type": "hold",
        "retreat": rng.choice([{"after_round": 1}, {"after_round": 1}, "never"]),
        "stance": rng.choice(["engage", "engage", "evade"]),
        "prefer": rng.choice(["sink", "capture"]),
        "if_cornered": rng.choice(["surrender", "attack"]),
    }
    if neighbours and rng.random() < 0.6:
        path = [rng.choice(neighbours)]
        if rng.random() < 0.5:
            path.append(fleet["at"])  # out and back, to meet again after a parting (X29)
        order.update(type="move", path=path)
    return order


def _situation_buyouts(rng: random.Random, fleets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One buyer fleet bids for every adrift fleet (X33), sometimes twice for one; others bid."""
    adrift = [f["id"] for f in fleets if f.get("adrift")]
    buyers = [f for f in fleets if f["owner"] != "pirates"]
    orders: list[dict[str, Any]] = []
    if not buyers:
        return orders
    main = rng.choice(buyers)
    for target in adrift:
        orders.append(
            {
                "type": "buyout",
                "faction": main["owner"],
                "fleet": main["id"],
                "adrift_fleet": target,
            }
        )
    if adrift and rng.random() < 0.3:  # a second bid of the same faction for one: duplicate
        orders.append(dict(orders[0]))
    for other in rng.sample(buyers, min(2, len(buyers))):
        if other is not main and adrift:
            orders.append(
                {
                    "type": "buyout",
                    "faction": other["owner"],
                    "fleet": other["id"],
                    "adrift_fleet": rng.choice(adrift),
                    "offer": rng.randint(1, 40),
                }
            )
    return orders
