"""Encounters after each movement step (naval.md E1–E4, S2, X5, X7–X11, X26–X30, X36, X37).

After a step, the fleets beside hostile fleets stop (M7, X36), all at once; then every sea province
with hostile fleets is an encounter, in order of province id (T1): evaders slip away (E2, X7, X28),
then the sides (X8, X27) fight, the two strongest first (E4, X9, X37); sides that part do not meet
again this turn (X29). Supporters in adjacent provinces join the first battle their faction fights
(S2).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.naval.battle import BattleResult, BattleSide, fight
from engine.naval.board import Board, pick
from engine.naval.capture import capturing_commander, take_prizes
from engine.naval.retreat import Counterattack, Defeat, go_back, retreat
from engine.naval.world import Fleet

MAX_BATTLES_PER_ENCOUNTER = 64  # a guard; each battle removes or parts a side, so it never binds


@dataclass(slots=True)
class Side:
    """X8: the present factions linked by chains of alliance, and their fleets here."""

    factions: frozenset[str]
    fleets: list[Fleet]
    attacking: bool
    total2: int  # X3: total attack without bonus, in half points

    @property
    def first_faction(self) -> str:
        return min(self.factions)


def resolve_encounters(board: Board, step: int) -> None:
    """E1: every sea province holding hostile fleets after the step, in province-id order."""
    crowded = sorted(p for p, here in board.at_sea.items() if len(here) > 1)
    for province in crowded:  # M7 / X5 / X36: stops are judged as the step ends, before any
        fleets = sorted(board.present(province), key=lambda f: f.id)  # encounter is fought
        for fleet in fleets:
            if _hostile_to_any(board, fleet, fleets):
                _stop(board, fleet, province, step)
    for province in crowded:
        fleets = board.present(province)
        if len(fleets) > 1 and _any_hostile(board, fleets):
            _encounter(board, province, step)


def _encounter(board: Board, province: str, step: int) -> None:
    fleets = sorted(board.present(province), key=lambda f: f.id)
    for fleet in fleets:  # X7: evasions fleet by fleet, each seeing where the earlier ones went
        _maybe_evade(board, fleet, province, step)
    fight_battles(board, province, step)


def fight_battles(board: Board, province: str, step: int) -> None:
    """E4 / X9: the strongest hostile pair of sides fights, then sides are formed again."""
    for _ in range(MAX_BATTLES_PER_ENCOUNTER):
        fleets = board.present(province)
        if not _any_hostile(board, fleets):  # the usual end: the loser has gone
            return
        sides = form_sides(board, fleets, step)
        pair = _strongest_hostile_pair(board, province, sides)
        if pair is None:
            return
        first, second = pair
        run_battle(board, province, step, first, second)


def form_sides(board: Board, fleets: list[Fleet], step: int) -> list[Side]:
    """X8 / X27: factions joined by chains of alliance, pair by pair in faction-id order (lower
    id first, then the higher), skipping a join that would put two factions at war on one side;
    a side attacks only if all its fleets entered the province in this step."""
    owners = sorted({f.owner for f in fleets})
    side_of = {o: o for o in owners}  # owner -> the lowest owner of its side
    relations = board.relations
    for i, a in enumerate(owners):
        for b in owners[i + 1 :]:
            if side_of[a] == side_of[b] or not relations.friendly(a, b):
                continue
            old, new = side_of[b], side_of[a]
            joining = [o for o in owners if side_of[o] == old]
            staying = [o for o in owners if side_of[o] == new]
            if any(relations.hostile(x, y) for x in joining for y in staying):
                continue  # X27: two factions at war are never on one side
            for o in joining:
                side_of[o] = new
    members: dict[str, list[Fleet]] = {}
    for fleet in fleets:
        members.setdefault(side_of[fleet.owner], []).append(fleet)
    sides = []
    for side_fleets in members.values():
        attacking = all(board.turns[f.id].entered_step == step for f in side_fleets)
        sides.append(
            Side(
                frozenset(f.owner for f in side_fleets),
                side_fleets,
                attacking,
                sum(f.attack2 for f in side_fleets),
            )
        )
    return sides


def run_battle(
    board: Board,
    province: str,
    step: int,
    first: Side,
    second: Side,
    *,
    forced_a: Side | None = None,
    chain: int = 0,
) -> BattleResult:
    """One battle between two sides: supporters join (S2), the rounds are fought (D), then sunk
    ships go down, prizes are taken (D7, D8, D10) and the loser retreats (R); a cornered
    retreater's attack (R4) is fought at once, before the next fleet retreats."""
    a, b = _order_sides(first, second, forced_a)
    side_a = _battle_side(board, "A", a, province)
    side_b = _battle_side(board, "B", b, province)
    result = fight(side_a, side_b, board.rules, board.dice, board.battle_stream(step, province))
    for side in (side_a, side_b):
        for fleet in (*side.fleets, *side.supporters):
            _sink(board, fleet)
        for fleet in side.fleets:
            turn = board.turns[fleet.id]
            turn.fought = turn.done = True
            turn.plan.clear()
    board.log(
        "battle",
        province=province,
        step=step,
        sides={"A": [f.id for f in side_a.fleets], "B": [f.id for f in side_b.fleets]},
        supporters={"A": [f.id for f in side_a.supporters], "B": [f.id for f in side_b.supporters]},
        attacking="A" if a.attacking else "B" if b.attacking else None,
        rounds=result.rounds,
        winner=result.winner,
        outcome=result.outcome,
        captured=[s.id for s in result.captured],
        sunk=[s.id for s in result.sunk],
    )
    by_label = {"A": side_a, "B": side_b}
    if result.winner is not None:
        for fleet in by_label[result.winner].fleets:
            board.turns[fleet.id].won = True
    if result.loser is None:
        if result.outcome == "parted":
            _part(board, province, step, (a, side_a), (b, side_b), chain)
        return result
    winner, loser = by_label[result.winner or ""], by_label[result.loser]
    commander = capturing_commander([f for f in winner.fleets if f.id in board.fleets])
    if result.captured and commander is not None:
        prizes = {id(s) for s in result.captured}
        take_prizes(
            board,
            [(f, [s for s in f.ships if id(s) in prizes]) for f in loser.fleets],
            commander,
            province,
            reason=result.outcome,
        )
    if result.outcome in ("retreated", "max_rounds"):  # R1: the loser retreats, points or not
        defeat = Defeat(
            province, step, winner.fleets, loser.standing, chain if loser is side_a else 0
        )
        for fleet in sorted(loser.fleets, key=lambda f: f.id):
            if fleet.id in board.fleets:
                _counterattack(board, retreat(board, fleet, defeat))
    return result


