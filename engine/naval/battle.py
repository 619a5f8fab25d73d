"""One battle, round by round (naval.md D1–D9, X12–X14). No tactical map.

`fight` changes the health of the ships it is given and returns what happened; the board then sinks,
captures and retreats (encounter.py, capture.py, retreat.py). It is also what the battle-odds helper
simulates, so it knows nothing about the map.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.kernel.dice import Dice
from engine.naval.orders import Standing
from engine.naval.rules import Rules
from engine.naval.world import Fleet, Ship


@dataclass(slots=True)
class BattleSide:
    """E3 / X8: the fleets of one side in the battle province, and its supporters (S2)."""

    label: str  # "A" rolls first
    fleets: list[Fleet]
    supporters: list[Fleet]
    standing: Standing  # the commander's standing orders (X11)
    attacking: bool
    _crew: list[Ship] = field(init=False, default_factory=list)
    _all: list[Ship] = field(init=False, default_factory=list)
    base2: int = field(init=False, default=0)  # D2 total attack of all its ships, half points

    def __post_init__(self) -> None:
        self.count_afloat()

    def count_afloat(self) -> None:
        """Called after every round's damage: the lists below are read many times a round."""
        self._crew = [s for f in self.fleets for s in f.ships if s.health > 0]
        self._all = self._crew + [s for f in self.supporters for s in f.ships if s.health > 0]
        base2 = 0
        for ship in self._all:  # Ship.attack2, inlined: this runs twice a round
            kind = ship.type
            base2 += kind.attack if 2 * ship.health <= kind.health else 2 * kind.attack
        self.base2 = base2

    def combatants(self) -> list[Ship]:
        """The side's own ships afloat in the battle province (not its supporters')."""
        return self._crew

    def all_ships(self) -> list[Ship]:
        """Every ship that fights and takes losses: supporters' ships too (S2)."""
        return self._all


@dataclass(slots=True)
class BattleResult:
    rounds: list[dict[str, Any]] = field(default_factory=list)
    winner: str | None = None  # "A" | "B" | None
    outcome: str = "destroyed"  # destroyed | retreated | routed | parted | max_rounds
    loser: str | None = None  # the side that leaves (retreated, max_rounds) or is taken (routed)
    captured: list[Ship] = field(default_factory=list)  # D7, D8
    sunk: list[Ship] = field(default_factory=list)


def strength_of(base2: int, bonus: bool, rules: Rules) -> int:
    """D1, D2: a side's strength from its total attack in half points (a ship at half health or
    less fights with half its attack, and halves stay exact), +bonus_rate for the higher die,
    rounded half up once."""
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
    if len(ships) == 1:  # the common small case, without the bookkeeping
        ship = ships[0]
        hit = min(points, ship.health - keep)
        return {ship: hit} if hit > 0 else {}
    live = [s for s in ships if s.health > keep]
    room = [s.health - keep for s in live]
    taken = [0] * len(live)
    pool = list(range(len(live)))
    while points > 0 and pool:
        if points < len(pool):  # one point each to the healthiest ships, ties lowest id
            pool.sort(key=lambda i: (taken[i] - live[i].health, live[i].id))
            for i in pool[:points]:
                taken[i] += 1
            break
        share = points // len(pool)
        still = []
        for i in pool:
            take = share if share < room[i] else room[i]
            taken[i] += take
            room[i] -= take
            points -= take
            if room[i]:
                still.append(i)
        pool = still
    return {ship: hit for ship, hit in zip(live, taken, strict=True) if hit}


def fight(a: BattleSide, b: BattleSide, rules: Rules, dice: Dice, stream: str) -> BattleResult:
    """D1–D9: rounds until a side is destroyed, routed or retreats, or the round cap (X14)."""
    return _Battle(a, b, rules, dice, stream).fight()


