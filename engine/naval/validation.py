"""Checking orders before anything moves (naval.md T1 step 1, X23, X26).

`check_orders` turns the raw orders of a turn into accepted order values and refusals. A refused
order changes nothing: its fleet holds with the default standing keys. `validate_order` checks one
order on its own, for an order form. Checks that depend on what happens during the turn (merges
into split-off fleets, funds, blockades set this turn, buyers in range) run later, at their step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from engine.naval.orders import (
    DEFAULT_STANDING,
    ECONOMY_ORDER_TYPES,
    FLEET_ORDER_TYPES,
    ORDER_KEYS,
    STANDING_KEYS,
    Buyout,
    Disband,
    EconomyOrder,
    FleetOrder,
    Hire,
    RawOrder,
    Repair,
    RetreatWhen,
    Standing,
)
from engine.naval.refusals import Refusal, Refused
from engine.naval.rules import as_fraction, rate_of
from engine.naval.world import PIRATES, Fleet, World


@dataclass(slots=True)
class CheckedOrders:
    fleet_orders: dict[str, FleetOrder] = field(default_factory=dict)
    economy: list[EconomyOrder] = field(default_factory=list)
    refusals: list[Refusal] = field(default_factory=list)


def check_orders(world: World, raw_orders: Sequence[RawOrder]) -> CheckedOrders:
    """T1 (1): every order checked in file order; the first order for a fleet takes its slot."""
    checked = CheckedOrders()
    slots: set[tuple[str, ...]] = set()
    new_fleets: set[str] = set()
    for raw in raw_orders:
        try:
            order = _check_one(world, raw, slots, new_fleets)
        except Refused as refused:
            checked.refusals.append(Refusal(raw.index, refused.code, refused.message))
            continue
        if isinstance(order, FleetOrder):
            checked.fleet_orders[order.fleet] = order
        else:
            checked.economy.append(order)
    return checked


def validate_order(world: World, order: dict[str, object], *, index: int = 0) -> Refusal | None:
    """Check one order against the world as it stands (for order forms); None when acceptable."""
    try:
        _check_keys(order)
        _check_one(world, RawOrder(index, dict(order)), set(), set())
    except Refused as refused:
        return Refusal(index, refused.code, refused.message)
    return None


def _check_keys(order: dict[str, object]) -> None:
    """X23: an order with a key its type does not take is refused (a scenario file with one is
    invalid as a whole; an order given alone is refused on its own)."""
    kind = order.get("type")
    allowed = ORDER_KEYS.get(kind) if isinstance(kind, str) else None
    if allowed is None:
        return  # refused for its type by _check_one
    for key in order:
        if key != "type" and key not in allowed:
            raise Refused("invalid_order", f"a {kind} order takes no key {key!r}")


def movement_points(world: World, fleet: Fleet) -> int:
    """M1: the turn's points less the support penalty (S3)."""
    return max(0, world.rules.movement_points - fleet.mp_penalty)


def buyout_price(world: World, ship_type_cost: int) -> int:
    """U4 / X22: half of the rounded upkeep, rounded half up again (cost 105 → 11 → 6)."""
    return rate_of(rate_of(ship_type_cost, world.rules.upkeep_rate), world.rules.buyout_rate)


# --- one order -----------------------------------------------------------------------------------


def _check_one(
    world: World, raw: RawOrder, slots: set[tuple[str, ...]], new_fleets: set[str]
) -> FleetOrder | EconomyOrder:
    kind = raw.type
    if not isinstance(kind, str):
        raise Refused("invalid_order", f"{kind!r} is not an order type")
    if kind in FLEET_ORDER_TYPES:
        return _check_fleet_order(world, raw, str(kind), slots, new_fleets)
    if kind in ECONOMY_ORDER_TYPES:
        return _check_economy_order(world, raw, str(kind), slots)
    raise Refused("invalid_order", f"{kind!r} is not an order type")


