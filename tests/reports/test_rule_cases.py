"""Every rule case in tests/scenarios/ turned into reports: each event type the engine emits is
met somewhere there, so nothing may crash, every ship in a battle is placed on its side, and
every ledger adds up without a moderator's line."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml
from django.template.loader import render_to_string

from engine.naval import adjudicate
from reports import Names, faction_report, public_bulletin, to_bbcode, to_markdown
from reports.battles import ship_sides
from reports.turn import Turn

CASES = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "naval").glob("*/*.yaml"))


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_rule_case_reports(path: Path) -> None:
    scenario = yaml.safe_load(path.read_text(encoding="utf-8"))["scenario"]
    result = adjudicate(copy.deepcopy(scenario))
    names = Names()
    factions = [f["id"] for f in scenario.get("factions", [])] + ["pirates"]
    for faction in factions:
        report = faction_report(scenario, result, faction, names)
        for battle in report.battles:
            for r in battle.rounds:  # D3: a side takes at most the other side's strength
                assert r.damage[0] <= r.strength[1]
                assert r.damage[1] <= r.strength[0]
        ledger = report.sections[-1].ledger
        assert ledger is not None
        assert ledger.balanced
        assert all("moderator" not in label for label, _ in ledger.entries)
        to_markdown(report)
        to_bbcode(report)
        render_to_string("reports/report.html", {"report": report})
    bulletin = public_bulletin(scenario, result, names)
    assert to_markdown(bulletin)
    assert to_bbcode(bulletin)
    for event, crews in Turn(scenario, result).walk():
        if event["type"] == "battle":
            where = ship_sides(event, crews)
            for round_ in event["rounds"]:
                assert set(round_["losses"]) <= set(where), event["province"]
