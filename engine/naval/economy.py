"""The economy phase (naval.md P1–P3, U1–U4, X19–X22, X26, X32, X33, X35; T1 step 4).

In order: income; buy-outs (adrift fleet by adrift fleet, X33); hires (paid now, the ships appear
after upkeep); repairs; disbands; upkeep and mutiny. Whether a port functions and whether a
treasury can pay is checked at the step where the payment is made, so a treasury never goes below
0; an order that fails there is refused with its code. Within a step, orders are paid in file order.
"""

from __future__ import annotations

from dataclasses import replace

from engine.naval.blockade import port_functions
from engine.naval.board import Board, Event
from engine.naval.orders import Buyout, Disband, EconomyOrder, Hire, Repair
from engine.naval.refusals import Refusal
from engine.naval.rules import rate_of
from engine.naval.validation import buyout_price
from engine.naval.world import PIRATES, Fleet, Ship


class Treasury:
    """The factions' money during the phase; every change is an event with a signed `amount`."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.balance = {fid: f.treasury for fid, f in board.world.factions.items()}

    def can_pay(self, faction: str, amount: int) -> bool:
        return self.balance.get(faction, 0) >= amount

    def pay(self, faction: str, amount: int) -> None:
        self.balance[faction] -= amount

    def write_back(self) -> None:
        factions = self.board.world.factions
        for fid, faction in factions.items():
            factions[fid] = replace(faction, treasury=self.balance[fid])


def run_economy(board: Board, orders: list[EconomyOrder]) -> None:
    treasury = Treasury(board)
    for fid, faction in board.world.factions.items():  # income, set by the moderator
        if faction.income:
            treasury.pay(fid, -faction.income)
            board.log("income", faction=fid, amount=faction.income)
    _buyouts(board, treasury, [o for o in orders if isinstance(o, Buyout)])
    hired = [h for h in (_hire(board, treasury, o) for o in orders if isinstance(o, Hire)) if h]
    for order in orders:
        if isinstance(order, Repair):
            _repair(board, treasury, order)
    for order in orders:
        if isinstance(order, Disband):
            _disband(board, order)
    _upkeep(board, treasury)
    for order, ships, event in hired:  # X19: hired ships appear after upkeep
        event["fleets"] = _place_hired(board, order, ships)
        event["fleet"] = event["fleets"][0]
    treasury.write_back()


def _refuse(board: Board, index: int, code: str, message: str) -> None:
    board.refusals.append(Refusal(index, code, message))


# --- buy-outs (U4, X22) --------------------------------------------------------------------------


def _buyouts(board: Board, treasury: Treasury, orders: list[Buyout]) -> None:
    """U4 / X33: the bids are settled adrift fleet by adrift fleet, in fleet-id order; for each,
    only the bids the buyer's treasury can pay at that moment compete (the others are refused
    `insufficient_funds`), and the winner pays at once, so a treasury never goes below 0."""
    bids: dict[str, list[Buyout]] = {}
    for order in orders:
        if _buyer_can_bid(board, order):
            bids.setdefault(order.adrift_fleet, []).append(order)
    for adrift_id in sorted(bids):
        adrift = board.fleets[adrift_id]
        price = sum(buyout_price(board.world, s.type.cost) for s in adrift.ships)
        offers: list[tuple[int, Buyout]] = []
        for order in bids[adrift_id]:
            total = price if order.offer is None else order.offer * len(adrift.ships)
            if treasury.can_pay(order.faction, total):
                offers.append((total, order))
                continue
            _refuse(
                board,
                order.index,
                "insufficient_funds",
                f"the buy-out of {adrift_id} costs {total}; {order.faction} has "
                f"{treasury.balance[order.faction]}",
            )
        if not offers:
            continue
        total, winner = _best_bid(board, adrift_id, offers)
        for _, loser in offers:
            if loser is not winner:
                board.log(
                    "buyout_outbid",
                    faction=loser.faction,
                    fleet=loser.fleet,
                    adrift_fleet=adrift_id,
                    winner=winner.faction,
                )
        _take_over(board, treasury, winner, total)


def _buyer_can_bid(board: Board, order: Buyout) -> bool:
    """X22 / X33: the buyer fleet still exists and is at sea, the fleet it names is adrift, and
    the two are in the same or adjacent sea provinces, on the positions after movement."""
    adrift = board.fleets.get(order.adrift_fleet)
    buyer = board.fleets.get(order.fleet)
    if buyer is None:
        _refuse(board, order.index, "unknown_fleet", f"{order.fleet} no longer exists")
        return False
    if adrift is None:  # X26: a fleet gone by its economy step is unknown
        _refuse(board, order.index, "unknown_fleet", f"{order.adrift_fleet} no longer exists")
        return False
    if not adrift.adrift:
        _refuse(board, order.index, "not_adrift", f"{order.adrift_fleet} is not adrift")
        return False
    if buyer.docked:
        _refuse(board, order.index, "not_sea", f"{buyer.id} is in port; a buyer must be at sea")
        return False
    if buyer.at != adrift.at and not board.map.adjacent(buyer.at, adrift.at):
        _refuse(
            board,
            order.index,
            "not_in_range",
            f"{buyer.id} at {buyer.at} is not in or next to {adrift.at}",
        )
        return False
    return True


def _best_bid(board: Board, adrift_id: str, offers: list[tuple[int, Buyout]]) -> tuple[int, Buyout]:
    """U4: the highest total offer wins; ties: a die each, in faction-id order, rerolled until
    one is highest."""
    best = max(total for total, _ in offers)
    tied = sorted((o for t, o in offers if t == best), key=lambda o: (o.faction, o.index))
    rolls: list[list[int]] = []
    while len(tied) > 1:
        dice = [board.dice.roll(f"buyout:{adrift_id}") for _ in tied]
        rolls.append(dice)
        top = max(dice)
        tied = [o for o, d in zip(tied, dice, strict=True) if d == top]
    if rolls:
        board.log("buyout_tie", adrift_fleet=adrift_id, dice=rolls)
    return best, tied[0]


def _take_over(board: Board, treasury: Treasury, order: Buyout, total: int) -> None:
    """U4: bought ships stay where they lie: into the buyer's fleet if it is there (up to the
    limit), else new fleets of the buyer there."""
    adrift = board.fleets[order.adrift_fleet]
    buyer = board.fleets[order.fleet]
    ships = list(adrift.ships)
    treasury.pay(order.faction, total)
    board.remove_fleet(adrift)
    for ship in ships:
        ship.owner = order.faction
    into = buyer if buyer.at == adrift.at else None
    joined = board.join_or_form(order.faction, ships, into, adrift.at, docked=False)
    board.log(
        "bought_out",
        faction=order.faction,
        fleet=order.fleet,
        adrift_fleet=adrift.id,
        ships=[s.id for s in adrift.ships],
        fleets=joined,
        amount=-total,
    )


# --- hiring (P1, P3) -----------------------------------------------------------------------------


Hired = tuple[Hire, list[Ship], Event]


def _hire(board: Board, treasury: Treasury, order: Hire) -> Hired | None:
    port = board.map.ports[order.port]
    if not board.relations.friendly(order.faction, port.owner):
        _refuse(board, order.index, "not_friendly_port", f"{port.id} is not yours or an ally's")
        return None
    if not port_functions(board, port.id):
        _refuse(board, order.index, "port_blockaded", f"{port.id} is blockaded: no hiring there")
        return None
    ship_type = board.world.ship_types[order.ship_type]
    cost = ship_type.cost * order.count
    if not treasury.can_pay(order.faction, cost):
        _refuse(
            board,
            order.index,
            "insufficient_funds",
            f"{order.count} × {ship_type.id} cost {cost}; {order.faction} has "
            f"{treasury.balance[order.faction]}",
        )
        return None
    treasury.pay(order.faction, cost)
    ships = [
        Ship(board.new_ship_id(order.faction), ship_type, ship_type.health, order.faction)
        for _ in range(order.count)
    ]
    event = board.log(
        "hired",
        faction=order.faction,
        port=port.id,
        ship_type=ship_type.id,
        ships=[s.id for s in ships],
        amount=-cost,
    )
    return order, ships, event


def _place_hired(board: Board, order: Hire, ships: list[Ship]) -> list[str]:
    """P3 / X20: into the named fleet if it is docked in that port, up to the limit; the rest
    form new fleets docked there."""
    named = board.fleets.get(order.fleet) if order.fleet else None
    into = named if named is not None and named.docked and named.at == order.port else None
    return board.join_or_form(order.faction, ships, into, order.port, docked=True)


# --- repairs (P2, X20) ---------------------------------------------------------------------------


def _repair(board: Board, treasury: Treasury, order: Repair) -> None:
    fleet = board.fleets.get(order.fleet)
    if fleet is None:
        _refuse(board, order.index, "unknown_fleet", f"{order.fleet} no longer exists")
        return
    if not fleet.docked:
        _refuse(board, order.index, "not_docked", f"{fleet.id} is not in port at the economy phase")
        return
    port = board.map.ports[fleet.at]
    if not board.relations.friendly(fleet.owner, port.owner):
        _refuse(board, order.index, "not_friendly_port", f"{port.id} is not yours or an ally's")
        return
    if not port_functions(board, port.id):
        _refuse(board, order.index, "port_blockaded", f"{port.id} is blockaded: no repairs there")
        return
    wanted = set(order.ships) if order.ships else None
    damaged = [
        s for s in fleet.ships if s.health < s.type.health and (wanted is None or s.id in wanted)
    ]
    if not damaged:  # X32: after the port checks, before the money; costs nothing
        _refuse(board, order.index, "invalid_order", f"{fleet.id} has no damaged ship to repair")
        return
    cost = sum(rate_of(s.type.cost, board.rules.repair_rate) for s in damaged)
    if not treasury.can_pay(fleet.owner, cost):
        _refuse(
            board,
            order.index,
            "insufficient_funds",
            f"the repairs cost {cost}; {fleet.owner} has {treasury.balance[fleet.owner]}",
        )
        return
    treasury.pay(fleet.owner, cost)
    for ship in damaged:
        ship.health = ship.type.health
    board.log(
        "repaired",
        faction=fleet.owner,
        fleet=fleet.id,
        port=port.id,
        ships=[s.id for s in damaged],
        amount=-cost,
    )


# --- disbanding, upkeep and mutiny (U1, U2, U4, X19, X21) ----------------------------------------


def _disband(board: Board, order: Disband) -> None:
    fleet = board.fleets.get(order.fleet)
    if fleet is None:
        _refuse(board, order.index, "unknown_fleet", f"{order.fleet} no longer exists")
        return
    wanted = set(order.ships) if order.ships else None
    ships = [s for s in fleet.ships if wanted is None or s.id in wanted]
    if not ships:
        _refuse(board, order.index, "invalid_order", f"none of those ships is in {fleet.id}")
        return
    pirates = _go_adrift(board, fleet, ships)
    board.log(
        "disbanded",
        faction=fleet.owner,
        fleet=fleet.id,
        ships=[s.id for s in ships],
        pirate_fleet=pirates.id,
        province=pirates.at,
    )


def _upkeep(board: Board, treasury: Treasury) -> None:
    """U1 / U2 / X21: each faction pays its ships' upkeep down its payment order; a ship it
    cannot pay mutinies. Mutineers from one fleet form one adrift pirate fleet, whichever owners
    they leave (a joint fleet's, W7). X35: fleets the engine formed this turn come after every
    fleet that existed when the turn began (a split-off fleet by its id), in the order formed."""
    upkeep = {
        t.id: rate_of(t.cost, board.rules.upkeep_rate) for t in board.world.ship_types.values()
    }
    ships_of: dict[str, list[tuple[Fleet, Ship]]] = {}
    mutineers: dict[str, Fleet] = {}  # X21: the pirate fleet each fleet's mutineers formed
    for fleet in board.fleets.values():
        for ship in fleet.ships:
            if ship.owner != PIRATES:
                ships_of.setdefault(ship.owner, []).append((fleet, ship))
    for fid, faction in board.world.factions.items():
        owned = ships_of.get(fid)
        if not owned:
            continue
        priority = {fleet_id: n for n, fleet_id in enumerate(faction.upkeep_priority)}
        last = len(priority)
        formed = board.formed_order
        owned.sort(
            key=lambda fs: (
                priority.get(fs[0].id, last),
                formed.get(fs[0].id, -1),
                fs[0].id,
                -fs[1].type.cost,
                fs[1].id,
            )
        )
        paid: list[str] = []
        total = 0
        unpaid: dict[str, list[Ship]] = {}
        for fleet, ship in owned:
            cost = upkeep[ship.type.id]
            if treasury.can_pay(fid, cost):
                treasury.pay(fid, cost)
                total += cost
                paid.append(ship.id)
            else:
                unpaid.setdefault(fleet.id, []).append(ship)
        if paid:
            board.log("upkeep_paid", faction=fid, amount=-total, ships=paid)
        for fleet_id, ships in unpaid.items():
            fleet = board.fleets[fleet_id]
            pirates = _go_adrift(board, fleet, ships, into=mutineers.get(fleet_id))
            mutineers[fleet_id] = pirates
            board.log(
                "mutiny",
                faction=fid,
                from_fleet=fleet_id,
                fleet=pirates.id,
                ships=[s.id for s in ships],
                province=pirates.at,
            )


def _go_adrift(
    board: Board, fleet: Fleet, ships: list[Ship], *, into: Fleet | None = None
) -> Fleet:
    """U2 / U4 / X19: the ships leave their fleet and form a pirate fleet, adrift, in the same sea
    province (from a port: the port's lowest-id water); or join `into`, the pirate fleet other
    mutineers of the same fleet formed this turn (X21)."""
    at = min(board.map.ports[fleet.at].waters) if fleet.docked else fleet.at
    board.drop_ships(fleet, ships)
    if fleet.id not in board.fleets and fleet.blockading is not None:
        board.lift_reasons[fleet.id] = "crews gone"
        board.log("blockade_lifted", fleet=fleet.id, port=fleet.blockading, reason="crews gone")
    for ship in ships:
        ship.owner = PIRATES
    if into is not None:
        into.ships.extend(ships)
        return into
    pirates = Fleet(board.new_fleet_id(PIRATES), PIRATES, at, ships, adrift=True)
    board.add_fleet(pirates, formed=True)
    board.new_adrift.add(pirates.id)
    return pirates