def _check_fleet_order(
    world: World, raw: RawOrder, kind: str, slots: set[tuple[str, ...]], new_fleets: set[str]
) -> FleetOrder:
    data = raw.data
    fleet = _fleet(world, data, "fleet")
    _take_slot(slots, ("fleet", fleet.id))
    standing = _standing(world, data)
    if fleet.adrift and kind != "hold":
        raise Refused("invalid_order", f"{fleet.id} is adrift: it can only hold (X25)")
    if kind == "hold":
        return FleetOrder(raw.index, fleet.id, kind, standing)
    if kind == "move":
        path = _path(world, fleet, data, required=True)
        _check_points(world, fleet, len(path))
        return FleetOrder(raw.index, fleet.id, kind, standing, path=path)
    if kind == "enter_port":
        return _check_enter_port(world, fleet, raw, standing)
    if kind == "blockade":
        return _check_blockade(world, fleet, raw, standing)
    if kind == "support":
        faction = _faction(world, data, "faction", allow_pirates=True)
        if fleet.docked:
            raise Refused("not_sea", f"{fleet.id} is docked in port and cannot support (X10)")
        return FleetOrder(raw.index, fleet.id, kind, standing, faction=faction)
    if kind == "split":
        ships = _ship_ids(fleet, data, "ships", required=True)
        if len(ships) >= len(fleet.ships):
            raise Refused("invalid_order", f"a split must leave at least one ship in {fleet.id}")
        new_fleet = data.get("new_fleet")
        if not isinstance(new_fleet, str) or not new_fleet:
            raise Refused("invalid_order", "a split needs the id of the new fleet (new_fleet)")
        if new_fleet in world.fleets or new_fleet in new_fleets:
            raise Refused("invalid_order", f"there is already a fleet called {new_fleet}")
        new_fleets.add(new_fleet)
        return FleetOrder(raw.index, fleet.id, kind, standing, ships=ships, new_fleet=new_fleet)
    # merge: the target may be a fleet split off this turn, so the rest is checked at the merge
    into = data.get("into")
    if not isinstance(into, str) or not into:
        raise Refused("invalid_order", "a merge needs the fleet to join (into)")
    if into == fleet.id:
        raise Refused("invalid_order", f"{fleet.id} cannot merge into itself")
    return FleetOrder(raw.index, fleet.id, kind, standing, into=into)


def _check_enter_port(world: World, fleet: Fleet, raw: RawOrder, standing: Standing) -> FleetOrder:
    """M3: own or allied, not blockaded (as the turn began, X18), from one of its waters."""
    port = _port(world, raw.data)
    path = _path(world, fleet, raw.data, required=False)
    owner = world.map.ports[port].owner
    if not world.relations.friendly(fleet.owner, owner):
        raise Refused("not_friendly_port", f"{port} belongs to {owner}, who is not your ally")
    if any(f.blockading == port for f in world.fleets.values()):
        raise Refused("port_blockaded", f"{port} is blockaded and cannot be entered (B3)")
    _check_in_waters(world, fleet, path, port)
    _check_points(world, fleet, len(path) + 1)
    return FleetOrder(raw.index, fleet.id, "enter_port", standing, path=path, port=port)


def _check_blockade(world: World, fleet: Fleet, raw: RawOrder, standing: Standing) -> FleetOrder:
    """B1: a hostile port, from one of its waters, for 1 movement point."""
    port = _port(world, raw.data)
    path = _path(world, fleet, raw.data, required=False)
    owner = world.map.ports[port].owner
    if not world.relations.hostile(fleet.owner, owner):
        raise Refused("not_hostile", f"{port} belongs to {owner}, who is not at war with you")
    _check_in_waters(world, fleet, path, port)
    _check_points(world, fleet, len(path) + 1)
    return FleetOrder(raw.index, fleet.id, "blockade", standing, path=path, port=port)


def _check_economy_order(
    world: World, raw: RawOrder, kind: str, slots: set[tuple[str, ...]]
) -> EconomyOrder:
    data = raw.data
    if kind == "hire":
        return _check_hire(world, raw)
    fleet = _fleet(world, data, "fleet")
    if kind == "buyout":
        return _check_buyout(world, raw, fleet, slots)
    _take_slot(slots, (kind, fleet.id))  # repair or disband
    if fleet.adrift:
        raise Refused("invalid_order", f"{fleet.id} is adrift: it can only hold (X25)")
    ships = _ship_ids(fleet, data, "ships", required=False) or None
    if kind == "repair":
        return Repair(raw.index, fleet.id, ships)
    return Disband(raw.index, fleet.id, ships)


def _check_hire(world: World, raw: RawOrder) -> Hire:
    """P1, P3, X20. X23 / X34: the fleet it names is checked first (unknown_fleet), then the
    faction, not_commander, the port, the ship type and the count; the money at the hire step."""
    data = raw.data
    fleet = _fleet(world, data, "fleet") if data.get("fleet") is not None else None
    faction = _faction(world, data, "faction")
    if fleet is not None and fleet.owner != faction:
        raise Refused("not_commander", f"{fleet.id} is not commanded by {faction}")
    fleet_id = fleet.id if fleet is not None else None
    port = _port(world, data)
    ship_type = data.get("ship_type")
    if not isinstance(ship_type, str):
        raise Refused("invalid_order", "a hire needs a ship_type")
    if ship_type not in world.ship_types:
        raise Refused("unknown_ship_type", f"there is no ship type called {ship_type}")
    count = _positive_int(data, "count")
    owner = world.map.ports[port].owner
    if not world.relations.friendly(faction, owner):
        raise Refused("not_friendly_port", f"{port} belongs to {owner}, who is not your ally")
    return Hire(raw.index, faction, port, ship_type, count, fleet_id)


