"""Blockades, set and lifted after movement (naval.md B1–B3, X18; T1 step 3)."""

from __future__ import annotations

from engine.naval.board import Board
from engine.naval.orders import FleetOrder


def settle_blockades(board: Board, orders: dict[str, FleetOrder]) -> None:
    """B2 / X18: a blockade lasts while its fleet stays; it ends when the fleet moves, evades,
    retreats, is sunk or captured, or the port's owner is no longer hostile. X31: a new one is set
    for a fleet with a `blockade` order that ends movement in the port's waters, unless it evaded,
    retreated or fought a battle there without winning it (a parted battle is no win; a battle
    whose enemy evaded or retreated is). A blockader that fights and stays keeps its blockade."""
    for port, fleet_ids in sorted(board.start_blockades.items()):
        owner = board.map.ports[port].owner
        for fleet_id in fleet_ids:
            fleet = board.fleets.get(fleet_id)
            turn = board.turns.get(fleet_id)
            if fleet is None or turn is None:
                reason = board.lift_reasons.get(fleet_id, "sunk")
            elif turn.evaded:
                reason = "evaded"
            elif turn.retreated:
                reason = "retreated"
            elif turn.moved:
                reason = "moved"
            elif not board.relations.hostile(fleet.owner, owner):
                reason = "not_hostile"
            else:
                continue
            if fleet is not None:
                fleet.blockading = None
            board.log("blockade_lifted", fleet=fleet_id, port=port, reason=reason)
    for order in orders.values():
        if order.type != "blockade" or order.port is None:
            continue
        fleet = board.fleets.get(order.fleet)
        if fleet is None or fleet.blockading == order.port:
            continue
        turn = board.turns[fleet.id]
        target = board.map.ports[order.port]
        if turn.evaded or turn.retreated or (turn.fought and not turn.won):  # X31
            continue
        if fleet.docked or fleet.at not in target.waters:
            continue
        if not board.relations.hostile(fleet.owner, target.owner):
            continue
        if fleet.blockading is not None:
            board.log("blockade_lifted", fleet=fleet.id, port=fleet.blockading, reason="moved")
        fleet.blockading = order.port
        board.log("blockade_set", fleet=fleet.id, port=order.port, province=fleet.at)


def port_functions(board: Board, port: str) -> bool:
    """B3: a blockaded port does not function (checked at the economy step, X19)."""
    return not any(f.blockading == port for f in board.fleets.values())
