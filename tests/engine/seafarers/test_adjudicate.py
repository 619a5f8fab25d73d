"""`manage.py adjudicate` on seafaring files: dispatch on `format`, json and text, exit 2."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "seafarers-skirmish.scenario.json"


def run(*args: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("adjudicate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_format_picks_the_ruleset() -> None:
    result = json.loads(run(str(EXAMPLE))[0])
    assert result["format"] == "seafarers-result/1"
    assert set(result) == {"format", "state", "start", "steps", "events", "refused"}
    assert {r["code"] for r in result["refused"]} == {"edge_occupied", "insufficient_resources"}


def test_text_report_groups_by_turn() -> None:
    out, _ = run(str(EXAMPLE), "--format", "text")
    assert "Turn 4 — blue" in out
    assert "blue rolls 6+1 = 7" in out
    assert "refused: edge_occupied" in out
    assert "longest trade route: nobody" in out


def test_example_for_seafaring_runs(tmp_path: Path) -> None:
    out, _ = run("--example", "--ruleset", "seafarers")
    path = tmp_path / "mine.json"
    path.write_text(out)
    assert json.loads(run(str(path))[0])["format"] == "seafarers-result/1"


def test_an_invalid_file_exits_2_with_every_problem(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE.read_text())
    document["players"][0]["hand"]["gold"] = 1  # GD3
    document["players"][1]["roads"] = ["0,1,E"]  # a road on a sea edge (X1)
    document["turn"]["colour"] = "red"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    err = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("adjudicate", str(path), stdout=StringIO(), stderr=err)
    assert caught.value.returncode == 2
    text = err.getvalue()
    assert "players[0].hand.gold" in text
    assert "players[1].roads[0]" in text
    assert "turn.colour" in text


def test_the_same_file_gives_the_same_bytes() -> None:
    assert run(str(EXAMPLE))[0] == run(str(EXAMPLE))[0]


def test_a_players_report_hides_what_is_private_to_others() -> None:
    """G5: the stolen card shows to the thief and the victim only."""
    from engine.seafarers import adjudicate
    from engine.seafarers.report import text_report

    result = adjudicate(json.loads(EXAMPLE.read_text()))
    assert "blue steals wood from red" in text_report(result)
    assert "blue steals wood from red" in text_report(result, viewer="red")
    document = json.loads(EXAMPLE.read_text())
    document["players"].append({"id": "white"})
    assert "blue steals a card from red" in text_report(adjudicate(document), viewer="white")
