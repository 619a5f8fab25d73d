"""Splits and merges, before movement (naval.md W5, W7, X23, X26, X38)."""

from __future__ import annotations

from engine.naval.board import Board
from engine.naval.orders import FleetOrder
from engine.naval.refusals import Refusal
from engine.naval.world import Fleet


def split_and_merge(board: Board, orders: dict[str, FleetOrder]) -> set[str]:
    """W5: splits run first, then merges in file order, following chains. A split-off fleet
    holds with the default standing keys; a merged fleet's ships move with the fleet it joined."""
    in_file_order = sorted(orders.values(), key=lambda o: o.index)
    for order in in_file_order:
        if order.type == "split" and order.new_fleet is not None:
            _split(board, order)
    merged_into: dict[str, str] = {}
    refused: set[str] = set()
    for order in in_file_order:
        if (
            order.type == "merge"
            and order.into is not None
            and not _merge(board, order, merged_into)
        ):
            refused.add(order.fleet)
    return refused


def _split(board: Board, order: FleetOrder) -> None:
    fleet = board.fleets[order.fleet]
    leaving = set(order.ships)
    ships = [s for s in fleet.ships if s.id in leaving]
    fleet.ships = [s for s in fleet.ships if s.id not in leaving]
    assert order.new_fleet is not None
    new = Fleet(
        order.new_fleet,
        fleet.owner,
        fleet.at,
        ships,
        docked=fleet.docked,
        mp_penalty=fleet.mp_penalty,
    )
    board.reserve_fleet_id(new.id)
    board.add_fleet(new)
    board.log("split", fleet=fleet.id, new_fleet=new.id, ships=[s.id for s in ships])


def _merge(board: Board, order: FleetOrder, merged_into: dict[str, str]) -> bool:
    fleet = board.fleets.get(order.fleet)
    into_id = order.into or ""
    while into_id in merged_into:  # X23: merges follow chains
        into_id = merged_into[into_id]
    target = board.fleets.get(into_id)
    refusal = None
    if fleet is None:
        refusal = ("unknown_fleet", f"{order.fleet} no longer exists")
    elif target is None:
        refusal = ("unknown_fleet", f"there is no fleet called {order.into}")
    elif (target.at, target.docked) != (fleet.at, fleet.docked):
        refusal = (
            "not_in_range",
            f"{target.id} is at {target.at}, not with {fleet.id} at {fleet.at}",
        )
    elif not board.relations.friendly(fleet.owner, target.owner):
        refusal = ("not_commander", f"{target.id} belongs to {target.owner}, who is not your ally")
    elif target.adrift:  # X38: adrift crews wait to be bought (X25); nobody commands them
        refusal = ("not_commander", f"{target.id} is adrift: nobody commands it")
    elif len(fleet.ships) + len(target.ships) > board.rules.fleet_limit:
        refusal = (
            "fleet_limit",
            f"together they would have {len(fleet.ships) + len(target.ships)}"
            f" ships; a fleet holds at most {board.rules.fleet_limit}",
        )
    if refusal is not None:
        board.refusals.append(Refusal(order.index, *refusal))
        return False
    assert fleet is not None
    assert target is not None
    target.ships.extend(fleet.ships)
    if fleet.blockading is not None:
        board.lift_reasons[fleet.id] = "merged"
    board.remove_fleet(fleet)
    merged_into[fleet.id] = target.id
    board.log("merged", fleet=fleet.id, into=target.id, ships=[s.id for s in fleet.ships])
    return True
