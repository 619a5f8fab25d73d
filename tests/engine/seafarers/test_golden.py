"""Golden playouts (issue 12 perf): adjudicate's bytes for seeded random playouts on the bundled
board must not change with an optimisation (golden_gen.py records them)."""

from __future__ import annotations

import json

import pytest

from tests.engine.seafarers.golden_gen import GOLDEN, digest

EXPECTED: dict[str, str] = json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", sorted(EXPECTED, key=int))
def test_golden_playout(seed: str) -> None:
    assert digest(int(seed)) == EXPECTED[seed]
