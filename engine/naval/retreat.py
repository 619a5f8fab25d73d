"""Retreat after a battle (naval.md R1–R5, X17; D6 parting).

An attacker goes back where it came from (R2); a defender to a free adjacent sea (R3). A fleet with
nowhere free to go is cornered: it attacks into a hostile province if its commander's standing order
says so (R4), else the whole fleet surrenders to the winner (R5).

This module decides and moves; it never fights. A cornered attack is returned as a `Counterattack`
for the battle code (encounter.py) to fight at once, so the two modules do not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.naval.board import Board, pick
from engine.naval.capture import capturing_commander, take_prizes
from engine.naval.orders import Standing
from engine.naval.world import Fleet

MAX_CORNERED_BATTLES = 8  # X17: a fleet cornered again after 8 such battles in a row surrenders


@dataclass(frozen=True, slots=True)
class Defeat:
    """The battle a fleet leaves: where and when, who beat it (its prizes go to their commander,
    D10), its side's standing orders (X11: `if_cornered` is the commander's) and how many
    cornered battles in a row led here (X17)."""

    province: str
    step: int
    winners: list[Fleet]
    standing: Standing
    chain: int = 0


@dataclass(frozen=True, slots=True)
class Counterattack:
    """R4 / X17: a cornered fleet has sailed into a hostile province and attacks there at once;
    `chain` counts the cornered battles in a row that led to it."""

    fleet: Fleet
    province: str
    step: int
    chain: int


def retreat(board: Board, fleet: Fleet, defeat: Defeat) -> Counterattack | None:
    """R1–R5: the losing fleet leaves the battle province, points or not."""
    turn = board.turns[fleet.id]
    if turn.entered_step == defeat.step and turn.origin is not None:
        return go_back(board, fleet, defeat)
    _mark_retreated(board, fleet)
    neighbours = board.map.sea_neighbours(defeat.province)
    free = [p for p in neighbours if not board.hostile_present(fleet, p)]
    if free:  # R3: its retreat_to list first, else the lowest province id
        _move(board, fleet, defeat, pick(free, turn.standing.retreat_to))
        return None
    return _cornered(board, fleet, defeat, list(neighbours))


def go_back(board: Board, fleet: Fleet, defeat: Defeat) -> Counterattack | None:
    """R2: an attacker goes back where it attacked from; into its port if it sailed out of one,
    even a blockaded one (X17). An origin now held by hostile fleets corners it (R5 ruling)."""
    _mark_retreated(board, fleet)
    origin = board.turns[fleet.id].origin
    assert origin is not None
    at, docked = origin
    if docked:
        board.place(fleet, at, docked=True)
        board.log(
            "retreated",
            fleet=fleet.id,
            **{"from": defeat.province},
            to=at,
            docked=True,
            step=defeat.step,
        )
        return None
    if not board.hostile_present(fleet, at):
        _move(board, fleet, defeat, at)
        return None
    return _cornered(board, fleet, defeat, [at])


def _cornered(
    board: Board, fleet: Fleet, defeat: Defeat, targets: list[str]
) -> Counterattack | None:
    """R4 / R5 / X17: attack into a hostile province at once (returned, for the battle code to
    fight), or surrender."""
    if defeat.standing.if_cornered == "attack" and targets and defeat.chain < MAX_CORNERED_BATTLES:
        turn = board.turns[fleet.id]
        to = pick(targets, turn.standing.retreat_to)
        turn.origin, turn.entered_step = (defeat.province, False), defeat.step
        _move(board, fleet, defeat, to, cornered=True)
        return Counterattack(fleet, to, defeat.step, defeat.chain + 1)
    commander = capturing_commander([f for f in defeat.winners if f.id in board.fleets])
    if commander is None:  # nobody left to surrender to: the fleet stays where it is
        return None
    board.log(
        "surrendered",
        fleet=fleet.id,
        province=defeat.province,
        to_faction=commander.owner,
        ships=[s.id for s in fleet.ships],
        step=defeat.step,
    )
    if fleet.blockading is not None:
        board.lift_reasons[fleet.id] = "surrendered"
    take_prizes(
        board, [(fleet, list(fleet.ships))], commander, defeat.province, reason="surrendered"
    )
    return None


def _mark_retreated(board: Board, fleet: Fleet) -> None:
    turn = board.turns[fleet.id]
    turn.retreated = turn.done = True
    turn.plan.clear()


def _move(board: Board, fleet: Fleet, defeat: Defeat, to: str, *, cornered: bool = False) -> None:
    board.place(fleet, to, docked=False)
    event = {"fleet": fleet.id, "from": defeat.province, "to": to, "step": defeat.step}
    if cornered:
        event["cornered"] = True
    board.log("retreated", **event)
