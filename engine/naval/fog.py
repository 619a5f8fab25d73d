"""Fog of war (issue 4; not a rule of naval.md): what a faction can see.

A faction sees the sea provinces where it has a fleet (or, for a docked fleet, its port's
waters) or a port's waters, and the sea provinces next to those; it sees every fleet at sea there
and every fleet docked in a port on those waters. Its own fleets and ports it always sees. With
fog off (a campaign setting), everyone sees everything.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.naval.world import World


def watched_seas(world: World, faction: str) -> frozenset[str]:
    """The sea provinces the faction's fleets and ports look over, and their neighbours."""
    eyes: set[str] = set()
    for fleet in world.fleets.values():
        if fleet.owner != faction and not any(s.owner == faction for s in fleet.ships):
            continue
        if fleet.docked:
            eyes.update(world.map.ports[fleet.at].waters)
        else:
            eyes.add(fleet.at)
    for port in world.map.ports.values():
        if port.owner == faction:
            eyes.update(port.waters)
    seen = set(eyes)
    for place in eyes:
        seen.update(world.map.sea_neighbours(place))
    return frozenset(seen)


def visible_fleets(world: World, faction: str | None) -> list[str]:
    """The ids of the fleets the faction can see (every fleet when `faction` is None: no fog)."""
    if faction is None:
        return list(world.fleets)
    seas = watched_seas(world, faction)
    return [
        f.id
        for f in world.fleets.values()
        if f.owner == faction
        or any(s.owner == faction for s in f.ships)
        or (not f.docked and f.at in seas)
        or (f.docked and any(w in seas for w in world.map.ports[f.at].waters))
    ]


def seen_world(world: World, faction: str, visible: Iterable[str] | None = None) -> World:
    """The world as the faction can see it: the same map, factions, relations and ship types,
    and only the fleets it can see. An order checked against it is refused for a hidden fleet
    exactly as for a fleet that does not exist (`unknown_fleet`), and no refusal can speak of
    what the faction cannot see (docs/rulings.md R-45). `visible`: `visible_fleets(world,
    faction)` when the caller has it already."""
    seen = set(visible_fleets(world, faction) if visible is None else visible)
    return World(
        world.rules,
        world.map,
        world.factions,
        world.relations,
        world.ship_types,
        {fid: f for fid, f in world.fleets.items() if fid in seen},
    )
