"""Suggested orders for pirate fleets (naval.md U3), for the moderator to accept or edit.

"Pirates roam the map for plunder and avoid strong fleets." A pirate fleet goes for the richest
prey it can reach and beat (a weaker fleet), else an undefended port to blockade, unless a
stronger fleet lies in or next to where it would end; threatened and with nothing to take, it
sails as far from the threat as it can and evades. Deterministic: ties go to the lowest id.
"""

from __future__ import annotations

from typing import Any

from engine.naval.legal import legal_orders
from engine.naval.world import PIRATES, Fleet, World


def suggest_pirate_orders(world: World) -> list[dict[str, Any]]:
    """One order per pirate fleet that is not adrift, in fleet-id order (scenario format)."""
    claimed: set[str] = set()
    return [
        _suggest(world, fleet, claimed)
        for fleet in sorted(world.fleets.values(), key=lambda f: f.id)
        if fleet.owner == PIRATES and not fleet.adrift
    ]


def _suggest(world: World, fleet: Fleet, claimed: set[str]) -> dict[str, Any]:
    mine = fleet.attack2
    strangers = [
        f for f in world.fleets.values() if f.owner != PIRATES and not f.docked and not f.adrift
    ]
    strength_at: dict[str, int] = {}
    for other in strangers:
        strength_at[other.at] = strength_at.get(other.at, 0) + other.attack2

    def dangerous(place: str) -> bool:
        near = (place, *world.map.neighbours.get(place, ()))
        return any(strength_at.get(p, 0) > mine for p in near)

    legal = legal_orders(world, fleet.id)
    standing = {"prefer": "capture", "retreat": {"below": 0.5}, "stance": "engage"}
    prey = [
        (-len(other.ships), other.at, other.id)
        for other in strangers
        if other.at in legal.moves or (other.at == fleet.at and not fleet.docked)
        if strength_at.get(other.at, 0) < mine and other.at not in claimed
    ]
    prey = [p for p in prey if not dangerous(p[1])]
    if prey:
        _, target, _ = min(prey)
        claimed.add(target)
        if target == fleet.at:
            return {"fleet": fleet.id, "type": "hold", **standing}
        return {"fleet": fleet.id, "type": "move", "path": list(legal.moves[target]), **standing}
    for port_id in sorted(legal.blockade):
        port = world.map.ports[port_id]
        if port.owner == PIRATES or port_id in claimed:
            continue
        path = legal.blockade[port_id]
        end = path[-1] if path else fleet.at
        if any(strength_at.get(w, 0) for w in port.waters) or dangerous(end):
            continue
        claimed.add(port_id)
        order: dict[str, Any] = {"fleet": fleet.id, "type": "blockade", "port": port_id}
        if path:
            order["path"] = list(path)
        return {**order, **standing}
    here = fleet.at if not fleet.docked else None
    if here is not None and dangerous(here):
        return _flee(world, fleet, legal.moves, strength_at, mine)
    return {"fleet": fleet.id, "type": "hold", **standing}


def _flee(
    world: World,
    fleet: Fleet,
    moves: dict[str, tuple[str, ...]],
    strength_at: dict[str, int],
    mine: int,
) -> dict[str, Any]:
    """Away from every stronger fleet: the reachable province with the fewest strong neighbours."""

    def threat(place: str) -> int:
        near = (place, *world.map.neighbours.get(place, ()))
        return sum(strength_at.get(p, 0) for p in near if strength_at.get(p, 0) > mine)

    evade = {"stance": "evade", "retreat": {"below": 0.5}, "prefer": "capture"}
    options = sorted(moves, key=lambda p: (threat(p), -len(moves[p]), p))
    if not options or threat(options[0]) >= threat(fleet.at):
        return {"fleet": fleet.id, "type": "hold", **evade}
    best = options[0]
    return {
        "fleet": fleet.id,
        "type": "move",
        "path": list(moves[best]),
        "evade_to": [p for p in moves if len(moves[p]) == 1 and threat(p) == 0][:3],
        **evade,
    }
