"""The plain-text report prints every event type the engine emits, on every rule case and on
generated turns (T1 step 5; `adjudicate --format text`)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.naval import adjudicate
from engine.naval.report import WRITERS, text_report
from tests.engine.naval.random_turns import random_turn, situation_turn

CASES = Path(__file__).resolve().parents[2] / "scenarios" / "naval"
CASE_FILES = sorted(CASES.glob("*/*.yaml"))


def _check(result: dict[str, object]) -> set[str]:
    text = text_report(result)  # type: ignore[arg-type]
    events = result["events"]
    assert isinstance(events, list)
    types = {e["type"] for e in events}
    unwritten = types - set(WRITERS)
    assert not unwritten, f"event types without a line of their own: {unwritten}"
    assert text.endswith("\n")
    return types


@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_text_report_of_every_rule_case(path: Path) -> None:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    _check(adjudicate(case["scenario"]))


def test_text_report_of_generated_turns() -> None:
    seen: set[str] = set()
    for seed in range(300):
        seen |= _check(adjudicate(random_turn(seed)))
    for seed in range(100):
        seen |= _check(adjudicate(situation_turn(seed)))
    assert {"battle", "moved", "mutiny", "bought_out"} <= seen


def test_every_writer_is_used_by_some_case() -> None:
    """Each event type the report knows appears in some rule case (so each line is tried)."""
    seen: set[str] = set()
    for path in CASE_FILES:
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        seen |= {e["type"] for e in adjudicate(case["scenario"])["events"]}
    assert set(WRITERS) <= seen, f"never tried: {set(WRITERS) - seen}"
