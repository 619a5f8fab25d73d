"""Dice (T2, X24): seeded independent streams; scripted dice first, then the seed."""

from __future__ import annotations

from engine.kernel.dice import ScriptedDice, SeededDice, dice_for


def rolls(dice, stream: str, n: int) -> list[int]:
    return [dice.roll(stream) for _ in range(n)]


def test_the_same_seed_gives_the_same_rolls() -> None:
    assert rolls(SeededDice(7), "battle:1:x:1", 50) == rolls(SeededDice(7), "battle:1:x:1", 50)
    assert rolls(SeededDice(7), "s", 50) != rolls(SeededDice(8), "s", 50)


def test_all_faces_come_up() -> None:
    assert set(rolls(SeededDice(1), "s", 200)) == {1, 2, 3, 4, 5, 6}


def test_streams_are_independent() -> None:
    # Rolling in another stream first (another battle) does not shift this stream's dice.
    alone = SeededDice(5)
    busy = SeededDice(5)
    rolls(busy, "battle:1:elsewhere:1", 17)
    assert rolls(alone, "battle:1:here:1", 20) == rolls(busy, "battle:1:here:1", 20)


def test_scripted_dice_come_first_then_the_seed_goes_on() -> None:
    scripted = ScriptedDice([6, 6, 1], SeededDice(3))
    assert rolls(scripted, "any", 3) == [6, 6, 1]
    assert scripted.unused == 0
    assert rolls(scripted, "s", 5) == rolls(SeededDice(3), "s", 5)


def test_dice_for_without_script_is_seeded() -> None:
    assert rolls(dice_for(11), "s", 10) == rolls(SeededDice(11), "s", 10)
    assert rolls(dice_for(11, [2]), "s", 1) == [2]
