"""One battle, round by round (naval.md D1–D9, X12–X14). No tactical map.

`fight` changes the health of the ships it is given and returns what happened; the board then sinks,
captures and retreats (encounter.py, capture.py, retreat.py). It is also what the battle-odds helper
simulates, so it knows nothing about the map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.dice import Dice
from engine.orders import Standing
from engine.rules import Rules
from engine.world import Fleet, Ship


@dataclass(slots=True)
class BattleSide:
    """E3 / X8: the fleets of one side in the battle province, and its supporters (S2)."""

    label: str  # "A" rolls first
    fleets: list[Fleet]
    supporters: list[Fleet]
    standing: Standing  # the commander's standing orders (X11)
    attacking: bool

    def combatants(self) -> list[Ship]:
        return [s for f in self.fleets for s in f.ships if s.health > 0]

    def all_ships(self) -> list[Ship]:
        """Every ship that fights and takes losses: supporters' ships too (S2)."""
        return [s for f in (*self.fleets, *self.supporters) for s in f.ships if s.health > 0]


@dataclass(slots=True)
class BattleResult:
    rounds: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None  # "A" | "B" | None
    outcome: str = "destroyed"  # destroyed | retreated | routed | parted | max_rounds
    loser: str | None = None  # the side that leaves (retreated, max_rounds) or is taken (routed)
    captured: list[Ship] = field(default_factory=list)  # D7, D8
    sunk: list[Ship] = field(default_factory=list)


def strength(ships: list[Ship], bonus: bool, rules: Rules) -> int:
    """D1, D2: the sum of attack (halved at half health or less), +bonus_rate for the higher die,
    rounded half up once."""
    base2 = sum(s.attack2 for s in ships)  # in half points, so halves stay exact
    if not bonus:
        return (base2 + 1) // 2
    p, q = rules.bonus_rate.numerator, rules.bonus_rate.denominator
    return (base2 * (q + p) + q) // (2 * q)


def spread(points: int, ships: list[Ship], capture: bool) -> dict[Ship, int]:
    """D3 equal shares (X13 in capture mode): the damage each ship takes, not yet applied.

    Each ship afloat takes `min(D // n, what it can take)`; what is left over goes round again over
    the ships that can still take damage; when fewer points than ships remain, one point each goes
    to the ships with the highest current health (ties: lowest ship id, X16). In capture mode (D5)
    a ship can take at most health - 1; points nobody can take are lost.
    """
    keep = 1 if capture else 0
    room = {s: s.health - keep for s in ships if s.health > keep}
    taken: dict[Ship, int] = {}
    pool = list(room)
    while points > 0 and pool:
        n = len(pool)
        if points < n:
            pool.sort(key=lambda s: (-(s.health - taken.get(s, 0)), s.id))
            for ship in pool[:points]:
                taken[ship] = taken.get(ship, 0) + 1
            break
        share = points // n
        still = []
        for ship in pool:
            take = min(share, room[ship])
            room[ship] -= take
            taken[ship] = taken.get(ship, 0) + take
            points -= take
            if room[ship]:
                still.append(ship)
        pool = still
    return taken


def fight(a: BattleSide, b: BattleSide, rules: Rules, dice: Dice, stream: str) -> BattleResult:
    """D1–D9: rounds until a side is destroyed, routed or retreats, or the round cap (X14)."""
    result = BattleResult()
    start = {
        a.label: strength(a.all_ships(), False, rules),
        b.label: strength(b.all_ships(), False, rules),
    }
    for number in range(1, rules.max_rounds + 1):
        record = _round(a, b, number, rules, dice, stream, result)
        result.rounds.append(record)
        if _after_round(a, b, number, start, rules, dice, stream, record, result):
            break
    return result


