"""The naval map of a 1,000-province world (issue 20 §1): how long the area map takes, drawn cold
(nothing kept: the first drawing of a world's map in a process), drawn with the world's
geometry, label plan and land and sea kept (another viewer's map, or the map after a turn moved
the fleets: maps/svg.py `shared`, as fleets/map_views.py keeps it), drawn again for another
order with everything kept (the desk's map after an order: only the arrows are new), and the
geometry alone (positions, regions, ports: maps/geometry.measure).

The present code is measured beside the map as it was at `BEFORE` (its `maps/` package taken
from git), the same world, in the same run: each side in a process of its own, the two taking
turns (`ROUNDS`), so that what else the machine does weighs on both alike. A side's figure is
the median of all its repetitions. The two drawings must be the same bytes (`same_bytes`).

The world is bench/generate.py's 900 seas and 100 lands with no positions (the default
sunflower layout, maps/geometry.default_positions), 200 fleets, the moderator's view."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path
from typing import Any

from bench.generate import Spec, generate

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "9af0631"  # the map before issue 20 §1's speed-up (branch mapperf)
ROUNDS = 2
PARTS = ("geometry", "cold", "cold-cpu", "kept", "kept-cpu", "order")


@dataclass(frozen=True, slots=True)
class Side:
    """One side's medians, in ms, the SVG's size and its hash."""

    times: dict[str, float]
    kilobytes: float
    digest: str


@dataclass(frozen=True, slots=True)
class MapTimes:
    provinces: int
    fleets: int
    now: Side  # the code as it runs: its compiled build when there is a fresh one
    compiled: bool  # whether `now` ran the compiled build (tools/compile_engine.py)
    plain: Side | None  # the same sources, plain Python (ADMIRALTY_PURE_ENGINE=1)
    before: Side | None
    before_skipped: str  # why the map before was not measured, when it was not


def raw_times(repetitions: int, fleets: int = 200) -> dict[str, Any]:
    """This process's `maps` package timed, each part `repetitions` times (seconds each)."""
    from maps import Layout, map_svg
    from maps.geometry import measure
    from maps.model import read_model

    doc = generate(Spec(fleets=fleets, sea=900, land=100))
    layout = Layout()
    model = read_model(doc, None, True)
    moves = [o for o in doc.get("orders", []) if o.get("type") == "move"]
    out: dict[str, Any] = {"provinces": len(model.kinds), "fleets": len(model.fleets)}
    cpu: list[float] = []

    def each(run: Any) -> list[float]:
        """Wall seconds per repetition; the process's CPU seconds go to `cpu` (what the
        drawing itself costs, less what else the machine runs meanwhile)."""
        walls = []
        for _ in range(repetitions):
            gc.collect()  # as bench.measure.median_seconds does
            wall, used = time.perf_counter(), time.process_time()
            run()
            walls.append(time.perf_counter() - wall)
            cpu.append(time.process_time() - used)
        return walls

    out["geometry"] = each(lambda: measure(model, layout, doc))
    cpu = []
    out["cold"] = each(lambda: map_svg(doc, layout))
    out["cold-cpu"] = cpu
    cpu = []
    shared: dict[Any, Any] = {}
    svg = map_svg(doc, layout, shared=shared)
    out["kept"] = each(lambda: map_svg(doc, layout, shared=shared))
    out["kept-cpu"] = cpu
    kept: dict[str, Any] = {}
    map_svg(doc, layout, orders=moves[:1], kept=kept, shared=shared)
    turn = iter(range(10**6))
    out["order"] = each(
        lambda: map_svg(doc, layout, orders=moves[next(turn) % len(moves) :][:1], kept=kept)
    )
    out["bytes"] = len(svg.encode())
    out["digest"] = hashlib.sha256(svg.encode()).hexdigest()
    return out


