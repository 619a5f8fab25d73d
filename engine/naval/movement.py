"""Movement in steps (naval.md M1–M7, X4, X6, X18; W5 splits and merges before it).

Every fleet with a move left takes its next one at the same time; after each step the encounters
are found and fought (encounter.py). A fleet that fights ends its movement (M5).
"""

from __future__ import annotations

from engine.naval.board import Board, FleetTurn
from engine.naval.encounter import resolve_encounters
from engine.naval.orders import FleetOrder
from engine.naval.validation import movement_points
from engine.naval.world import Fleet


def plan_movement(board: Board, orders: dict[str, FleetOrder]) -> None:
    """M1–M4: each fleet's steps this turn; supporters wait for a battle next door (S2)."""
    for fleet in board.fleets.values():
        order = orders.get(fleet.id)
        turn = FleetTurn(order, movement_points(board.world, fleet))
        if order is not None:
            turn.plan = [("sea", p) for p in order.path]
            if order.type == "enter_port" and order.port is not None:
                turn.plan.append(("enter", order.port))
            elif order.type == "blockade" and order.port is not None:
                turn.plan.append(("blockade", order.port))
            elif order.type == "support" and order.faction is not None:
                board.pending_support[fleet.id] = order.faction
        board.turns[fleet.id] = turn
    board.pending_support = dict(sorted(board.pending_support.items()))


def run_movement(board: Board) -> None:
    """M5: steps 1, 2, … until no fleet has a move left; encounters after each (X6: fleets that
    share a province as the turn begins meet after step 1)."""
    step = 0
    while True:
        step += 1
        movers = [
            (f, board.turns[f.id])
            for f in list(board.fleets.values())
            if board.turns[f.id].plan and not board.turns[f.id].done
        ]
        if not movers and step > 1:
            return
        _take_step(board, movers, step)
        resolve_encounters(board, step)


def _take_step(board: Board, movers: list[tuple[Fleet, FleetTurn]], step: int) -> None:
    sailing: list[tuple[Fleet, FleetTurn, str]] = []
    for fleet, turn in movers:
        kind, target = turn.plan[0]
        if kind == "blockade":  # B1: the point is spent where the fleet lies
            turn.plan.pop(0)
            turn.spent += 1
            continue
        if kind == "sea" and fleet.docked:
            target = _out_of_port(board, fleet, turn, target)
        sailing.append((fleet, turn, target))
    held = _swaps(board, [(f, t) for f, _, t in sailing if not f.docked])
    for fleet, turn, target in sailing:
        turn.plan.pop(0)
        turn.spent += 1
        if fleet.id in held:
            continue
        turn.origin = (fleet.at, fleet.docked)
        turn.entered_step = step
        turn.moved = True
        entering = target in board.map.ports
        moved = {"type": "moved", "fleet": fleet.id, "from": fleet.at, "to": target, "step": step}
        if entering:
            moved["docked"] = True
        board.events.append(moved)
        board.place(fleet, target, docked=entering)
        if not turn.plan:
            turn.done = True


def _out_of_port(board: Board, fleet: Fleet, turn: FleetTurn, target: str) -> str:
    """B3 / X18: a fleet sailing out of a blockaded port is taken into the blockader's province
    (the lowest-id one if several), whichever water its path named; the rest is dropped."""
    blockaders = board.start_blockades.get(fleet.at)
    if not blockaders:
        return target
    into = min(board.start_positions[b] for b in blockaders)
    turn.plan[:] = [("sea", into)]
    return into


def _swaps(board: Board, moves: list[tuple[Fleet, str]]) -> set[str]:
    """M6: hostile fleets that would exchange provinces do not pass each other. The side with the
    greater total attack (X3) holds its water; the other attacks it from its own origin. Equal
    totals: the side whose lowest faction id sorts first holds. Held fleets spent their point."""
    by_edge: dict[tuple[str, str], list[Fleet]] = {}
    for fleet, target in moves:
        by_edge.setdefault((fleet.at, target), []).append(fleet)
    held: set[str] = set()
    for (here, there), going in by_edge.items():
        coming = by_edge.get((there, here))
        if coming is None or here > there:
            continue
        one = [f for f in going if any(board.hostile(f, o) for o in coming)]
        two = [f for f in coming if any(board.hostile(f, o) for o in going)]
        if not one:
            continue
        total_one, total_two = sum(f.attack2 for f in one), sum(f.attack2 for f in two)
        if total_one != total_two:
            holders, others = (one, two) if total_one > total_two else (two, one)
        else:
            first_one, first_two = min(f.owner for f in one), min(f.owner for f in two)
            holders, others = (one, two) if first_one < first_two else (two, one)
        held.update(f.id for f in holders)
        board.log(
            "swap_blocked",
            fleets=sorted(f.id for f in holders),
            province=holders[0].at,
            against=sorted(f.id for f in others),
        )
    return held