class _Battle:
    """One battle being fought: the two sides, the rules, the dice stream and what happened."""

    def __init__(self, a: BattleSide, b: BattleSide, rules: Rules, dice: Dice, stream: str) -> None:
        self.a, self.b, self.rules, self.dice, self.stream = a, b, rules, dice, stream
        self.result = BattleResult()
        # X12: each side's D2 strength at the start of the battle, for `retreat: {below: …}`
        self.start = {side.label: strength_of(side.base2, False, rules) for side in (a, b)}

    def fight(self) -> BattleResult:
        for number in range(1, self.rules.max_rounds + 1):
            record = self.round(number)
            self.result.rounds.append(record)
            if self.over_after(number, record):
                break
        return self.result

    def round(self, number: int) -> dict[str, Any]:
        a, b, rules = self.a, self.b, self.rules
        roll_a, roll_b = self.roll(), self.roll()  # D1: side A, then side B
        strength_a = strength_of(a.base2, roll_a > roll_b, rules)
        strength_b = strength_of(b.base2, roll_b > roll_a, rules)
        capture_a = a.standing.prefer == "capture" and number >= rules.capture_from_round
        capture_b = b.standing.prefer == "capture" and number >= rules.capture_from_round
        # D3: both sides deal their damage at once, from the state at the start of the round.
        damage = spread(strength_b, a.all_ships(), capture_b)
        damage.update(spread(strength_a, b.all_ships(), capture_a))
        losses: dict[str, int] = {}
        sunk: list[str] = []
        for ship, hit in damage.items():
            ship.health -= hit
            losses[ship.id] = hit
            if ship.health == 0:  # D4
                sunk.append(ship.id)
                self.result.sunk.append(ship)
        a.count_afloat()
        b.count_afloat()
        return {
            "round": number,
            "dice": [roll_a, roll_b],
            "strength": [strength_a, strength_b],
            "losses": losses,
            "sunk": sunk,
        }

    def over_after(self, number: int, record: dict[str, Any]) -> bool:
        """X14: the checks after each round, in order. True when the battle is over."""
        a, b, result = self.a, self.b, self.result
        alive_a, alive_b = a.combatants(), b.combatants()
        if not alive_a or not alive_b:  # D9: a side with no ships afloat (supporters don't count)
            result.winner = "A" if alive_a else "B" if alive_b else None
            result.outcome = "destroyed"
            return True
        routed_a = all(s.health == 1 for s in alive_a)
        routed_b = all(s.health == 1 for s in alive_b)
        if routed_a != routed_b:  # D8: a routed side cannot get away; all its ships are taken
            loser, winner, ships = (a, b, alive_a) if routed_a else (b, a, alive_b)
            _end(result, winner, loser, "routed", ships)
            return True
        # both routed: neither is, and no retreat check this round (X14)
        if not routed_a and self.retreated_after(number, record):
            return True
        if number == self.rules.max_rounds:  # D9 ruling: the attacking side (A) loses, retreats
            _end(result, b, a, "max_rounds", [s for s in alive_a if s.health == 1])
            return True
        return False

    def retreated_after(self, number: int, record: dict[str, Any]) -> bool:
        """D6: retreat wishes (side A first) and the roll; D7: 1-health ships stay as prizes."""
        wants_a, wants_b = self.wants_retreat(self.a, number), self.wants_retreat(self.b, number)
        if wants_a and wants_b:  # both: they part without a roll, nothing is captured
            self.result.winner, self.result.outcome = None, "parted"
            return True
        if not (wants_a or wants_b):
            return False
        leaving, staying = (self.a, self.b) if wants_a else (self.b, self.a)
        roll_leaving, roll_staying = self.roll(), self.roll()
        success = roll_leaving > roll_staying
        record["retreat"] = {
            "side": leaving.label,
            "dice": [roll_leaving, roll_staying],
            "success": success,
        }
        if success:
            prizes = [s for s in leaving.combatants() if s.health == 1]
            _end(self.result, staying, leaving, "retreated", prizes)
        return success

    def wants_retreat(self, side: BattleSide, number: int) -> bool:
        """X12: `below` compares D2 strengths (rounded, no bonus, supporters counted), strictly;
        `after_round: n` applies after round n and every later round."""
        when = side.standing.retreat
        if when.after_round is not None and number >= when.after_round:
            return True
        if when.below is not None:  # strength < below × start, in whole numbers
            now = strength_of(side.base2, False, self.rules)
            return now * when.below.denominator < when.below.numerator * self.start[side.label]
        return False

    def roll(self) -> int:
        return self.dice.roll(self.stream)


def _end(
    result: BattleResult, winner: BattleSide, loser: BattleSide, outcome: str, captured: list[Ship]
) -> None:
    result.winner, result.loser, result.outcome = winner.label, loser.label, outcome
    result.captured = captured
