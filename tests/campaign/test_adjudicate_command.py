"""`manage.py adjudicate`: the scenario-format contract seen from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "baltic-skirmish.scenario.json"


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("adjudicate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_json_result_has_the_format_shape() -> None:
    out, _ = run(str(EXAMPLE))
    result = json.loads(out)
    assert result["format"] == "naval-result/1"
    assert set(result) == {"format", "state", "events", "refused"}
    assert set(result["state"]) == {"factions", "fleets", "ports"}
    assert {r["code"] for r in result["refused"]} == {"port_blockaded", "unknown_fleet"}


def test_text_report_shows_rounds_dice_and_treasuries() -> None:
    out, _ = run(str(EXAMPLE), "--format", "text")
    assert "Battle at oresund (step 1)" in out
    assert "Round 1: dice" in out
    assert "h1 supports danes" in out
    assert "s2 blockades copenhagen" in out
    assert "Treasuries:" in out


def test_the_same_file_gives_the_same_bytes() -> None:
    assert run(str(EXAMPLE))[0] == run(str(EXAMPLE))[0]


def test_example_prints_a_valid_scenario(tmp_path: Path) -> None:
    out, _ = run("--example")
    path = tmp_path / "mine.json"
    path.write_text(out)
    assert json.loads(run(str(path))[0])["format"] == "naval-result/1"


def test_yaml_is_welcome(tmp_path: Path) -> None:
    path = tmp_path / "case.yaml"
    path.write_text(
        "format: naval-scenario/1\n"
        "map: {provinces: [{id: north, kind: sea}]}\n"
        "factions: [{id: danes, treasury: 5}]\n"
    )
    result = json.loads(run(str(path))[0])
    assert result["state"]["factions"][0]["treasury"] == 5


def test_every_problem_is_listed_with_its_path(tmp_path: Path) -> None:
    scenario = json.loads(EXAMPLE.read_text())
    scenario["fleets"][3]["ships"][0]["health"] = 99
    scenario["fleets"][0]["at"] = "atlantis"
    scenario["colour"] = "blue"
    scenario["orders"][0]["speed"] = "fast"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario))
    err = StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("adjudicate", str(path), stdout=StringIO(), stderr=err)
    assert raised.value.returncode == 2
    assert "4 problems" in str(raised.value)
    text = err.getvalue()
    assert "fleets[3].ships[0].health: 99 is above the ship_of_the_line's maximum of 20" in text
    assert "fleets[0].at: 'atlantis' is not a sea province" in text
    assert "colour: unknown key 'colour'" in text
    assert "orders[0].speed: unknown key 'speed'" in text


def test_bad_json_exits_2_from_the_shell(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"format": "naval-scenario/1",')
    done = subprocess.run(
        [sys.executable, "manage.py", "adjudicate", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_text_report_prints_tied_buyout_dice(tmp_path: Path) -> None:
    """A valid turn with a `buyout_tie` event (its dice are a list of lists) prints, exit 0."""
    case = ROOT / "tests" / "scenarios" / "naval" / "u" / "U4-buyout-tie-dice.yaml"
    path = tmp_path / "tie.json"
    path.write_text(json.dumps(yaml.safe_load(case.read_text(encoding="utf-8"))["scenario"]))
    out, _ = run(str(path), "--format", "text")
    assert "Tied bids for p1: dice 4–4, then 2–6" in out


def test_the_text_report_prints_control_codes_from_ids_escaped(tmp_path: Path) -> None:
    """Issue 11: an id from the file printed a terminal's control codes raw (clear the screen,
    recolour, a bidirectional override reordering the line, a line break inventing a line)."""
    evil = "kro\x1b[2Jnan\u202e\n\x9b"
    path = tmp_path / "evil.json"
    path.write_text(EXAMPLE.read_text().replace('"kronan"', json.dumps(evil)))
    plain, _ = run(str(EXAMPLE), "--format", "text")
    out, _ = run(str(path), "--format", "text")
    assert "kro\\x1b[2Jnan\\u202e\\x0a\\x9b" in out
    assert not any(c in out for c in "\x1b\u202e\x9b")
    assert out.count("\n") == plain.count("\n")
    assert out.replace("kro\\x1b[2Jnan\\u202e\\x0a\\x9b", "kronan") == plain
