"""The figures as Markdown (printed, and optionally written into docs/benchmarks.md)."""

from __future__ import annotations

import os
import platform
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench.cases import CampaignRow, OddsRun, SmallTurn
from bench.docs import cpu_model
from bench.mila import Mila
from engine import naval

if TYPE_CHECKING:
    from bench.worker_turn import Skipped, WorkerRow

FLOOR_RATIO_TARGET = 3.0  # issue 23 §2, at every size (issue 3's was 10)
GROWTH_TOLERANCE = 1.25  # engine growth over floor growth, smallest to largest size
DIPLOMACY_TARGET_MS = 1.0
MILA_RATIO_TARGET = 0.5  # issue 23 §2: the Diplomacy-sized turn at most half MILA's process()
ODDS_TARGET = 2000.0
JUDGED_AT = 2000  # fleets: the size the campaign targets are set for
DATABASE_RATIO_TARGET = 3.0
START, END = "<!-- bench:figures:start -->", "<!-- bench:figures:end -->"


@dataclass(frozen=True, slots=True)
class Results:
    campaigns: list[CampaignRow]
    diplomacy: list[SmallTurn]  # the first is judged against the target
    odds: OddsRun
    database: list[WorkerRow]  # the full turn through a real worker, per database and size
    skipped: list[Skipped]
    mila: Mila | None = None  # MILA diplomacy's process(), measured in the same run
    mila_skipped: str = "not asked for"


def machine() -> list[str]:
    return [
        f"- Python {platform.python_version()} ({platform.python_implementation()})",
        f"- {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs",
        f"- Command: `{shlex.join(sys.orig_argv)}`",
    ]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _verdict(met: bool, fleets: int | None = None) -> str:
    if fleets is not None and fleets < JUDGED_AT:
        return f"not judged (the targets are for {JUDGED_AT:,} fleets; this is a smoke run)"
    return "met" if met else "**NOT met**"


def targets(results: Results) -> list[str]:
    lines = []
    rows = results.campaigns
    big = rows[-1]
    build = "compiled build" if naval.COMPILED else "plain sources"
    each = ", ".join(f"{r.ratio:.1f}× at {r.fleets:,}" for r in rows)
    lines.append(
        f"- Engine ({build}) ≤ {FLOOR_RATIO_TARGET:g}× floor at every size: {each} — "
        f"{_verdict(max(r.ratio for r in rows) <= FLOOR_RATIO_TARGET, big.fleets)}"
    )
    if len(rows) > 1:
        small = rows[0]
        engine_growth = big.engine_s / small.engine_s
        floor_growth = big.floor_s / small.floor_s
        linear = engine_growth <= GROWTH_TOLERANCE * floor_growth
        lines.append(
            f"- Linear growth ({small.fleets:,} → {big.fleets:,} fleets): engine ×"
            f"{engine_growth:.2f}, floor ×{floor_growth:.2f}, fleets ×{big.fleets / small.fleets:g}"
            f" — {_verdict(linear)} (engine may grow at most {GROWTH_TOLERANCE:g}× as fast as"
            " the minimal work on the same data)"
        )
    dip = results.diplomacy[0]
    dip_ms = dip.engine_s * 1000
    lines.append(
        f"- Diplomacy-sized turn ({dip.label}) under {DIPLOMACY_TARGET_MS:g} ms: {dip_ms:.2f} ms"
        f" — {_verdict(dip_ms < DIPLOMACY_TARGET_MS)}"
    )
    if results.mila is None:
        lines.append(
            f"- Diplomacy-sized turn ÷ MILA's `process()`: **not measured** "
            f"({results.mila_skipped})"
        )
    else:
        ratio = dip.engine_s / results.mila.median_s
        lines.append(
            f"- Diplomacy-sized turn at most {MILA_RATIO_TARGET:g}× MILA `diplomacy`'s "
            f"`process()` (same run): {dip_ms:.2f} ms ÷ {results.mila.median_s * 1000:.2f} ms = "
            f"{ratio:.2f}× — {_verdict(ratio <= MILA_RATIO_TARGET, big.fleets)}"
        )
    for vendor in ("sqlite", "postgresql"):
        mine = [d for d in results.database if d.database == vendor]
        if not mine:
            continue
        end = mine[-1]
        lines.append(
            f"- {vendor}, full resolution (the worker's task) at most {DATABASE_RATIO_TARGET:g}× "
            f"the engine alone ({end.fleets:,} fleets): {end.task_ratio:.1f}× — "
            f"{_verdict(end.task_ratio <= DATABASE_RATIO_TARGET, end.fleets)}"
        )
        lines.append(
            f"- {vendor}, lock + resolution + publish at most {DATABASE_RATIO_TARGET:g}× the "
            f"engine alone ({end.fleets:,} fleets): {end.total_ratio:.1f}× — "
            f"{_verdict(end.total_ratio <= DATABASE_RATIO_TARGET, end.fleets)}"
        )
    for skip in results.skipped:
        lines.append(f"- {skip.database} through a worker: **not measured** ({skip.reason})")
    rate = results.odds.battles_per_second
    lines.append(
        f"- Battle odds ≥ {ODDS_TARGET:,.0f} battles/s: {rate:,.0f}/s — "
        f"{_verdict(rate >= ODDS_TARGET)}"
    )
    return lines


