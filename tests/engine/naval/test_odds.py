"""`battle_odds`: the battle simulated with seeded dice (D1-D9)."""

from __future__ import annotations

import pytest

from engine.naval import battle_odds
from engine.naval.orders import RetreatWhen, Standing
from engine.naval.rules import Rules
from engine.naval.world import Fleet, Ship, ShipType

FRIGATE = ShipType("frigate", 100, 2, 10)


def squadron(name: str, ships: int) -> Fleet:
    return Fleet(
        name, name, "sea", [Ship(f"{name}-{n:02}", FRIGATE, 10, name) for n in range(ships)]
    )


def shares(odds) -> float:
    return (
        odds.a_wins + odds.b_wins + odds.a_retreats + odds.b_retreats + odds.parted + odds.no_winner
    )


def test_shares_add_up_and_equal_sides_are_even() -> None:
    odds = battle_odds(Rules(), [squadron("a", 10)], [squadron("b", 10)], samples=400, seed=3)
    assert shares(odds) == pytest.approx(1.0)
    assert abs(odds.a_wins - odds.b_wins) < 0.15


def test_a_much_stronger_side_wins() -> None:
    odds = battle_odds(Rules(), [squadron("a", 20)], [squadron("b", 4)], samples=200)
    assert odds.a_wins == 1.0
    assert odds.b_ships_lost == 4.0
    assert odds.a_ships_lost == 0.0


def test_the_same_seed_gives_the_same_odds() -> None:
    args = (Rules(), [squadron("a", 6)], [squadron("b", 6)])
    assert battle_odds(*args, seed=9, samples=100) == battle_odds(*args, seed=9, samples=100)


def test_standing_orders_are_simulated() -> None:
    leave = Standing(retreat=RetreatWhen(after_round=1))
    odds = battle_odds(
        Rules(), [squadron("a", 10)], [squadron("b", 10)], standing_b=leave, samples=300
    )
    # D6: B asks to leave after every round; it gets away when its die is strictly higher.
    assert odds.b_retreats > 0.3
    assert odds.a_retreats == 0.0


def test_the_input_fleets_are_not_touched() -> None:
    a = squadron("a", 5)
    battle_odds(Rules(), [a], [squadron("b", 5)], samples=10)
    assert all(s.health == 10 for s in a.ships)
