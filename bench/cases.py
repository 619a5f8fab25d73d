"""The benchmark's cases: generated campaigns against the floor, a Diplomacy-sized turn, odds."""

from __future__ import annotations

from dataclasses import dataclass

from bench.floor import FloorStats, floor_input, floor_turn
from bench.generate import Spec, generate
from bench.measure import (
    Workload,
    engine_turn,
    median_seconds,
    median_seconds_each,
    workload,
)
from engine.naval import parse_scenario
from engine.naval.odds import battle_odds
from engine.naval.rules import Rules
from engine.naval.world import Fleet, Ship, ShipType


@dataclass(frozen=True, slots=True)
class CampaignRow:
    fleets: int
    ships: int
    repetitions: int
    work: Workload
    floor: FloorStats
    floor_rounds_cap: int
    parse_s: float
    engine_s: float
    floor_s: float

    @property
    def ratio(self) -> float:
        return self.engine_s / self.floor_s


def campaign(fleets: int, repetitions: int) -> CampaignRow:
    """Generate, parse and resolve a campaign turn; then the floor on the same data, its battles
    capped at the engine's mean number of rounds per battle."""
    spec = Spec(fleets=fleets)
    doc = generate(spec)
    parse_s = median_seconds(lambda: parse_scenario(doc), repetitions)
    scenario = parse_scenario(doc)
    work = workload(scenario)  # also the warm-up
    if work.refused:
        raise SystemExit(f"{fleets} fleets: the engine refused {work.refused} generated orders")
    engine_s = median_seconds(lambda: engine_turn(scenario), repetitions)
    rows = floor_input(doc)
    cap = max(1, round(work.rounds_per_battle))
    floor_stats, _ = floor_turn(rows, cap, spec.seed)
    floor_s = median_seconds(lambda: floor_turn(rows, cap, spec.seed), max(repetitions, 5))
    return CampaignRow(
        fleets=fleets,
        ships=fleets * spec.ships_per_fleet,
        repetitions=repetitions,
        work=work,
        floor=floor_stats,
        floor_rounds_cap=cap,
        parse_s=parse_s,
        engine_s=engine_s,
        floor_s=floor_s,
    )


# 75 provinces, 7 powers, 34 one-ship fleets (as Diplomacy's units), each on a two-step move.
DIPLOMACY = Spec(fleets=34, sea=60, land=15, factions=7, ships_per_fleet=1, fleets_per_hotspot=1)
# The three variants: Diplomacy-like contact (judged against the target), no contact at all (every
# relation peace: movement and economy only), and battle-heavy (10-ship fleets crowding 6 seas).
DIPLOMACY_VARIANTS: tuple[tuple[str, Spec, bool], ...] = (
    ("units, a few contacts", DIPLOMACY, False),
    ("units, no contact", DIPLOMACY, True),
    ("10-ship fleets, crowded", Spec(fleets=34, sea=60, land=15, factions=7), False),
)


@dataclass(frozen=True, slots=True)
class SmallTurn:
    label: str
    spec: Spec
    repetitions: int
    work: Workload
    engine_s: float


def diplomacy_sized(repetitions: int) -> list[SmallTurn]:
    turns = []
    for label, spec, peace in DIPLOMACY_VARIANTS:
        doc = generate(spec)
        if peace:
            doc["relations"] = []
        scenario = parse_scenario(doc)
        work = workload(scenario)
        seconds = median_seconds_each(lambda s=scenario: engine_turn(s), repetitions)
        turns.append(SmallTurn(label, spec, repetitions, work, seconds))
    return turns


@dataclass(frozen=True, slots=True)
class OddsRun:
    ships_per_side: int
    samples: int
    repetitions: int
    seconds: float  # median time of one `battle_odds` call

    @property
    def battles_per_second(self) -> float:
        return self.samples / self.seconds


def odds(repetitions: int, samples: int = 1000, ships: int = 20) -> OddsRun:
    """`battle_odds` for `ships` against `ships` of one type (cost 100, attack 2, health 10)."""
    kind = ShipType("ship", 100, 2, 10)

    def fleet(name: str) -> Fleet:
        return Fleet(name, name, "sea", [Ship(f"{name}{i}", kind, 10, name) for i in range(ships)])

    side_a, side_b, rules = fleet("a"), fleet("b"), Rules()
    battle_odds(rules, [side_a], [side_b], samples=10)  # warm-up
    seconds = median_seconds(
        lambda: battle_odds(rules, [side_a], [side_b], samples=samples), repetitions
    )
    return OddsRun(ships, samples, repetitions, seconds)