def _part(
    board: Board,
    province: str,
    step: int,
    one: tuple[Side, BattleSide],
    other: tuple[Side, BattleSide],
    chain: int,
) -> None:
    """D6 / X29 / X30: the two sides part. Fleet by fleet, one that entered the province in this
    step goes back to its origin (R2), even when its side defends; one that was there before
    stays. The two sides do not fight each other again this turn, wherever they meet (X29)."""
    board.parted.add(_pair_key(one[0], other[0]))
    for (_, mine), (_, theirs) in ((one, other), (other, one)):
        for fleet in sorted(mine.fleets, key=lambda f: f.id):
            turn = board.turns[fleet.id]
            if fleet.id not in board.fleets or fleet.at != province:
                continue
            if turn.entered_step == step and turn.origin is not None:
                defeat = Defeat(province, step, theirs.fleets, mine.standing, chain)
                _counterattack(board, go_back(board, fleet, defeat))


def _counterattack(board: Board, attack: Counterattack | None) -> None:
    """R4 / X17: the cornered fleet's battle is fought at once, the retreater as side A;
    defenders cannot evade. It fights the strongest hostile side there (R-16)."""
    if attack is None:
        return
    sides = form_sides(board, board.present(attack.province), attack.step)
    mine = next(s for s in sides if attack.fleet in s.fleets)
    # X29 does not hold it back: a cornered fleet that sails into hostile fleets attacks them
    # (R4), even those of a side it parted from (X17, docs/rulings.md R-11).
    hostile = [s for s in sides if s is not mine and _sides_hostile(board, mine, s)]
    if not hostile:
        return
    theirs = min(hostile, key=lambda s: (-s.total2, s.first_faction))
    run_battle(board, attack.province, attack.step, mine, theirs, forced_a=mine, chain=attack.chain)


def _battle_side(board: Board, label: str, side: Side, province: str) -> BattleSide:
    fleets = sorted(side.fleets, key=lambda f: f.id)
    commander = min(fleets, key=lambda f: (-len(f.ships), f.id))  # X11
    return BattleSide(
        label,
        fleets,
        _supporters(board, side, province),
        board.turns[commander.id].standing,
        side.attacking,
    )


def _supporters(board: Board, side: Side, province: str) -> list[Fleet]:
    """S2 / X10: a supporter joins the first battle, in battle order, fought in an adjacent sea
    province where the faction it names takes part, unless it is at war with that faction."""
    if not board.pending_support:
        return []
    taking_part = {s.owner for f in side.fleets for s in f.ships} | side.factions
    joined = []
    for fleet_id, faction in list(board.pending_support.items()):
        fleet = board.fleets.get(fleet_id)
        if fleet is None or fleet.docked or not board.map.adjacent(fleet.at, province):
            continue
        if faction not in taking_part or board.relations.hostile(fleet.owner, faction):
            continue
        del board.pending_support[fleet_id]
        board.turns[fleet_id].joined_support = True
        board.log("supported", fleet=fleet_id, faction=faction, province=province)
        joined.append(fleet)
    return joined


