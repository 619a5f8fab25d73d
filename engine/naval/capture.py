"""Where captured ships go (naval.md D10, X15; also R5 surrender and W7 joint command)."""

from __future__ import annotations

from engine.naval.board import Board
from engine.naval.world import Fleet, Ship


def capturing_commander(fleets: list[Fleet]) -> Fleet | None:
    """D10 / X15: the winning fleet holding the most ships in the province (ties: lowest id)."""
    afloat = [f for f in fleets if f.ships]
    if not afloat:
        return None
    return min(afloat, key=lambda f: (-len(f.ships), f.id))


def take_prizes(
    board: Board,
    prizes: list[tuple[Fleet, list[Ship]]],
    commander: Fleet,
    province: str,
    *,
    reason: str,
) -> list[Ship]:
    """D10: prizes change owner to the commander's faction and join its fleet up to
    `fleet_limit`; the rest form new fleets of that faction in the province. Prizes are taken
    losing fleet by losing fleet (fleet-id order), ships in fleet order (X15)."""
    taken: list[Ship] = []
    for fleet, ships in sorted(prizes, key=lambda pair: pair[0].id):
        chosen = {id(s) for s in ships}
        in_order = [s for s in fleet.ships if id(s) in chosen]
        if not in_order:
            continue
        board.drop_ships(fleet, in_order)
        if fleet.id not in board.fleets and fleet.blockading is not None:
            board.lift_reasons[fleet.id] = "captured"
        taken.extend(in_order)
    if not taken:
        return []
    owner = commander.owner
    from_factions = sorted({s.owner for s in taken})
    for ship in taken:
        ship.owner = owner
    fleets = board.join_or_form(owner, taken, commander, province, docked=False)
    board.log(
        "captured",
        ships=[s.id for s in taken],
        from_faction=from_factions[0],
        from_factions=from_factions,
        to_faction=owner,
        fleet=fleets[0],
        fleets=fleets,
        province=province,
        reason=reason,
    )
    return taken
