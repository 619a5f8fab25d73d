"""The naval engine gives the same bytes as the results recorded in `golden-results.json`.

The file holds the SHA-256 of `adjudicate`'s JSON output (as the command prints it) for every rule
case, for 300 generated turns and for 100 generated hard situations (issue 9). It was first
written before the engine moved into `engine/naval/` (issue 10), to prove the move changed
nothing. A change to the rules that changes results on purpose rewrites the file
(`python -m tests.engine.naval.test_golden`) in the same commit, and the commit says which results
changed and why.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from engine.naval import adjudicate
from tests.engine.naval.random_turns import random_turn, situation_turn

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden-results.json"
CASES = HERE.parents[1] / "scenarios" / "naval"


def digest(result: dict[str, Any]) -> str:
    """The hash of the bytes `adjudicate --format json` prints."""
    return hashlib.sha256(json.dumps(result, indent=2, ensure_ascii=False).encode()).hexdigest()


def documents() -> dict[str, dict[str, Any]]:
    """Every recorded input by name: `case:<id>`, `turn:<seed>` and `situation:<seed>` (the
    generated hard situations of issue 9)."""
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(CASES.glob("*/*.yaml")):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        out[f"case:{case['id']}"] = case["scenario"]
    for seed in range(300):
        out[f"turn:{seed}"] = random_turn(seed)
    for seed in range(100):
        out[f"situation:{seed}"] = situation_turn(seed)
    return out


def test_results_are_the_recorded_bytes() -> None:
    golden: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    docs = documents()
    assert set(docs) == set(golden), "cases added or removed: rewrite the golden file"
    changed = sorted(name for name, doc in docs.items() if digest(adjudicate(doc)) != golden[name])
    assert not changed, f"results changed: {changed}"


if __name__ == "__main__":  # rewrite the file, after a change to the rules that is meant
    table = {name: digest(adjudicate(doc)) for name, doc in documents().items()}
    GOLDEN.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    sys.stdout.write(f"{len(table)} results written to {GOLDEN}\n")