def _check_buyout(world: World, raw: RawOrder, fleet: Fleet, slots: set[tuple[str, ...]]) -> Buyout:
    """U4, X22, X33: the buyer's own fleet, an adrift fleet, an offer of at least the price.
    A faction's buy-out slot is the adrift fleet it names (X33), so one buyer fleet may bid for
    several; X34: unknown fleets, then the duplicate, then not_commander."""
    data = raw.data
    adrift = _fleet(world, data, "adrift_fleet")
    faction = _faction(world, data, "faction")
    _take_slot(slots, ("buyout", adrift.id, faction))
    if fleet.owner != faction:
        raise Refused("not_commander", f"{fleet.id} is not commanded by {faction}")
    if not adrift.adrift:
        raise Refused("not_adrift", f"{adrift.id} is not adrift and cannot be bought out")
    offer = data.get("offer")
    if offer is not None:
        if not isinstance(offer, int) or isinstance(offer, bool):
            raise Refused("invalid_order", "offer must be a whole amount per ship")
        price = sum(buyout_price(world, s.type.cost) for s in adrift.ships)
        if offer * len(adrift.ships) < price:  # X26: the total offer must reach the total price
            raise Refused(
                "invalid_order",
                f"{offer} a ship for {len(adrift.ships)} ships is below the price of {price}",
            )
    return Buyout(raw.index, faction, fleet.id, adrift.id, offer)


# --- pieces of an order --------------------------------------------------------------------------


def _take_slot(slots: set[tuple[str, ...]], slot: tuple[str, ...]) -> None:
    """X23: the first order for a fleet takes its slot (a second repair or disband of the same
    fleet likewise); X33: a buy-out's slot is the adrift fleet, per faction."""
    if slot in slots:
        kind, fleet, *by = slot
        what = "an order" if kind == "fleet" else f"a {kind} order"
        whose = f" from {by[0]}" if by else ""
        raise Refused("duplicate_order", f"{fleet} already has {what}{whose} this turn")
    slots.add(slot)


def _fleet(world: World, data: dict[str, object], key: str) -> Fleet:
    fleet_id = data.get(key)
    if not isinstance(fleet_id, str):
        raise Refused("invalid_order" if fleet_id is None else "unknown_fleet", f"{key} is missing")
    fleet = world.fleets.get(fleet_id)
    if fleet is None:
        raise Refused("unknown_fleet", f"there is no fleet called {fleet_id}")
    return fleet


def _faction(
    world: World, data: dict[str, object], key: str, *, allow_pirates: bool = False
) -> str:
    faction = data.get(key)
    if not isinstance(faction, str):
        raise Refused("invalid_order", f"{key} is missing")
    if faction not in world.factions and not (allow_pirates and faction == PIRATES):
        raise Refused("invalid_order", f"there is no faction called {faction}")
    return faction


def _port(world: World, data: dict[str, object]) -> str:
    port = data.get("port")
    if not isinstance(port, str):
        raise Refused("invalid_order", "port is missing")
    if port not in world.map.ports:
        raise Refused("unknown_port", f"there is no port called {port}")
    return port


