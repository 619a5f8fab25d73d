"""Battle odds: a battle simulated many times with seeded dice (for players, beside an order).

The same `battle.fight` that resolves turns, on copies of the fleets, so the odds follow every
battle rule (D1–D9), the standing orders included. Deterministic for a given seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.kernel.dice import SeededDice
from engine.naval.battle import BattleSide, fight
from engine.naval.orders import DEFAULT_STANDING, Standing
from engine.naval.rules import Rules
from engine.naval.world import Fleet


@dataclass(frozen=True, slots=True)
class Odds:
    """Shares of `samples` battles (they add up to 1) and average losses per battle."""

    samples: int
    a_wins: float  # B destroyed or routed
    b_wins: float
    a_retreats: float  # A got away (D6) or lost on the round cap (D9)
    b_retreats: float
    parted: float
    no_winner: float  # both sides sunk to the last ship
    a_ships_lost: float  # sunk or captured, per battle
    b_ships_lost: float
    a_ships_captured: float  # A's ships taken by B, per battle
    b_ships_captured: float


def battle_odds(
    rules: Rules,
    side_a: Sequence[Fleet],
    side_b: Sequence[Fleet],
    *,
    standing_a: Standing = DEFAULT_STANDING,
    standing_b: Standing = DEFAULT_STANDING,
    attacking: str | None = "A",
    samples: int = 1000,
    seed: int = 0,
) -> Odds:
    """Fight the battle `samples` times; side A rolls first (E3)."""
    dice = SeededDice(seed)
    counts = dict.fromkeys(
        ("a_wins", "b_wins", "a_retreats", "b_retreats", "parted", "no_winner"), 0
    )
    lost = {"A": 0, "B": 0}
    captured = {"A": 0, "B": 0}
    size = {"A": sum(len(f.ships) for f in side_a), "B": sum(len(f.ships) for f in side_b)}
    for n in range(samples):
        a = BattleSide("A", [f.copy() for f in side_a], [], standing_a, attacking == "A")
        b = BattleSide("B", [f.copy() for f in side_b], [], standing_b, attacking == "B")
        result = fight(a, b, rules, dice, f"odds:{n}")
        if result.winner is None:
            counts["parted" if result.outcome == "parted" else "no_winner"] += 1
        elif result.outcome in ("retreated", "max_rounds"):
            counts["b_retreats" if result.loser == "B" else "a_retreats"] += 1
        else:
            counts["a_wins" if result.winner == "A" else "b_wins"] += 1
        for label, side in (("A", a), ("B", b)):
            afloat = len(side.combatants())
            lost[label] += size[label] - afloat
        if result.loser is not None:
            captured[result.loser] += len(result.captured)
            lost[result.loser] += len(result.captured)
    share = {k: v / samples for k, v in counts.items()}
    return Odds(
        samples=samples,
        a_ships_lost=lost["A"] / samples,
        b_ships_lost=lost["B"] / samples,
        a_ships_captured=captured["A"] / samples,
        b_ships_captured=captured["B"] / samples,
        **share,
    )
