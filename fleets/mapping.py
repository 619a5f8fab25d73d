"""The one bridge between rows and the engine's documents (scenario-format.md).

`world_document` reads a campaign's world in a fixed number of queries, whatever its size;
`apply_state` writes a result's state back with a fixed number of statements (campaign/bulk.py);
`orders_document` gives a turn's orders as they stand (the latest per slot).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from campaign.bulk import delete_rows, insert_rows, select_rows, update_rows
from campaign.gc_pause import cyclic_gc_paused
from campaign.models import Campaign, Turn
from fleets.models import Adjacency, Faction, Fleet, Order, Port, Province, Relation, Ship, ShipType
from fleets.world_cache import world_changed


def world_document(campaign: Campaign) -> dict[str, Any]:
    """The campaign's world as a scenario document (no orders): 9 queries."""
    with cyclic_gc_paused():
        return _world_document(campaign)


def _world_document(campaign: Campaign) -> dict[str, Any]:
    # The campaign's naval settings (its `rules`; the fog, read after this by the desk, the map
    # and the order check) come joined to the factions (a naval campaign has its pirates at
    # least), kept on `campaign`: no query of their own.
    factions = list(
        Faction.objects.filter(campaign=campaign)
        .select_related("campaign__naval_settings")
        .order_by("key")
    )
    if factions:
        campaign.naval_settings = factions[0].campaign.naval_settings
    fleets = list(
        Fleet.objects.filter(campaign=campaign)
        .order_by("key")
        .values_list(
            "id",
            "key",
            "owner__key",
            "province__key",
            "port__key",
            "mp_penalty",
            "blockading__key",
            "adrift",
        )
    )
    ships_of: dict[int, list[dict[str, Any]]] = {}
    for fleet_id, key, type_key, health, owner in (
        Ship.objects.filter(campaign=campaign)
        .order_by("fleet_id", "position", "id")
        .values_list("fleet_id", "key", "type__key", "health", "owner__key")
    ):
        ships_of.setdefault(fleet_id, []).append(
            {"id": key, "type": type_key, "health": health, "owner": owner}
        )
    blockaders: dict[str, list[str]] = {}
    for row in fleets:
        if row[6]:
            blockaders.setdefault(row[6], []).append(row[1])
    waters: dict[int, list[str]] = {}
    for port_id, water in Port.waters.through.objects.filter(port__campaign=campaign).values_list(
        "port_id", "province__key"
    ):
        waters.setdefault(port_id, []).append(water)
    return {
        "format": "naval-scenario/1",
        "rules": dict(campaign.naval_settings.rules),
        "map": {
            "provinces": [
                {"id": key, "kind": kind}
                for key, kind in Province.objects.filter(campaign=campaign)
                .order_by("key")
                .values_list("key", "kind")
            ],
            "adjacent": [
                [a, b]
                for a, b in Adjacency.objects.filter(campaign=campaign)
                .order_by("a__key", "b__key")
                .values_list("a__key", "b__key")
            ],
            "ports": [
                {
                    "id": key,
                    "province": province,
                    "owner": owner,
                    "waters": sorted(waters.get(pk, [])),
                    "blockaded_by": blockaders.get(key, []),
                }
                for pk, key, province, owner in Port.objects.filter(campaign=campaign)
                .order_by("key")
                .values_list("id", "key", "province__key", "owner__key")
            ],
        },
        "factions": [
            {
                "id": f.key,
                "treasury": f.treasury,
                "income": f.income,
                "upkeep_priority": list(f.upkeep_priority),
            }
            for f in factions
            if not f.is_pirates
        ],
        "relations": [
            {"between": [low, high], "state": state}
            for low, high, state in Relation.objects.filter(campaign=campaign)
            .exclude(state=Relation.State.PEACE)
            .order_by("low__key", "high__key")
            .values_list("low__key", "high__key", "state")
        ],
        "ship_types": [
            {"id": t.key, "cost": t.cost, "attack": t.attack, "health": t.health}
            for t in ShipType.objects.filter(campaign=campaign).order_by("key")
        ],
        "fleets": [
            {
                "id": key,
                "owner": owner,
                "at": port or province,
                "docked": port is not None,
                "mp_penalty": mp_penalty,
                "blockading": blockading,
                "adrift": adrift,
                "ships": ships_of.get(pk, []),
            }
            for pk, key, owner, province, port, mp_penalty, blockading, adrift in fleets
        ],
    }


