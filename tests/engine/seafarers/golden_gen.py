"""Golden playouts on the bundled board (issue 12 perf work): the SHA-256 of adjudicate's JSON
for seeded random playouts, so that an optimisation cannot change a single byte of a result.

`python -m tests.engine.seafarers.golden_gen` rewrites golden/four-islands.json; only do that
when a result is meant to change (never for a speed-up)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import yaml

from engine.seafarers import adjudicate, apply_action, legal_actions, parse_scenario
from tests.engine.seafarers.playouts import who_acts

ROOT = Path(__file__).resolve().parents[3]
BOARD = ROOT / "examples" / "four-islands.seafarers.yaml"
GOLDEN = Path(__file__).resolve().parent / "golden" / "four-islands.json"
GAMES = 200
LIMIT = 1000


def document(seed: int) -> dict[str, Any]:
    doc: dict[str, Any] = yaml.safe_load(BOARD.read_text(encoding="utf-8"))
    doc["seed"] = seed
    return doc


def playout(seed: int) -> dict[str, Any]:
    """The bundled board with seed `seed`, random players (their own seeded rng) to the win or
    LIMIT actions; the document with its log, ready for adjudicate."""
    doc = document(seed)
    state = parse_scenario(doc).state
    rng = random.Random(f"{seed}:golden player")
    log: list[dict[str, Any]] = []
    while state.phase != "over" and len(log) < LIMIT:
        action = rng.choice(legal_actions(state, who_acts(state)))
        apply_action(state, action)
        log.append(action)
    doc["actions"] = log
    return doc


def digest(seed: int) -> str:
    result = adjudicate(playout(seed))
    text = json.dumps(result, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main() -> None:
    GOLDEN.write_text(
        json.dumps({str(s): digest(s) for s in range(GAMES)}, indent=0) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