def _order_sides(first: Side, second: Side, forced_a: Side | None) -> tuple[Side, Side]:
    """E3 / X8: the attacking side is A; two attacking or two defending sides: the greater total
    attack (X3) is A, ties the side with the lowest faction id."""
    if forced_a is not None:
        return (first, second) if forced_a is first else (second, first)
    if first.attacking != second.attacking:
        return (first, second) if first.attacking else (second, first)
    if (-first.total2, first.first_faction) <= (-second.total2, second.first_faction):
        return first, second
    return second, first


def _strongest_hostile_pair(
    board: Board, province: str, sides: list[Side]
) -> tuple[Side, Side] | None:
    """X26: of several hostile pairs, the one with the greatest summed total attack fights
    first; X37: of equal pairs, the one whose sides' lowest faction ids, taken in sorted order,
    come first. X29: a pair that parted this turn does not fight again."""
    best: tuple[tuple[int, str, str], Side, Side] | None = None
    for i, one in enumerate(sides):
        for other in sides[i + 1 :]:
            parted = _pair_key(one, other) in board.parted  # X29: for the whole turn
            if parted or not _sides_hostile(board, one, other):
                continue
            low, high = sorted((one.first_faction, other.first_faction))
            rank = (-(one.total2 + other.total2), low, high)
            if best is None or rank < best[0]:
                best = (rank, one, other)
    return None if best is None else (best[1], best[2])


def _sides_hostile(board: Board, one: Side, other: Side) -> bool:
    return any(board.relations.hostile(a, b) for a in one.factions for b in other.factions)


def _pair_key(one: Side, other: Side) -> frozenset[frozenset[str]]:
    return frozenset((one.factions, other.factions))


def _any_hostile(board: Board, fleets: list[Fleet]) -> bool:
    owners = list({f.owner for f in fleets})
    hostile = board.relations.hostile
    return any(hostile(a, b) for i, a in enumerate(owners) for b in owners[i + 1 :])


def _hostile_to_any(board: Board, fleet: Fleet, others: list[Fleet]) -> bool:
    return any(board.hostile(fleet, other) for other in others)


def _stop(board: Board, fleet: Fleet, province: str, step: int) -> None:
    turn = board.turns[fleet.id]
    if turn.plan:
        turn.plan.clear()
        board.log("stopped", fleet=fleet.id, province=province, step=step)
    turn.done = True


def _maybe_evade(board: Board, fleet: Fleet, province: str, step: int) -> None:
    """E2 / X4: `stance: evade` and a point left after this step: off to an adjacent sea
    province with no hostile fleets (evade_to first, else the lowest id), for 1 point."""
    turn = board.turns[fleet.id]
    if turn.standing.stance != "evade" or turn.points_left < 1:
        return
    if turn.fought or turn.evaded or turn.retreated or fleet.id not in board.fleets:
        return
    if fleet.at != province or not _side_faces_enemy(board, fleet, province, step):
        return
    options = [p for p in board.map.sea_neighbours(province) if not board.hostile_present(fleet, p)]
    if not options:
        return
    to = pick(options, turn.standing.evade_to)
    board.place(fleet, to, docked=False)
    turn.spent += 1
    turn.evaded = turn.done = True
    turn.plan.clear()
    board.log("evaded", fleet=fleet.id, **{"from": province}, to=to, step=step)


def _side_faces_enemy(board: Board, fleet: Fleet, province: str, step: int) -> bool:
    """X28: a fleet may evade when its side (X8, X27) faces a hostile side here now (earlier
    evaders may have left), whether or not its own faction is at war with a fleet there (an
    ally's war is its side's); a side it parted from this turn (X29) is not faced."""
    sides = form_sides(board, board.present(province), step)
    mine = next(s for s in sides if fleet in s.fleets)
    return any(
        s is not mine and _sides_hostile(board, mine, s) and _pair_key(mine, s) not in board.parted
        for s in sides
    )


def _sink(board: Board, fleet: Fleet) -> None:
    """D4: ships at 0 health go down; a fleet with none left is gone."""
    if fleet.id not in board.fleets:
        return
    sunk = [s for s in fleet.ships if s.health <= 0]
    if sunk:
        board.drop_ships(fleet, sunk)
        if fleet.id not in board.fleets and fleet.blockading is not None:
            board.lift_reasons[fleet.id] = "sunk"


__all__ = ["Side", "fight_battles", "form_sides", "resolve_encounters", "run_battle"]
