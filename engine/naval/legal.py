"""What a fleet can do now (for order forms): `legal_orders(world, fleet_id)`.

Built from the same checks as `validation`, so every option offered is accepted when submitted
(tests assert it). Paths are the shortest, neighbours in id order, so the offer is deterministic.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from engine.naval.validation import buyout_price, movement_points
from engine.naval.world import PIRATES, Fleet, World


@dataclass(frozen=True, slots=True)
class LegalOrders:
    fleet: str
    points: int  # M1: movement points this turn (less the support penalty, S3)
    adrift: bool  # X25: an adrift fleet can only hold
    moves: dict[str, tuple[str, ...]]  # M2: sea province -> the shortest path there
    enter_port: dict[str, tuple[str, ...]]  # M3: port -> path to one of its waters (then +1)
    blockade: dict[str, tuple[str, ...]]  # B1: hostile port -> path to one of its waters (+1)
    support: tuple[str, ...]  # S1, X10: factions it may support (at sea, not at war with them)
    merge_into: tuple[str, ...]  # W5, W7: own or allied fleets in the same place, room enough
    can_split: bool  # W5: two ships or more
    repair: tuple[str, ...]  # P2: damaged ships, if docked in an own or allied working port
    buyout: dict[str, int]  # U4: adrift fleets in range -> the price for the whole fleet


def legal_orders(world: World, fleet_id: str) -> LegalOrders:
    fleet = world.fleets[fleet_id]
    points = movement_points(world, fleet)
    if fleet.adrift:
        return LegalOrders(fleet.id, points, True, {}, {}, {}, (), (), False, (), {})
    reach = _reachable(world, fleet, points)
    blockaded = {f.blockading for f in world.fleets.values() if f.blockading is not None}
    enter, blockade = {}, {}
    for port in world.map.ports.values():
        route = _route_to_waters(world, fleet, port.waters, reach, points - 1)
        if route is None:
            continue
        if world.relations.friendly(fleet.owner, port.owner) and port.id not in blockaded:
            enter[port.id] = route
        elif world.relations.hostile(fleet.owner, port.owner):
            blockade[port.id] = route
    return LegalOrders(
        fleet=fleet.id,
        points=points,
        adrift=False,
        moves={p: path for p, path in reach.items() if path},
        enter_port=enter,
        blockade=blockade,
        support=() if fleet.docked else _supportable(world, fleet),
        merge_into=_merge_targets(world, fleet),
        can_split=len(fleet.ships) >= 2,
        repair=_repairable(world, fleet, blockaded),
        buyout=_buyouts(world, fleet),
    )


def _reachable(world: World, fleet: Fleet, points: int) -> dict[str, tuple[str, ...]]:
    """Sea provinces within `points` steps -> the shortest path ("" start -> ())."""
    start = fleet.at
    paths: dict[str, tuple[str, ...]] = {} if fleet.docked else {start: ()}
    queue: deque[tuple[str, tuple[str, ...]]] = deque()
    if fleet.docked:
        for water in sorted(world.map.ports[start].waters):
            if points >= 1 and water not in paths:
                paths[water] = (water,)
                queue.append((water, (water,)))
    else:
        queue.append((start, ()))
    while queue:
        here, path = queue.popleft()
        if len(path) >= points:
            continue
        for there in world.map.sea_neighbours(here):
            if there not in paths:
                paths[there] = (*path, there)
                queue.append((there, paths[there]))
    return paths


def _route_to_waters(
    world: World,
    fleet: Fleet,
    waters: tuple[str, ...],
    reach: dict[str, tuple[str, ...]],
    budget: int,
) -> tuple[str, ...] | None:
    options = [reach[w] for w in waters if w in reach and len(reach[w]) <= budget]
    return min(options, key=lambda p: (len(p), p)) if options else None


def _supportable(world: World, fleet: Fleet) -> tuple[str, ...]:
    factions = [*world.factions, PIRATES]
    return tuple(f for f in factions if not world.relations.hostile(fleet.owner, f))


def _merge_targets(world: World, fleet: Fleet) -> tuple[str, ...]:
    limit = world.rules.fleet_limit
    return tuple(
        other.id
        for other in world.fleets.values()
        if other.id != fleet.id
        and (other.at, other.docked) == (fleet.at, fleet.docked)
        and not other.adrift
        and world.relations.friendly(fleet.owner, other.owner)
        and len(other.ships) + len(fleet.ships) <= limit
    )


def _repairable(world: World, fleet: Fleet, blockaded: set[str]) -> tuple[str, ...]:
    if not fleet.docked or fleet.at in blockaded:
        return ()
    if not world.relations.friendly(fleet.owner, world.map.ports[fleet.at].owner):
        return ()
    return tuple(s.id for s in fleet.ships if s.health < s.type.health)


def _buyouts(world: World, fleet: Fleet) -> dict[str, int]:
    if fleet.docked or fleet.owner == PIRATES:
        return {}
    near = {fleet.at, *world.map.neighbours.get(fleet.at, ())}
    return {
        other.id: sum(buyout_price(world, s.type.cost) for s in other.ships)
        for other in world.fleets.values()
        if other.adrift and other.at in near
    }
