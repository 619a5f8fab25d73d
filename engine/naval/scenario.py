"""Scenario and result files (../shared/rules/scenario-format.md): dicts in, dicts out.

`parse_scenario` checks a whole file and reports every problem with its path in the file
(`fleets[3].ships[0].health`); only a file without problems becomes a `Scenario`. `result_to_dict`
writes the result in the format's shape. Reading the file from disk (JSON or YAML) is the caller's.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.kernel.dice import dice_for
from engine.kernel.problems import Checker, Problem, ScenarioError, join
from engine.naval.orders import ALL_ORDER_KEYS, ORDER_KEYS, RawOrder
from engine.naval.rules import RATE_KEYS, RULE_KEYS, Rules, as_fraction
from engine.naval.turn import TurnResult, resolve_turn
from engine.naval.world import (
    PIRATES,
    Faction,
    Fleet,
    Map,
    Port,
    Province,
    Relation,
    Relations,
    Ship,
    ShipType,
    World,
)

SCENARIO_FORMAT = "naval-scenario/1"
RESULT_FORMAT = "naval-result/1"
TOP_KEYS = frozenset(
    {
        "format",
        "seed",
        "dice",
        "rules",
        "map",
        "factions",
        "relations",
        "ship_types",
        "fleets",
        "orders",
    }
)
# naval.md X39: every rule value is at most this; some are loop bounds (max_rounds: a battle of
# ships that cannot hurt each other goes on that many rounds).
MAX_RULE = 10_000
ORDER_LIST_KEYS = ("path", "ships", "retreat_to", "evade_to")  # lists in an order (X39)
PROVINCE_KEYS = frozenset({"id", "kind"})
PORT_KEYS = frozenset({"id", "province", "owner", "waters", "blockaded_by"})
FACTION_KEYS = frozenset({"id", "treasury", "income", "upkeep_priority"})
SHIP_KEYS = frozenset({"id", "type", "health", "owner"})
FLEET_KEYS = frozenset(
    {"id", "owner", "at", "docked", "mp_penalty", "blockading", "adrift", "ships"}
)


@dataclass(frozen=True, slots=True)
class Scenario:
    world: World
    orders: tuple[RawOrder, ...] = ()
    seed: int = 0
    dice: tuple[int, ...] = ()


def adjudicate(data: object) -> dict[str, Any]:
    """A scenario document in, a result document out (raises ScenarioError)."""
    scenario = parse_scenario(data)
    return result_to_dict(scenario, resolve(scenario))


def resolve(scenario: Scenario) -> TurnResult:
    return resolve_turn(scenario.world, scenario.orders, dice_for(scenario.seed, scenario.dice))


# --- reading --------------------------------------------------------------------------------------


def parse_scenario(data: object) -> Scenario:
    """Check a scenario document and build the world, or raise ScenarioError with every problem."""
    c = Checker()
    doc = c.mapping("", data)
    if doc is None:
        raise ScenarioError(c.problems)
    c.keys("", doc, TOP_KEYS)
    if doc.get("format") != SCENARIO_FORMAT:
        c.add("format", f"must be {SCENARIO_FORMAT!r}")
    seed = 0 if doc.get("seed") is None else c.integer("seed", doc.get("seed")) or 0
    dice: list[int] = []
    for i, die in enumerate(c.items_at("", doc, "dice")):
        if isinstance(die, int) and not isinstance(die, bool) and 1 <= die <= 6:
            dice.append(die)
        else:
            c.add(join("dice", i), "a die is a whole number from 1 to 6")
    # X39: a list or an object left out takes its default; given as null, it is a problem.
    rules = _rules(c, c.mapping_at("", doc, "rules"))
    if "map" not in doc:
        c.add("map", "is required")
    game_map = _map(c, c.mapping_at("", doc, "map") or {})
    factions = _factions(c, c.items_at("", doc, "factions"))
    relations = _relations(c, c.items_at("", doc, "relations"), factions)
    ship_types = _ship_types(c, c.items_at("", doc, "ship_types"))
    ports_ok = all(p.owner in factions or p.owner == PIRATES for p in game_map.ports.values())
    if not ports_ok:
        for i, port in enumerate(game_map.ports.values()):
            if port.owner not in factions and port.owner != PIRATES:
                c.add(f"map.ports[{i}].owner", f"{port.owner!r} is not a listed faction (X2)")
    world = World(rules, game_map, factions, relations, ship_types, {})
    _fleets(c, c.items_at("", doc, "fleets"), world)
    _check_priorities(c, world)
    _check_port_blockades(c, doc.get("map") or {}, world)
    orders = _orders(c, c.items_at("", doc, "orders"))
    if c.problems:
        raise ScenarioError(c.problems)
    return Scenario(world, tuple(orders), seed, tuple(dice))


def _rules(c: Checker, data: dict[str, Any] | None) -> Rules:
    """The settings, each at most MAX_RULE (X39); rates between 0 and 10."""
    if data is None:
        return Rules()
    c.keys("rules", data, frozenset(RULE_KEYS))
    chosen: dict[str, Any] = {}
    for key in RULE_KEYS:
        if key not in data:
            continue
        raw = data[key]
        path = join("rules", key)
        if key in RATE_KEYS:
            if isinstance(raw, int | float) and not isinstance(raw, bool) and 0 <= raw <= 10:
                chosen[key] = as_fraction(raw)
            else:
                c.add(path, "must be a number between 0 and 10")
        else:
            low = 0 if key == "support_penalty" else 1
            number = c.integer(path, raw, low=low)
            if number is not None and number > MAX_RULE:
                c.add(path, f"must be at most {MAX_RULE}")
            elif number is not None:
                chosen[key] = number
    return Rules(**chosen)


def _map(c: Checker, data: dict[str, Any]) -> Map:
    c.keys("map", data, frozenset({"provinces", "adjacent", "ports"}))
    provinces: dict[str, Province] = {}
    for i, raw in enumerate(c.items_at("map", data, "provinces")):
        path = join("map.provinces", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        c.keys(path, item, PROVINCE_KEYS)
        pid = c.text(join(path, "id"), item.get("id"))
        kind = item.get("kind")
        if kind not in ("sea", "land"):
            c.add(join(path, "kind"), 'must be "sea" or "land"')
        if pid is not None:
            c.unique(join(path, "id"), pid, provinces, "province")
            provinces[pid] = Province(pid, str(kind))
    links: dict[str, set[str]] = {p: set() for p in provinces}
    for i, raw in enumerate(c.items_at("map", data, "adjacent")):
        path = join("map.adjacent", i)
        if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(p, str) for p in raw)):
            c.add(path, "must be a pair of province ids")
            continue
        a, b = raw
        for j, p in enumerate((a, b)):
            if p not in provinces:
                c.add(join(path, j), f"unknown province {p!r}")
        if a in provinces and b in provinces:
            if a == b:
                c.add(path, "a province is not adjacent to itself")
            links[a].add(b)
            links[b].add(a)
    neighbours = {p: tuple(sorted(n)) for p, n in links.items()}
    game_map = Map(provinces, neighbours, {})
    ports: dict[str, Port] = {}
    for i, raw in enumerate(c.items_at("map", data, "ports")):
        port = _port(c, join("map.ports", i), raw, game_map, ports)
        if port is not None:
            ports[port.id] = port
    return Map(provinces, neighbours, ports)


def _port(c: Checker, path: str, raw: object, game_map: Map, ports: dict[str, Port]) -> Port | None:
    """W2 / X1: a port lies in a land province; each water is a sea province next to it."""
    item = c.mapping(path, raw)
    if item is None:
        return None
    c.keys(path, item, PORT_KEYS)
    pid = c.text(join(path, "id"), item.get("id"))
    province = c.text(join(path, "province"), item.get("province"))
    owner = c.text(join(path, "owner"), item.get("owner"))
    if pid is not None:
        c.unique(join(path, "id"), pid, ports, "port")
        if pid in game_map.provinces:
            c.add(join(path, "id"), f"{pid!r} is also a province; port ids must differ (X1)")
    if province is not None:
        if province not in game_map.provinces:
            c.add(join(path, "province"), f"unknown province {province!r}")
        elif game_map.is_sea(province):
            c.add(join(path, "province"), f"{province!r} is sea; a port lies on land (W2)")
    waters: list[str] = []
    for j, water in enumerate(c.items_at(path, item, "waters")):
        wpath = join(join(path, "waters"), j)
        if not isinstance(water, str) or water not in game_map.provinces:
            c.add(wpath, f"unknown province {water!r}")
        elif not game_map.is_sea(water):
            c.add(wpath, f"{water!r} is land; a port's waters are sea provinces")
        elif province is not None and not game_map.adjacent(province, water):
            c.add(wpath, f"{water!r} is not adjacent to {province!r} (X1)")
        elif water in waters:
            c.add(wpath, f"{water!r} is listed twice")
        else:
            waters.append(water)
    if not waters and item.get("waters", []) == []:  # (null or bad items: said already)
        c.add(join(path, "waters"), "a port needs at least one water")
    if pid is None or province is None or owner is None:
        return None
    return Port(pid, province, owner, tuple(waters))


def _factions(c: Checker, items: list[Any]) -> dict[str, Faction]:
    factions: dict[str, Faction] = {}
    for i, raw in enumerate(items):
        path = join("factions", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        c.keys(path, item, FACTION_KEYS)
        fid = c.text(join(path, "id"), item.get("id"))
        treasury = c.integer(join(path, "treasury"), item.get("treasury", 0), low=0) or 0
        income = c.integer(join(path, "income"), item.get("income", 0), low=0) or 0
        priority = c.items_at(path, item, "upkeep_priority")
        for j, fleet in enumerate(priority):
            if not isinstance(fleet, str):
                c.add(join(join(path, "upkeep_priority"), j), "must be a fleet id")
        if fid is None:
            continue
        if fid == PIRATES:
            c.add(join(path, "id"), "pirates is the reserved pirate faction and is not listed")
            continue
        c.unique(join(path, "id"), fid, factions, "faction")
        factions[fid] = Faction(
            fid, treasury, income, tuple(f for f in priority if isinstance(f, str))
        )
    return factions


def _relations(c: Checker, items: list[Any], factions: dict[str, Faction]) -> Relations:
    pairs: dict[tuple[str, str], Relation] = {}
    for i, raw in enumerate(items):
        path = join("relations", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        c.keys(path, item, frozenset({"between", "state"}))
        between = item.get("between")
        state = item.get("state")
        if state not in ("war", "peace", "alliance"):
            c.add(join(path, "state"), 'must be "war", "peace" or "alliance"')
            continue
        if not (
            isinstance(between, list)
            and len(between) == 2
            and all(isinstance(f, str) for f in between)
            and between[0] != between[1]
        ):
            c.add(join(path, "between"), "must be two different faction ids")
            continue
        for j, fid in enumerate(between):
            if fid not in factions and fid != PIRATES:
                c.add(join(join(path, "between"), j), f"{fid!r} is not a listed faction (X2)")
        if PIRATES in between and state != "war":
            c.add(join(path, "state"), "pirates are at war with everyone (W3, X2)")
        low, high = sorted(between)
        key = (low, high)
        if key in pairs:
            c.add(path, f"the relation between {between[0]} and {between[1]} is given twice")
        pairs[key] = Relation(state)
    return Relations(pairs)


def _ship_types(c: Checker, items: list[Any]) -> dict[str, ShipType]:
    types: dict[str, ShipType] = {}
    for i, raw in enumerate(items):
        path = join("ship_types", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        c.keys(path, item, frozenset({"id", "cost", "attack", "health"}))
        tid = c.text(join(path, "id"), item.get("id"))
        cost = c.integer(join(path, "cost"), item.get("cost"), low=0)
        attack = c.integer(join(path, "attack"), item.get("attack"), low=0)
        health = c.integer(join(path, "health"), item.get("health"), low=1)
        if tid is None or cost is None or attack is None or health is None:
            continue
        c.unique(join(path, "id"), tid, types, "ship type")
        types[tid] = ShipType(tid, cost, attack, health)
    return types


def _fleets(c: Checker, items: list[Any], world: World) -> None:
    ship_ids: set[str] = set()
    for i, raw in enumerate(items):
        path = join("fleets", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        c.keys(path, item, FLEET_KEYS)
        fleet = _fleet(c, path, item, world, ship_ids)
        if fleet is not None:
            c.unique(join(path, "id"), fleet.id, world.fleets, "fleet")
            world.fleets[fleet.id] = fleet


def _fleet(
    c: Checker, path: str, item: dict[str, Any], world: World, ship_ids: set[str]
) -> Fleet | None:
    fid = c.text(join(path, "id"), item.get("id"))
    owner = c.text(join(path, "owner"), item.get("owner"))
    at = c.text(join(path, "at"), item.get("at"))
    docked = c.flag(join(path, "docked"), item.get("docked", False))
    adrift = c.flag(join(path, "adrift"), item.get("adrift", False))
    mp_penalty = c.integer(join(path, "mp_penalty"), item.get("mp_penalty", 0), low=0) or 0
    blockading = item.get("blockading")
    known = set(world.factions) | {PIRATES}
    if owner is not None and owner not in known:
        c.add(join(path, "owner"), f"{owner!r} is not a listed faction (X2)")
    if at is not None:
        if docked and at not in world.map.ports:
            c.add(join(path, "at"), f"a docked fleet is at a port; {at!r} is not one")
        elif not docked and not world.map.is_sea(at):
            what = "a port (set docked: true)" if at in world.map.ports else "not a sea province"
            c.add(join(path, "at"), f"{at!r} is {what}")
    if adrift and owner != PIRATES:
        c.add(join(path, "adrift"), "only pirate fleets are adrift (U4)")
    if blockading is not None:
        port = world.map.ports.get(blockading) if isinstance(blockading, str) else None
        if port is None:
            c.add(join(path, "blockading"), f"unknown port {blockading!r}")
        elif docked or at not in port.waters:
            c.add(join(path, "blockading"), f"the fleet is not in the waters of {port.id}")
    ships = _ships(c, join(path, "ships"), c.items_at(path, item, "ships"), world, owner, ship_ids)
    if "ships" not in item or item["ships"] == []:  # (null or not a list: c.items_at said so)
        c.add(join(path, "ships"), "a fleet has at least one ship (W5)")
    if len(ships) > world.rules.fleet_limit:
        c.add(
            join(path, "ships"),
            f"{len(ships)} ships; a fleet holds at most {world.rules.fleet_limit} (W5)",
        )
    if fid is None or owner is None or at is None:
        return None
    return Fleet(
        fid,
        owner,
        at,
        ships,
        docked=docked,
        mp_penalty=mp_penalty,
        blockading=blockading if isinstance(blockading, str) else None,
        adrift=adrift,
    )


def _ships(
    c: Checker,
    path: str,
    items: list[Any],
    world: World,
    fleet_owner: str | None,
    ship_ids: set[str],
) -> list[Ship]:
    ships: list[Ship] = []
    for j, raw in enumerate(items):
        ship = _plain_ship(raw, world, fleet_owner, ship_ids)
        if ship is not None:  # the usual case, checked without building any path
            ships.append(ship)
            continue
        spath = join(path, j)
        item = c.mapping(spath, raw)
        if item is None:
            continue
        c.keys(spath, item, SHIP_KEYS)
        sid = c.text(join(spath, "id"), item.get("id"))
        tid = item.get("type")
        ship_type = world.ship_types.get(tid) if isinstance(tid, str) else None
        if ship_type is None:
            c.add(join(spath, "type"), f"unknown ship type {tid!r}")
        owner = item.get("owner", fleet_owner)
        if owner is not None and not isinstance(owner, str):
            c.add(join(spath, "owner"), "must be a faction id")
        elif owner is not None and owner != fleet_owner:
            if owner not in world.factions and owner != PIRATES:
                c.add(join(spath, "owner"), f"{owner!r} is not a listed faction (X2)")
            elif fleet_owner is not None and not world.relations.friendly(owner, fleet_owner):
                c.add(
                    join(spath, "owner"),
                    f"{owner} is not allied with {fleet_owner}, the fleet's commander (W7)",
                )
        health = item.get("health", ship_type.health if ship_type else 1)
        if ship_type is not None:
            h = c.integer(join(spath, "health"), health, low=1)
            if h is not None and h > ship_type.health:
                c.add(
                    join(spath, "health"),
                    f"{h} is above the {ship_type.id}'s maximum of {ship_type.health}",
                )
        if sid is not None:
            c.unique(join(spath, "id"), sid, ship_ids, "ship")
        if sid is None or ship_type is None or not isinstance(owner, str):
            continue
        if not isinstance(health, int) or isinstance(health, bool):
            continue
        ships.append(Ship(sid, ship_type, health, owner))
    return ships


def _plain_ship(
    raw: object, world: World, fleet_owner: str | None, ship_ids: set[str]
) -> Ship | None:
    """A ship with nothing wrong and nothing unusual, or None to check it in full (with paths)."""
    if not isinstance(raw, dict) or not raw.keys() <= SHIP_KEYS:
        return None
    sid, tid = raw.get("id"), raw.get("type")
    ship_type = world.ship_types.get(tid) if isinstance(tid, str) else None
    if not isinstance(sid, str) or not sid or sid in ship_ids or ship_type is None:
        return None
    health = raw.get("health", ship_type.health)
    owner = raw.get("owner", fleet_owner)
    if type(health) is not int or not 1 <= health <= ship_type.health:
        return None
    if owner != fleet_owner or owner is None:
        return None
    ship_ids.add(sid)
    return Ship(sid, ship_type, health, owner)


def _check_priorities(c: Checker, world: World) -> None:
    for i, faction in enumerate(world.factions.values()):
        for j, fleet in enumerate(faction.upkeep_priority):
            if fleet not in world.fleets:
                c.add(f"factions[{i}].upkeep_priority[{j}]", f"unknown fleet {fleet!r}")


def _check_port_blockades(c: Checker, map_data: dict[str, Any], world: World) -> None:
    """The format: a port's `blockaded_by`, if given, must agree with the fleets' `blockading`."""
    raw_ports = map_data.get("ports") if isinstance(map_data, dict) else None
    if not isinstance(raw_ports, list):
        return
    for i, raw in enumerate(raw_ports):
        if not isinstance(raw, dict) or "blockaded_by" not in raw:
            continue
        given = raw["blockaded_by"]
        if given is None:  # X39 (the null itself was read past by c.items_at: not this key)
            c.add(f"map.ports[{i}].blockaded_by", "must be a list, not null")
            continue
        actual = sorted(world.blockaders_of(str(raw.get("id"))))
        if not isinstance(given, list) or sorted(map(str, given)) != actual:
            c.add(
                f"map.ports[{i}].blockaded_by", f"must agree with the fleets' blockading: {actual}"
            )


def _orders(c: Checker, items: list[Any]) -> list[RawOrder]:
    """X23: an unknown key makes the file invalid; anything else wrong is refused at the turn.
    X39: a list key given as null is a problem in the file too."""
    orders = []
    for i, raw in enumerate(items):
        path = join("orders", i)
        item = c.mapping(path, raw)
        if item is None:
            continue
        kind = item.get("type")
        allowed = ORDER_KEYS.get(kind, ALL_ORDER_KEYS) if isinstance(kind, str) else ALL_ORDER_KEYS
        c.keys(path, item, allowed | {"type"})
        c.not_null(path, item, ORDER_LIST_KEYS, "a list")
        orders.append(RawOrder(i, dict(item)))
    return orders


# --- writing --------------------------------------------------------------------------------------


def result_to_dict(scenario: Scenario, result: TurnResult) -> dict[str, Any]:
    """The result document: the world after the turn, the events, the refusals."""
    world = result.world
    return {
        "format": RESULT_FORMAT,
        "state": state_to_dict(world),
        "events": result.events,
        "refused": [r.as_dict() for r in result.refusals],
    }


def state_to_dict(world: World) -> dict[str, Any]:
    """Factions, fleets and ports in the scenario's shape, so they can be fed back in."""
    blockaders: dict[str, list[str]] = {}
    for fleet in world.fleets.values():
        if fleet.blockading is not None:
            blockaders.setdefault(fleet.blockading, []).append(fleet.id)
    return {
        "factions": [
            {
                "id": f.id,
                "treasury": f.treasury,
                "income": f.income,
                "upkeep_priority": list(f.upkeep_priority),
            }
            for f in world.factions.values()
        ],
        "fleets": [_fleet_dict(f) for f in world.fleets.values()],
        "ports": [
            {
                "id": p.id,
                "province": p.province,
                "owner": p.owner,
                "waters": list(p.waters),
                "blockaded_by": blockaders.get(p.id, []),
            }
            for p in world.map.ports.values()
        ],
    }