def _positive_int(data: dict[str, object], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise Refused("invalid_order", f"{key} must be a whole number of at least 1")
    return value


def _ship_ids(
    fleet: Fleet, data: dict[str, object], key: str, *, required: bool
) -> tuple[str, ...]:
    ships = data.get(key)
    if ships is None and not required:
        return ()
    if not isinstance(ships, list) or not ships or not all(isinstance(s, str) for s in ships):
        raise Refused("invalid_order", f"{key} must be a non-empty list of ship ids")
    in_fleet = {s.id for s in fleet.ships}
    for ship in ships:
        if ship not in in_fleet:
            raise Refused("invalid_order", f"ship {ship} is not in {fleet.id}")
    if len(set(ships)) != len(ships):
        raise Refused("invalid_order", f"{key} names a ship twice")
    return tuple(ships)


def _path(
    world: World, fleet: Fleet, data: dict[str, object], *, required: bool
) -> tuple[str, ...]:
    """M2: each province a sea province adjacent to the last; the first adjacent to the fleet,
    or, for a docked fleet, one of its port's waters."""
    path = data.get("path")
    if path is None and not required:
        return ()
    if not isinstance(path, list) or not all(isinstance(p, str) for p in path):
        raise Refused("invalid_order", "path must be a list of province ids")
    if required and not path:
        raise Refused("invalid_order", "a move needs at least one province in its path")
    # X23: the first fault in X23's order is reported (unknown province, then not_sea, then
    # not_adjacent), wherever it lies in the path; one pass notes the first of each kind.
    provinces, ports = world.map.provinces, world.map.ports
    unknown = land = apart = None
    here = fleet.at
    for place in path:
        province = provinces.get(place)
        if province is None:
            unknown = unknown or place
        elif not province.is_sea:
            land = land or place
        if apart is None:
            if fleet.docked and here == fleet.at:
                if place not in ports[here].waters:
                    apart = (place, f"{place} is not one of the waters of {here}")
            elif not world.map.adjacent(here, place):
                apart = (place, f"{place} is not adjacent to {here}")
        here = place
    if unknown is not None:
        if unknown in ports:
            raise Refused(
                "unknown_province", f"{unknown} is a port, not a province: use enter_port to go in"
            )
        raise Refused("unknown_province", f"there is no province called {unknown}")
    if land is not None:
        raise Refused("not_sea", f"{land} is land; fleets sail only on sea provinces")
    if apart is not None:
        raise Refused("not_adjacent", apart[1])
    return tuple(path)


def _check_in_waters(world: World, fleet: Fleet, path: tuple[str, ...], port: str) -> None:
    end = path[-1] if path else fleet.at
    if (fleet.docked and not path) or end not in world.map.ports[port].waters:
        waters = ", ".join(world.map.ports[port].waters)
        raise Refused(
            "not_in_waters", f"{fleet.id} would be at {end}, not in the waters of {port} ({waters})"
        )


def _check_points(world: World, fleet: Fleet, cost: int) -> None:
    points = movement_points(world, fleet)
    if cost > points:
        raise Refused(
            "no_movement_points",
            f"the order costs {cost} movement points; {fleet.id} has {points} this turn",
        )


def _standing(world: World, data: dict[str, object]) -> Standing:
    """The standing battle keys (E2, D5, D6, R3, R4); bad values refuse the order."""
    if data.keys().isdisjoint(STANDING_KEYS):
        return DEFAULT_STANDING
    retreat_to = _provinces(world, data, "retreat_to")
    evade_to = _provinces(world, data, "evade_to")
    retreat = data.get("retreat", "never")
    if isinstance(retreat, dict):  # hashable, so that equal keys share one Standing
        if not all(isinstance(key, str) for key in retreat):
            raise Refused("invalid_order", _RETREAT_FORM)
        retreat = tuple(sorted(retreat.items()))
    try:
        hash(retreat)
    except TypeError:
        raise Refused("invalid_order", _RETREAT_FORM) from None
    # Checked before the cache, which needs hashable values (a list here is refused, not hashed).
    stance = _choice("stance", data.get("stance", "engage"), ("engage", "evade"))
    prefer = _choice("prefer", data.get("prefer", "sink"), ("sink", "capture"))
    cornered = _choice("if_cornered", data.get("if_cornered", "surrender"), ("surrender", "attack"))
    return _standing_of(stance, retreat, prefer, retreat_to, evade_to, cornered)


@lru_cache(maxsize=1024)
def _standing_of(
    stance: object,
    retreat: object,
    prefer: object,
    retreat_to: tuple[str, ...],
    evade_to: tuple[str, ...],
    if_cornered: object,
) -> Standing:
    """Orders share their standing keys; building the value once per distinct set saves time."""
    return Standing(
        stance=_choice("stance", stance, ("engage", "evade")),
        retreat=_retreat(retreat),
        prefer=_choice("prefer", prefer, ("sink", "capture")),
        retreat_to=retreat_to,
        evade_to=evade_to,
        if_cornered=_choice("if_cornered", if_cornered, ("surrender", "attack")),
    )


def _choice(key: str, value: object, allowed: tuple[str, str]) -> str:
    if value not in allowed:
        raise Refused("invalid_order", f"{key} must be {allowed[0]} or {allowed[1]}, not {value!r}")
    return str(value)


def _retreat(value: object) -> RetreatWhen:
    if value == "never":
        return RetreatWhen()
    if isinstance(value, tuple) and len(value) == 1 and isinstance(value[0], tuple):
        ((key, amount),) = value
        number = isinstance(amount, int | float) and not isinstance(amount, bool)
        if key == "below" and number and 0 < amount <= 1:
            return RetreatWhen(below=as_fraction(amount))
        if key == "after_round" and isinstance(amount, int) and number and amount >= 1:
            return RetreatWhen(after_round=amount)
    raise Refused("invalid_order", _RETREAT_FORM)


_RETREAT_FORM = 'retreat must be "never", {"below": a share between 0 and 1} or {"after_round": n}'


def _provinces(world: World, data: dict[str, object], key: str) -> tuple[str, ...]:
    if key not in data:
        return ()
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        raise Refused("invalid_order", f"{key} must be a list of province ids")
    for place in value:
        if place not in world.map.provinces:
            raise Refused("unknown_province", f"there is no province called {place}")
    return tuple(value)


__all__ = ["CheckedOrders", "buyout_price", "check_orders", "movement_points", "validate_order"]
