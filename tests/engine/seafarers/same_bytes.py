"""One digest of what the seafaring engine says, for tests/engine/seafarers/test_compiled.py:
`python -m tests.engine.seafarers.same_bytes` prints {"compiled": …, "digest": …} for the build
this process runs (the compiled one, or the plain sources under ADMIRALTY_PURE_ENGINE=1).

What goes in: every case of the catalogue adjudicated (tests/scenarios/seafarers: results,
refusals and their messages, the problems of a bad file); and seeded random games on the bundled
board and on generated ones, through both paths (`apply_listed` for a listed action,
`apply_action` for a random one, which is mostly refused): every list, every event, every
refusal's code and message, and the position every few actions and at the end.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import yaml

import engine.seafarers as seafarers
from engine.seafarers import (
    ScenarioError,
    adjudicate,
    apply_action,
    legal_actions,
    parse_scenario,
    state_to_dict,
)
from engine.seafarers.game import apply_listed
from engine.seafarers.refusals import Refused
from tests.engine.seafarers.playouts import start, who_acts
from tests.engine.seafarers.test_playouts import random_action

ROOT = Path(__file__).resolve().parents[3]
CASES = ROOT / "tests" / "scenarios" / "seafarers"
BOARD = ROOT / "examples" / "four-islands.seafarers.yaml"


def _put(digest: Any, value: object) -> None:
    digest.update(json.dumps(value, sort_keys=True, ensure_ascii=False).encode())
    digest.update(b"\n")


def _cases(digest: Any) -> int:
    count = 0
    for path in sorted(CASES.rglob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        try:
            _put(digest, adjudicate(document))
        except ScenarioError as error:
            _put(digest, [str(problem) for problem in error.problems])
        count += 1
    return count


def _game(digest: Any, document: dict[str, Any], seed: int) -> None:
    state = parse_scenario(document).state
    rng = random.Random(f"{seed}:same bytes")
    for step in range(600):
        if state.phase == "over":
            break
        if step % 3 == 0:  # anything at all, mostly refused: the checks in their order
            try:
                _put(digest, apply_action(state, random_action(state, rng)))
            except Refused as refused:
                _put(digest, [refused.code, refused.message])
        listed = legal_actions(state, who_acts(state))
        _put(digest, listed)
        _put(digest, apply_listed(state, rng.choice(listed)))
        if step % 25 == 0:
            _put(digest, state_to_dict(state))
    _put(digest, state_to_dict(state))


def main() -> None:
    digest = hashlib.sha256()
    cases = _cases(digest)
    bundled = yaml.safe_load(BOARD.read_text(encoding="utf-8"))
    for seed in range(6):
        bundled["seed"] = seed
        _game(digest, bundled, seed)
    for seed in range(4):
        _game(digest, start(seed)[0], seed)
    answer = {"compiled": seafarers.COMPILED, "cases": cases, "digest": digest.hexdigest()}
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