def _fleet_dict(fleet: Fleet) -> dict[str, Any]:
    return {
        "id": fleet.id,
        "owner": fleet.owner,
        "at": fleet.at,
        "docked": fleet.docked,
        "mp_penalty": fleet.mp_penalty,
        "blockading": fleet.blockading,
        "adrift": fleet.adrift,
        "ships": [
            {"id": s.id, "type": s.type.id, "health": s.health, "owner": s.owner}
            for s in fleet.ships
        ],
    }


def world_to_dict(world: World) -> dict[str, Any]:
    """A whole world as a scenario document without orders (for exports and round trips)."""
    rules = {f.name: _rule_value(getattr(world.rules, f.name)) for f in fields(world.rules)}
    state = state_to_dict(world)
    pairs = sorted((sorted(k), v.value) for k, v in world.relations.pairs.items())
    return {
        "format": SCENARIO_FORMAT,
        "rules": rules,
        "map": {
            "provinces": [{"id": p.id, "kind": p.kind} for p in world.map.provinces.values()],
            "adjacent": sorted(
                {tuple(sorted((a, b))) for a, ns in world.map.neighbours.items() for b in ns}
            ),
            "ports": state["ports"],
        },
        "factions": state["factions"],
        "relations": [{"between": list(k), "state": v} for k, v in pairs],
        "ship_types": [
            {"id": t.id, "cost": t.cost, "attack": t.attack, "health": t.health}
            for t in world.ship_types.values()
        ],
        "fleets": state["fleets"],
    }


def _rule_value(value: object) -> object:
    from fractions import Fraction

    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return value


__all__ = [
    "Problem",
    "Scenario",
    "ScenarioError",
    "adjudicate",
    "parse_scenario",
    "resolve",
    "result_to_dict",
    "state_to_dict",
    "world_to_dict",
]
