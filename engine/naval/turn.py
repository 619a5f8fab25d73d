"""One turn, in the rulebook's order (naval.md T1)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.kernel.dice import Dice
from engine.naval.blockade import settle_blockades
from engine.naval.board import Board, Event
from engine.naval.economy import run_economy
from engine.naval.fleet_orders import split_and_merge
from engine.naval.movement import plan_movement, run_movement
from engine.naval.orders import RawOrder
from engine.naval.refusals import Refusal
from engine.naval.validation import check_orders
from engine.naval.world import World


@dataclass(frozen=True, slots=True)
class TurnResult:
    world: World  # the world after the turn
    events: list[Event]
    refusals: list[Refusal]


def resolve_turn(world: World, orders: Sequence[RawOrder], dice: Dice) -> TurnResult:
    """T1: resolve one turn. Pure: the same world, orders and dice give the same result, and the
    world given is not changed."""
    board = Board(world.copy_units(), dice)
    # 1. Orders checked: invalid ones are refused with a reason and change nothing (X23).
    checked = check_orders(board.world, orders)
    board.refusals.extend(checked.refusals)
    # Splits, then merges, before movement (W5).
    refused_merges = split_and_merge(board, checked.fleet_orders)
    fleet_orders = {f: o for f, o in checked.fleet_orders.items() if f not in refused_merges}
    # 2. Movement steps with encounters, evasion, support, battles and retreats (M, E, S, D, R).
    plan_movement(board, fleet_orders)
    run_movement(board)
    # 3. Blockades set and lifted (B).
    settle_blockades(board, fleet_orders)
    # 4. Economy: income, buy-outs, hiring, repairs, disbands, upkeep and mutiny (P, U).
    run_economy(board, checked.economy)
    # Ready for the next turn: support penalties (S3, X10), adrift flags (X22).
    _close_turn(board)
    refusals = sorted(board.refusals, key=lambda r: (r.order, r.code))
    return TurnResult(board.world, board.events, refusals)


def _close_turn(board: Board) -> None:
    penalty = board.rules.support_penalty
    for fleet in board.fleets.values():
        turn = board.turns.get(fleet.id)
        fleet.mp_penalty = penalty if turn is not None and turn.joined_support else 0
        fleet.adrift = fleet.id in board.new_adrift
    factions = board.world.factions
    for fid, faction in factions.items():
        kept = tuple(f for f in faction.upkeep_priority if f in board.fleets)
        if kept != faction.upkeep_priority:
            factions[fid] = replace(faction, upkeep_priority=kept)
