"""Campaign settings (the `code` numbers of naval.md) and the rulebook's rounding."""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Rules:
    """The `rules` block of a scenario; defaults are the rulebook's."""

    movement_points: int = 2  # M1
    fleet_limit: int = 20  # W5
    bonus_rate: Fraction = Fraction(1, 10)  # D1
    max_rounds: int = 10  # D
    capture_from_round: int = 3  # D5
    repair_rate: Fraction = Fraction(1, 2)  # P2
    upkeep_rate: Fraction = Fraction(1, 10)  # U1
    buyout_rate: Fraction = Fraction(1, 2)  # U4
    support_penalty: int = 1  # S3


RULE_KEYS: tuple[str, ...] = tuple(f.name for f in fields(Rules))
RATE_KEYS = frozenset({"bonus_rate", "repair_rate", "upkeep_rate", "buyout_rate"})


@lru_cache(maxsize=256)
def as_fraction(value: float | int | str) -> Fraction:
    """A rate as written in the file (0.1) as the exact fraction a moderator means (1/10)."""
    return Fraction(str(value))


def round_half_up(value: Fraction) -> int:
    """D1, D2, U1: "rounded to a whole number", halves up."""
    return int((value + Fraction(1, 2)).__floor__())


def rate_of(amount: int, rate: Fraction) -> int:
    """`amount × rate`, rounded half up (U1 upkeep, P2 repair, U4 buy-out)."""
    return (2 * amount * rate.numerator + rate.denominator) // (2 * rate.denominator)