def orders_document(turn: Turn, fleets: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The orders that count: the latest row of each slot, unless withdrawn, in the order they
    were last submitted — the engine's "file order" (X23, X26; docs/rulings.md R-33). One
    query.

    `fleets`: only the slots that can hold these fleets' orders (each fleet's order, repair and
    pay-off: `services.order_slot`) and every hire's and buy-out's (a faction's own, whatever
    their slot's name), each slot with all its rows, so each is as without `fleets`; the rest
    are not read (issue 20: a faction's desk read every faction's orders, a thousand rows and
    their JSON by the load bench's rush, to keep its own few)."""
    chosen = Order.objects.filter(turn=turn)
    if fleets is not None:
        chosen = chosen.filter(fleets_slots(fleets))
    return latest_orders(chosen.order_by("id").values_list("slot", "payload", "withdrawn"))


def fleets_slots(fleets: Iterable[str]) -> Q:
    """The slots that can hold these fleets' orders, and every hire's and buy-out's
    (`orders_document`'s `fleets`)."""
    slots = [f"{kind}:{fleet}" for fleet in fleets for kind in ("fleet", "repair", "disband")]
    return Q(slot__in=slots) | Q(slot__startswith="hire:") | Q(slot__startswith="buyout:")


def latest_orders(rows: Iterable[tuple[str, Any, bool]]) -> list[dict[str, Any]]:
    """`orders_document` of the rows (slot, payload, withdrawn) in the order of their ids."""
    latest: dict[str, dict[str, Any]] = {}
    for slot, payload, withdrawn in rows:
        latest.pop(slot, None)  # a later submission moves the slot to the end
        if not withdrawn and payload is not None:
            latest[slot] = payload
    return list(latest.values())


def apply_state(campaign: Campaign, state: dict[str, Any]) -> None:
    """Write a result's (or a scenario's) factions and fleets back to the rows: treasuries,
    fleets and ships updated, created and deleted, each kind in one statement."""
    with cyclic_gc_paused():
        _apply_state(campaign, state)
    world_changed(campaign.pk)  # bulk statements pass no signal (fleets/world_cache.py)


def _apply_state(campaign: Campaign, state: dict[str, Any]) -> None:
    factions = {f.key: f for f in Faction.objects.filter(campaign=campaign)}
    update_rows(
        Faction,
        ["treasury", "upkeep_priority"],
        [
            (factions[f["id"]].pk, f["treasury"], f.get("upkeep_priority", []))
            for f in state["factions"]
        ],
    )
    provinces = dict(Province.objects.filter(campaign=campaign).values_list("key", "id"))
    ports = dict(Port.objects.filter(campaign=campaign).values_list("key", "id"))
    types = dict(ShipType.objects.filter(campaign=campaign).values_list("key", "id"))
    owner_id = {key: f.pk for key, f in factions.items()}
    existing = dict(Fleet.objects.filter(campaign=campaign).values_list("key", "id"))

    def fleet_values(f: dict[str, Any]) -> list[Any]:
        docked = f.get("docked", False)
        return [
            owner_id[f["owner"]],
            None if docked else provinces[f["at"]],
            ports[f["at"]] if docked else None,
            f.get("mp_penalty", 0),
            ports.get(f.get("blockading") or ""),
            bool(f.get("adrift", False)),
        ]

    names = ["owner", "province", "port", "mp_penalty", "blockading", "adrift"]
    wanted = {f["id"]: f for f in state["fleets"]}
    update_rows(
        Fleet, names, [(existing[k], *fleet_values(f)) for k, f in wanted.items() if k in existing]
    )
    insert_rows(
        Fleet,
        ["campaign", "key", *names],
        [(campaign.pk, k, *fleet_values(f)) for k, f in wanted.items() if k not in existing],
    )
    fleet_id = dict(Fleet.objects.filter(campaign=campaign).values_list("key", "id"))
    # The ships as the rows hold them now: only those that differ are written (a turn moves
    # fleets, but most of their ships' rows stay as they were). One pass over the state's ships.
    current = {
        key: row
        for key, *row in select_rows(
            Ship,
            ["key", "id", "fleet", "owner", "type", "health", "position"],
            "campaign",
            campaign.pk,
        )
    }
    # Most changed ships only lost health: that column alone is written, which PostgreSQL can
    # update in place (no index touched); the others (captured, moved between fleets, shifted in
    # their fleet) in full; new ones inserted.
    damaged: list[tuple[int, int]] = []
    changed: list[tuple[Any, ...]] = []
    added: list[tuple[Any, ...]] = []
    kept: set[str] = set()
    for f in state["fleets"]:
        fleet, fleet_owner = fleet_id[f["id"]], f["owner"]
        for position, ship in enumerate(f["ships"]):
            key, health = ship["id"], ship["health"]
            owner, kind = owner_id[ship.get("owner", fleet_owner)], types[ship["type"]]
            row = current.get(key)
            if row is None:
                added.append((campaign.pk, key, fleet, owner, kind, health, position))
                continue
            kept.add(key)
            pk, was_fleet, was_owner, was_kind, was_health, was_position = row
            if (was_fleet, was_owner, was_kind, was_position) != (fleet, owner, kind, position):
                changed.append((pk, fleet, owner, kind, health, position))
            elif was_health != health:
                damaged.append((pk, health))
    update_rows(Ship, ["health"], damaged)
    update_rows(Ship, ["fleet", "owner", "type", "health", "position"], changed)
    insert_rows(Ship, ["campaign", "key", "fleet", "owner", "type", "health", "position"], added)
    gone_ships = [row[0] for key, row in current.items() if key not in kept]
    gone_fleets = [pk for key, pk in fleet_id.items() if key not in wanted]
    delete_rows(Ship, gone_ships)  # ships first: no fleet is deleted with ships in it
    delete_rows(Fleet, gone_fleets)
