"""The naval engine's results, for tests/engine/naval/test_compiled.py: `python -m
tests.engine.naval.same_bytes` prints {"compiled": …, "results": …, "changed": […]} for the build
this process runs (the compiled one, or the plain sources under ADMIRALTY_PURE_ENGINE=1): every
recorded input of test_golden.py (the rule cases, 300 generated turns, 100 hard situations)
adjudicated, and those whose bytes are not the recorded ones; and the legal orders and battle
odds of the bundled skirmish, which the desk shows, as one digest."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import engine.naval as naval
from engine.naval import adjudicate, battle_odds, legal_orders, parse_scenario
from tests.engine.naval.test_golden import GOLDEN, digest, documents

ROOT = Path(__file__).resolve().parents[3]


def desk_digest() -> str:
    """What the desk asks of the engine beside a turn: every fleet's legal orders, and the odds
    of the skirmish's first two fleets' sides in battle."""
    doc = json.loads((ROOT / "examples" / "baltic-skirmish.scenario.json").read_text("utf-8"))
    world = parse_scenario(doc).world
    seen = [repr(legal_orders(world, fid)) for fid in sorted(world.fleets)]
    first, second = (world.fleets[fid] for fid in sorted(world.fleets)[:2])
    seen.append(repr(battle_odds(world.rules, [first], [second], samples=200, seed=7)))
    return hashlib.sha256("\n".join(seen).encode()).hexdigest()


if __name__ == "__main__":
    golden: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    docs = documents()
    changed = sorted(name for name, doc in docs.items() if digest(adjudicate(doc)) != golden[name])
    print(
        json.dumps(
            {
                "compiled": naval.COMPILED,
                "results": len(docs),
                "changed": changed,
                "desk": desk_digest(),
            }
        )
    )
