"""Deterministic campaign generator: a `naval-scenario/1` document from a seed.

The map is a ring of sea provinces plus random chords (average degree ~5), with land provinces that
each hold one port. Fleets are concentrated around "hotspots": each fleet starts two steps away from
a hotspot and is ordered to sail there (a valid two-step `move`), so many hostile fleets meet and
fight, both on the way (step 1) and at the hotspot (step 2).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

SHIP_TYPES: tuple[dict[str, Any], ...] = (
    {"id": "sloop", "cost": 60, "attack": 2, "health": 10},
    {"id": "frigate", "cost": 100, "attack": 3, "health": 15},
    {"id": "liner", "cost": 200, "attack": 4, "health": 20},
)


@dataclass(frozen=True, slots=True)
class Spec:
    """The size of a generated campaign."""

    fleets: int
    sea: int = 1000
    land: int = 100  # one port in each
    factions: int = 40
    ships_per_fleet: int = 10
    degree: float = 5.0  # average degree of the sea graph
    fleets_per_hotspot: int = 5
    seed: int = 1


def _sea_graph(rng: random.Random, seas: list[str], degree: float) -> set[tuple[str, str]]:
    n = len(seas)
    edges = {tuple(sorted((seas[i], seas[(i + 1) % n]))) for i in range(n)}
    target = max(len(edges), round(n * degree / 2))
    while len(edges) < target:
        a, b = rng.sample(seas, 2)
        edges.add(tuple(sorted((a, b))))
    return edges  # type: ignore[return-value]


def generate(spec: Spec) -> dict[str, Any]:
    """A scenario document: map, factions, relations, ship types, fleets and one move per fleet."""
    rng = random.Random(spec.seed)
    seas = [f"s{i:04d}" for i in range(spec.sea)]
    lands = [f"l{i:03d}" for i in range(spec.land)]
    factions = [f"f{i:02d}" for i in range(spec.factions)]
    edges = _sea_graph(rng, seas, spec.degree)
    neighbours: dict[str, list[str]] = {s: [] for s in seas}
    for a, b in sorted(edges):
        neighbours[a].append(b)
        neighbours[b].append(a)
    adjacent = [list(e) for e in sorted(edges)]
    ports = []
    for i, land in enumerate(lands):
        first = rng.randrange(spec.sea)
        waters = sorted({seas[first], seas[(first + 1) % spec.sea]})
        adjacent.extend([land, w] for w in waters)
        ports.append(
            {"id": f"p{i:03d}", "province": land, "owner": rng.choice(factions), "waters": waters}
        )
    relations = []
    for i, a in enumerate(factions):
        for b in factions[i + 1 :]:
            state = rng.choices(("war", "peace", "alliance"), (50, 40, 10))[0]
            if state != "peace":
                relations.append({"between": [a, b], "state": state})
    hotspots = rng.sample(seas, max(1, min(spec.sea, spec.fleets // spec.fleets_per_hotspot)))
    fleets, orders = [], []
    for i in range(spec.fleets):
        fid = f"F{i:05d}"
        target = rng.choice(hotspots)
        via = rng.choice(neighbours[target])
        start = rng.choice([p for p in neighbours[via] if p != target] or [target])
        ships = []
        for j in range(spec.ships_per_fleet):
            kind = rng.choice(SHIP_TYPES)
            ships.append({"id": f"{fid}-{j:02d}", "type": kind["id"], "health": kind["health"]})
        fleets.append({"id": fid, "owner": rng.choice(factions), "at": start, "ships": ships})
        order: dict[str, Any] = {"fleet": fid, "type": "move", "path": [via, target]}
        if rng.random() < 0.5:  # half the fleets leave a battle at half strength (D6)
            order["retreat"] = {"below": 0.5}
        orders.append(order)
    return {
        "format": "naval-scenario/1",
        "seed": spec.seed,
        "map": {
            "provinces": [{"id": p, "kind": "sea"} for p in seas]
            + [{"id": p, "kind": "land"} for p in lands],
            "adjacent": adjacent,
            "ports": ports,
        },
        "factions": [{"id": f, "treasury": 100_000, "income": 1_000} for f in factions],
        "relations": relations,
        "ship_types": [dict(t) for t in SHIP_TYPES],
        "fleets": fleets,
        "orders": orders,
    }
