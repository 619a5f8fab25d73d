"""MILA `diplomacy` 1.1.2 (bench-only: requirements-bench.txt), the anchor of the naval engine's
Diplomacy-sized turn (issue 23 §2): the median time of its `process()` on a movement phase of
the standard map, played in the same run as our turn is measured.

The method is docs/benchmarks.md's (after ../shared/research/performance-anchors.md): random
games from the start; each phase every power's orders drawn with a seeded `random.Random` from
its sorted possible orders, then `process()` timed; the movement phases' times (32 units or so)
kept, until `PHASES` of them. It runs in a process of its own with PYTHONHASHSEED fixed (MILA's
option lists come from sets), its output (MILA prints) swallowed. Not installed: not measured."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

PHASES = 200  # movement phases timed
QUICK_PHASES = 10

_CHILD = r"""
import contextlib, io, json, random, statistics, sys, time
from diplomacy import Game
want, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
times, units = [], []
while len(times) < want:
    game = Game()
    while not game.is_game_done and len(times) < want:
        possible = game.get_all_possible_orders()
        for power in game.powers.values():
            here = sorted(game.get_orderable_locations(power.name))
            orders = [rng.choice(sorted(possible[loc])) for loc in here if possible[loc]]
            game.set_orders(power.name, orders)
        movement = game.phase_type == "M"
        count = sum(len(p.units) for p in game.powers.values())
        with contextlib.redirect_stdout(io.StringIO()):
            start = time.perf_counter()
            game.process()
            took = time.perf_counter() - start
        if movement:
            times.append(took)
            units.append(count)
print(json.dumps({"median_s": statistics.median(times), "phases": len(times),
                  "units": statistics.median(units)}))
"""


@dataclass(frozen=True, slots=True)
class Mila:
    median_s: float  # process() on a movement phase
    phases: int
    units: float  # the median count of units on those phases


def measure(quick: bool = False, seed: int = 0) -> tuple[Mila | None, str]:
    """MILA's figure, or None and why it was not measured."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    phases = QUICK_PHASES if quick else PHASES
    try:
        done = subprocess.run(
            [sys.executable, "-c", _CHILD, str(phases), str(seed)],
            env=env,
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None, "MILA's games took over 15 minutes"
    if done.returncode != 0:
        if "No module named 'diplomacy'" in done.stderr:
            return None, "diplomacy is not installed (pip install -r requirements-bench.txt)"
        return None, f"MILA's games failed: {done.stderr.strip().splitlines()[-1:]}"
    raw = json.loads(done.stdout.strip().splitlines()[-1])
    return Mila(raw["median_s"], raw["phases"], raw["units"]), ""
