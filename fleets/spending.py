"""What a faction's economy orders cost, and what it can spend this turn (issue 11).

The engine pays economy orders at the economy phase (X19: income, then buy-outs, hires,
repairs; upkeep last) and refuses one the treasury cannot pay then. A player hears it when
giving the order instead: a hire, repair or buy-out is refused (`insufficient_funds`) when it and
the faction's other economy orders this turn cost more than the treasury and the income
together (docs/rulings.md R-46). Upkeep is not counted: it is paid after them, from what is
left (U2). The prices are the engine's own (P1, P2, U4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from campaign.models import Turn
from engine.naval import Refusal, World
from engine.naval.orders import ECONOMY_ORDER_TYPES
from engine.naval.rules import rate_of
from engine.naval.validation import buyout_price
from fleets.models import Faction, Order

# At most this many economy orders count for one faction in one turn (hires each take a slot
# of their own, so without a bound a script could give thousands; R-46).
MAX_ECONOMY_ORDERS = 20


def order_cost(world: World, order: dict[str, Any]) -> int:
    """What the order will cost at the economy phase, as the engine prices it (0 when it costs
    nothing or names what the world does not hold)."""
    kind = order.get("type")
    if kind == "hire":
        ship_type = world.ship_types.get(str(order.get("ship_type")))
        count = order.get("count")
        return ship_type.cost * count if ship_type and isinstance(count, int) else 0
    if kind == "repair":
        fleet = world.fleets.get(str(order.get("fleet")))
        return repair_cost(world, fleet.id, order.get("ships")) if fleet else 0
    if kind == "buyout":
        adrift = world.fleets.get(str(order.get("adrift_fleet")))
        if adrift is None:
            return 0
        offer = order.get("offer")
        if isinstance(offer, int) and not isinstance(offer, bool):
            return offer * len(adrift.ships)  # X26: the offer is per ship
        return sum(buyout_price(world, s.type.cost) for s in adrift.ships)
    return 0  # a disband (U4) costs nothing


def repair_cost(world: World, fleet_id: str, ships: Any = None) -> int:
    """P2: each damaged ship (of those named) at the repair rate of its price, whatever its
    damage."""
    fleet = world.fleets[fleet_id]
    wanted = set(ships) if isinstance(ships, list) and ships else None
    return sum(
        rate_of(s.type.cost, world.rules.repair_rate)
        for s in fleet.ships
        if s.health < s.type.health and (wanted is None or s.id in wanted)
    )


@dataclass(frozen=True, slots=True)
class Spending:
    """The faction's money this turn as the desk shows it."""

    treasury: int
    income: int
    given: int  # what its economy orders that count cost
    count: int  # how many economy orders count

    @property
    def can_spend(self) -> int:
        return self.treasury + self.income

    @property
    def left(self) -> int:
        return self.can_spend - self.given


def economy_orders(turn: Turn, faction: Faction) -> dict[str, dict[str, Any]]:
    """The faction's economy orders that count this turn, slot → order, in the order they were
    last given (R-33): one query."""
    rows = Order.objects.filter(turn=turn, faction=faction).order_by("id")
    return latest_economy(rows.values_list("slot", "payload"))


def latest_economy(rows: Iterable[tuple[str, Any]]) -> dict[str, dict[str, Any]]:
    """`economy_orders` of the faction's rows (slot, payload) in the order of their ids."""
    latest: dict[str, dict[str, Any] | None] = {}
    for slot, payload in rows:
        latest.pop(slot, None)  # a slot given again moves to the end
        latest[slot] = payload
    return {
        slot: payload
        for slot, payload in latest.items()
        if isinstance(payload, dict) and payload.get("type") in ECONOMY_ORDER_TYPES
    }


def spending(world: World, faction: Faction, orders: dict[str, dict[str, Any]]) -> Spending:
    engine_faction = world.factions.get(faction.key)
    return Spending(
        treasury=engine_faction.treasury if engine_faction else faction.treasury,
        income=engine_faction.income if engine_faction else faction.income,
        given=sum(order_cost(world, o) for o in orders.values()),
        count=len(orders),
    )


def economy_check(
    *, turn: Turn, faction: Faction, order: dict[str, Any], world: World, slot: str | None
) -> Refusal | None:
    """R-46: the bound on economy orders, then the money (the order in `slot` is the one this
    replaces, so it is not counted)."""
    if order.get("type") not in ECONOMY_ORDER_TYPES or faction.is_pirates:
        return None
    others = economy_orders(turn, faction)
    others.pop(slot or "", None)
    if len(others) >= MAX_ECONOMY_ORDERS:
        return Refusal(
            0,
            "too_many_orders",
            f"A faction gives at most {MAX_ECONOMY_ORDERS} economy orders a turn: withdraw one "
            "to give another.",
        )
    cost = order_cost(world, order)
    money = spending(world, faction, others)
    if cost == 0 or money.given + cost <= money.can_spend:
        return None
    what = {"hire": "hire", "repair": "repair", "buyout": "buy-out"}[str(order["type"])]
    others_cost = (
        f"your other economy orders this turn cost {money.given}, and " if money.given else ""
    )
    return Refusal(
        0,
        "insufficient_funds",
        f"This {what} costs {cost}; {others_cost}{faction.name} can spend {money.can_spend} "
        f"this turn ({money.treasury} in the treasury and {money.income} income).",
    )