def _before_tree(into: Path) -> None:
    """The `maps/` package as it was at BEFORE, written under `into`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", BEFORE, "maps"],
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def _run_side(maps_from: Path, repetitions: int, *, pure: bool = False) -> dict[str, Any]:
    """`raw_times` in a fresh process whose `maps` is the one under `maps_from` (first on the
    path: the process runs there), the rest of the project from this checkout; `pure`: the
    plain sources even where a compiled build is fresh."""
    code = (
        "import json, sys\n"
        "import maps\n"
        "from bench.maps import raw_times\n"
        f"print(json.dumps({{**raw_times({repetitions}), "
        "'compiled': getattr(maps, 'COMPILED', False)}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "ADMIRALTY_PURE_ENGINE"}
    env["PYTHONPATH"] = str(ROOT)
    if pure:
        env["ADMIRALTY_PURE_ENGINE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=maps_from, env=env, check=True, capture_output=True
    )
    result: dict[str, Any] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result


def _side(runs: list[dict[str, Any]]) -> Side:
    return Side(
        {p: 1000 * statistics.median([t for run in runs for t in run[p]]) for p in PARTS},
        runs[0]["bytes"] / 1024,
        runs[0]["digest"],
    )


def measure_map(repetitions: int = 5, *, before: bool = True) -> MapTimes:
    """Every side, taking turns for ROUNDS rounds (each round a share of the repetitions): the
    map before, the present sources as plain Python, and the present code as it runs (its
    compiled build, when fresh; else the plain sources again, and no plain side apart)."""
    share = max(1, -(-repetitions // ROUNDS))
    now_runs: list[dict[str, Any]] = []
    plain_runs: list[dict[str, Any]] = []
    before_runs: list[dict[str, Any]] = []
    skipped = "" if before else "not asked for"
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp)
        if before:
            try:
                _before_tree(old)
            except (OSError, subprocess.CalledProcessError) as error:
                skipped = f"its code could not be read from git ({error})"
        for _ in range(ROUNDS):
            if not skipped:
                before_runs.append(_run_side(old, share))
            now_runs.append(_run_side(ROOT, share))
            if now_runs[0]["compiled"]:
                plain_runs.append(_run_side(ROOT, share, pure=True))
    return MapTimes(
        now_runs[0]["provinces"],
        now_runs[0]["fleets"],
        _side(now_runs),
        bool(now_runs[0]["compiled"]),
        _side(plain_runs) if plain_runs else None,
        _side(before_runs) if before_runs else None,
        skipped,
    )


ROWS = (
    ("geometry", "the geometry: positions, regions, ports"),
    ("cold", "the whole map, cold"),
    ("cold-cpu", "the same, the process's CPU time"),
    ("kept", "the whole map, geometry, label plan and land and sea kept"),
    ("kept-cpu", "the same, the process's CPU time"),
    ("order", "the whole map for another order, everything kept"),
)


def section(t: MapTimes) -> str:
    head = f"### The area map, {t.provinces:,} provinces and {t.fleets:,} fleets\n\n"
    now = "now, compiled" if t.compiled else "now (no compiled build: plain Python)"
    sides = [(f"before ({BEFORE})", t.before)] if t.before is not None else []
    if t.plain is not None:
        sides.append(("now, plain Python", t.plain))
    sides.append((now, t.now))
    ratio = t.before is not None
    rows = ""
    for p, words in ROWS:
        cells = " | ".join(f"{side.times[p]:,.1f} ms" for _, side in sides)
        if ratio:
            assert t.before is not None
            cells += f" | {t.now.times[p] / t.before.times[p]:.2f}×"
        rows += f"| {words} | {cells} |\n"
    sizes = " | ".join(f"{side.kilobytes:,.0f} kB" for _, side in sides)
    table = (
        "| part | "
        + " | ".join(name for name, _ in sides)
        + (" | ratio, now ÷ before |" if ratio else " |")
        + "\n|---|"
        + "---|" * (len(sides) + ratio)
        + "\n"
        + rows
        + f"| SVG size | {sizes} |"
        + (" |" if ratio else "")
        + "\n\n"
    )
    digests = {side.digest for _, side in sides}
    same = "yes" if len(digests) == 1 else "**no**"
    tail = f"The same bytes on every side: {same}.\n"
    if t.before is None:
        tail += f"The map before ({BEFORE}) not measured: {t.before_skipped}.\n"
    return head + table + tail


if __name__ == "__main__":
    print(section(measure_map()), end="")