def figures(results: Results) -> str:
    """The figures section: machine, tables and verdicts."""
    out = ["Machine and command:", "", *machine(), ""]
    out += [
        "Generated campaign turn (1,000 sea provinces, 100 ports, 40 factions, 10 ships a fleet):",
        "",
        "| fleets | ships | battles | rounds | ship-rounds | sunk | parse ms | engine ms "
        "| floor ms | engine ÷ floor | engine µs/fleet | reps |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results.campaigns:
        w = r.work
        ship_rounds = "n/a" if w.ship_rounds is None else f"{w.ship_rounds:,}"
        out.append(
            f"| {r.fleets:,} | {r.ships:,} | {w.battles:,} | {w.rounds:,} | {ship_rounds} "
            f"| {w.sunk:,} | {_ms(r.parse_s)} | {_ms(r.engine_s)} | {_ms(r.floor_s)} "
            f"| {r.ratio:.1f}× | {r.engine_s / r.fleets * 1e6:.0f} | {r.repetitions} |"
        )
    out += [
        "",
        "The floor's own workload on the same data (one battle per contested province, at most the"
        " engine's mean rounds per battle):",
        "",
        "| fleets | floor battles | floor rounds | rounds cap | floor ship-rounds | floor sunk "
        "| floor retreats |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results.campaigns:
        f = r.floor
        out.append(
            f"| {r.fleets:,} | {f.battles:,} | {f.rounds:,} | {r.floor_rounds_cap} "
            f"| {f.ship_rounds:,} | {f.sunk:,} | {f.retreats:,} |"
        )
    o = results.odds
    first = results.diplomacy[0].spec
    out += [
        "",
        f"Diplomacy-sized turn: {first.fleets} fleets on {first.sea + first.land} provinces, "
        f"{first.factions} factions, every fleet on a two-step move; medians over "
        f"{results.diplomacy[0].repetitions} repetitions:",
        "",
        "| variant | ships a fleet | battles | rounds | sunk | engine ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for d in results.diplomacy:
        out.append(
            f"| {d.label} | {d.spec.ships_per_fleet} | {d.work.battles} | {d.work.rounds} "
            f"| {d.work.sunk} | **{d.engine_s * 1000:.2f}** |"
        )
    out += [
        "",
        f"Battle odds, {o.ships_per_side} ships against {o.ships_per_side} (attack 2, health 10),"
        f" {o.samples:,} samples: median {_ms(o.seconds)} ms per call over {o.repetitions} call(s)"
        f" = **{o.battles_per_second:,.0f} simulated battles/s**.",
        "",
        *_worker_tables(results.database),
        "Targets:",
        "",
        *targets(results),
    ]
    return "\n".join(out) + "\n"


def _mb(size: float) -> str:
    return f"{size / 1e6:.1f}"


def _worker_tables(rows: list[WorkerRow]) -> list[str]:
    if not rows:
        return []
    reps = sorted({d.repetitions for d in rows})
    return [
        "The same turns in full through a real Celery worker (Redis, solo pool), as the dashboard"
        f" runs them: lock, resolution by the worker, publish; medians over {_join(reps)}"
        f" round{'s' if reps[-1] > 1 else ''}, the turn rolled back between rounds:",
        "",
        "| fleets | ships | database | lock ms | queue ms | task ms | publish ms "
        "| lock → resolved ms | engine ms | adjudicate ms | task ÷ engine "
        "| lock + task + publish ÷ engine |",
        "|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *[
            f"| {d.fleets:,} | {d.ships:,} | {d.database} | {_ms(d.lock_s)} | {_ms(d.queue_s)} "
            f"| {_ms(d.task_s)} | {_ms(d.publish_s)} | {_ms(d.lock_to_resolved_s)} "
            f"| {_ms(d.engine_s)} | {_ms(d.adjudicate_s)} | **{d.task_ratio:.1f}×** "
            f"| **{d.total_ratio:.1f}×** |"
            for d in rows
        ],
        "",
        "Queries, sizes and memory of the same runs (queries through Django; PostgreSQL's COPY"
        " statements are not counted):",
        "",
        "| fleets | database | import s | lock queries | task queries | publish queries "
        "| scenario MB | result MB | task CPU ms | engine CPU ms | task peak MB (tracemalloc) "
        "| worker RSS MB, idle → peak |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *[
            f"| {d.fleets:,} | {d.database} | {d.import_s:.2f} | {d.lock_queries} "
            f"| {d.task_queries} | {d.publish_queries} | {_mb(d.scenario_bytes)} "
            f"| {_mb(d.result_bytes)} | {_ms(d.task_cpu_s)} | {_ms(d.engine_cpu_s)} "
            f"| {_mb(d.task_peak_bytes)} "
            f"| {_mb(d.worker_idle_kb * 1024)} → {_mb(d.worker_peak_kb * 1024)} |"
            for d in rows
        ],
        "",
    ]


def _join(numbers: list[int]) -> str:
    return " or ".join(str(n) for n in numbers)


def write_docs(path: Path, section: str) -> None:
    """Replace what lies between the figure markers of the document."""
    text = path.read_text()
    start, end = text.find(START), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{path}: the markers {START} … {END} are missing")
    path.write_text(text[: start + len(START)] + "\n" + section + text[end:])
