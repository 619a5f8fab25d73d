"""Dice for every ruleset: six-sided, from a seed stored with the turn or game, or from a script.

Each roll names its stream, seeded from the stored seed and the stream's name, so a roll added
in one place does not shift the dice anywhere else (naval.md T2, X24: each battle and each buy-out
tie has its own stream). A scenario's scripted dice come first, in the order the rules roll them,
whatever the stream; when they run out the seeded streams go on. Python's `random.Random` seeded
with a string hashes it with SHA-512, so a stream is the same in every process and on every
machine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol


class Dice(Protocol):
    def roll(self, stream: str) -> int:
        """One six-sided die from the named stream."""
        ...


class SeededDice:
    """Independent streams: `random.Random(f"{seed}:{stream}")` per stream name."""

    __slots__ = ("_seed", "_streams")

    def __init__(self, seed: int) -> None:
        self._seed = seed
        self._streams: dict[str, random.Random] = {}

    def roll(self, stream: str) -> int:
        rng = self._streams.get(stream)
        if rng is None:
            rng = self._streams[stream] = random.Random(f"{self._seed}:{stream}")
        return 1 + int(rng.random() * 6)  # faster than randint, and as fair


class ScriptedDice:
    """The scenario's `dice` list first, in rolling order; then the seeded streams."""

    __slots__ = ("_after", "_next", "_script")

    def __init__(self, script: Sequence[int], after: Dice) -> None:
        self._script = tuple(script)
        self._next = 0
        self._after = after

    def roll(self, stream: str) -> int:
        if self._next < len(self._script):
            value = self._script[self._next]
            self._next += 1
            return value
        return self._after.roll(stream)

    @property
    def unused(self) -> int:
        return len(self._script) - self._next


def dice_for(seed: int, script: Sequence[int] = ()) -> Dice:
    """The dice of a turn or game: its script, if any, then its seed."""
    seeded = SeededDice(seed)
    return ScriptedDice(script, seeded) if script else seeded