def _round(
    a: BattleSide,
    b: BattleSide,
    number: int,
    rules: Rules,
    dice: Dice,
    stream: str,
    result: BattleResult,
) -> dict[str, Any]:
    roll_a, roll_b = dice.roll(stream), dice.roll(stream)  # D1: side A, then side B
    ships_a, ships_b = a.all_ships(), b.all_ships()
    strength_a = strength(ships_a, roll_a > roll_b, rules)
    strength_b = strength(ships_b, roll_b > roll_a, rules)
    capture_a = a.standing.prefer == "capture" and number >= rules.capture_from_round
    capture_b = b.standing.prefer == "capture" and number >= rules.capture_from_round
    # D3: both sides deal their damage at once, from the state at the start of the round.
    damage = spread(strength_a, ships_b, capture_a)
    damage.update(spread(strength_b, ships_a, capture_b))
    losses: dict[str, int] = {}
    sunk: list[str] = []
    for ship in (*ships_a, *ships_b):
        hit = damage.get(ship, 0)
        if hit:
            ship.health -= hit
            losses[ship.id] = hit
            if ship.health == 0:  # D4
                sunk.append(ship.id)
                result.sunk.append(ship)
    return {
        "round": number,
        "dice": [roll_a, roll_b],
        "strength": [strength_a, strength_b],
        "losses": losses,
        "sunk": sunk,
    }


def _after_round(
    a: BattleSide,
    b: BattleSide,
    number: int,
    start: dict[str, int],
    rules: Rules,
    dice: Dice,
    stream: str,
    record: dict[str, Any],
    result: BattleResult,
) -> bool:
    """X14: the checks after each round, in order. True when the battle is over."""
    alive_a, alive_b = a.combatants(), b.combatants()
    if not alive_a or not alive_b:  # D9: a side with no ships afloat (supporters do not count)
        result.winner = "A" if alive_a else "B" if alive_b else None
        result.outcome = "destroyed"
        return True
    routed_a = all(s.health == 1 for s in alive_a)
    routed_b = all(s.health == 1 for s in alive_b)
    if routed_a != routed_b:  # D8: a routed side cannot get away; all its ships are captured
        loser, winner, ships = (a, b, alive_a) if routed_a else (b, a, alive_b)
        _end(result, winner, loser, "routed", ships)
        return True
    # both routed: neither is, and no retreat check this round (X14)
    if not routed_a and _retreat_check(a, b, number, start, rules, dice, stream, record, result):
        return True
    if number == rules.max_rounds:  # D9 ruling: the attacking side (A) loses and retreats
        _end(result, b, a, "max_rounds", [s for s in alive_a if s.health == 1])
        return True
    return False


def _retreat_check(
    a: BattleSide,
    b: BattleSide,
    number: int,
    start: dict[str, int],
    rules: Rules,
    dice: Dice,
    stream: str,
    record: dict[str, Any],
    result: BattleResult,
) -> bool:
    """D6: retreat wishes (side A first) and the roll; D7: 1-health ships stay as prizes."""
    wants_a = _wants_retreat(a, number, start[a.label], rules)
    wants_b = _wants_retreat(b, number, start[b.label], rules)
    if wants_a and wants_b:  # both: they part without a roll, nothing is captured
        result.winner, result.outcome = None, "parted"
        return True
    if not (wants_a or wants_b):
        return False
    leaving, staying = (a, b) if wants_a else (b, a)
    roll_leaving, roll_staying = dice.roll(stream), dice.roll(stream)
    success = roll_leaving > roll_staying
    record["retreat"] = {
        "side": leaving.label,
        "dice": [roll_leaving, roll_staying],
        "success": success,
    }
    if success:
        prizes = [s for s in leaving.combatants() if s.health == 1]
        _end(result, staying, leaving, "retreated", prizes)
    return success


def _wants_retreat(side: BattleSide, number: int, start: int, rules: Rules) -> bool:
    """X12: `below` compares D2 strengths (rounded, no bonus, supporters counted), strictly."""
    when = side.standing.retreat
    if when.after_round is not None and number >= when.after_round:
        return True
    if when.below is not None:
        return strength(side.all_ships(), False, rules) < when.below * start
    return False


def _end(
    result: BattleResult, winner: BattleSide, loser: BattleSide, outcome: str, captured: list[Ship]
) -> None:
    result.winner, result.loser, result.outcome = winner.label, loser.label, outcome
    result.captured = captured
