"""Timing and workload helpers: medians of `time.perf_counter` after `gc.collect()`."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import engine.naval.battle
from engine.naval import Scenario, TurnResult, dice_for, resolve_turn


def median_seconds(run: Callable[[], object], repetitions: int) -> float:
    """The median wall time of `run`, each repetition after a full garbage collection."""
    times = []
    for _ in range(repetitions):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_seconds_each(run: Callable[[], object], repetitions: int) -> float:
    """For sub-millisecond calls: the median of the calls' own times, one garbage collection
    before the series (collecting before every call would time a cold cache each time)."""
    gc.collect()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def engine_turn(scenario: Scenario) -> TurnResult:
    """The timed call: `resolve_turn` on a parsed scenario, with fresh dice from its seed."""
    return resolve_turn(scenario.world, scenario.orders, dice_for(scenario.seed))


@dataclass(frozen=True, slots=True)
class Workload:
    """What a turn did, from its events (and the ship-rounds counted during an untimed run)."""

    battles: int
    rounds: int
    ship_rounds: int | None  # ships afloat summed over every round, both sides
    sunk: int
    retreats: int
    refused: int  # orders the engine refused (the generator writes none)

    @property
    def rounds_per_battle(self) -> float:
        return self.rounds / self.battles if self.battles else 0.0


@contextmanager
def _counting_targets(counter: list[int]) -> Iterator[None]:
    """Count the ships each battle round deals damage to (`engine.naval.battle.spread` is called
    once per side and round with that side's ships afloat). Used only outside the timings."""
    original: Any = getattr(engine.naval.battle, "spread", None)
    if original is None:
        counter.append(-1)
        yield
        return

    def counted(points: int, ships: list[Any], capture: bool) -> Any:
        counter[0] += len(ships)
        return original(points, ships, capture)

    engine.naval.battle.spread = counted
    try:
        yield
    finally:
        engine.naval.battle.spread = original


def workload(scenario: Scenario) -> Workload:
    """One untimed engine turn, read for the figures that make the workload visible."""
    counter = [0]
    with _counting_targets(counter):
        result = engine_turn(scenario)
    battles = [e for e in result.events if e["type"] == "battle"]
    return Workload(
        battles=len(battles),
        rounds=sum(len(e["rounds"]) for e in battles),
        ship_rounds=None if len(counter) > 1 else counter[0],
        sunk=sum(len(e["sunk"]) for e in battles),
        retreats=sum(e["type"] == "retreated" for e in result.events),
        refused=len(result.refusals),
    )
