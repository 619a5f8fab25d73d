"""The log as a report (G5): every event of the format's table in words for every viewer and
format, private details only for the players concerned, names escaped in Markdown and BBCode."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.seafarers import ScenarioError, adjudicate, parse_scenario
from seafarers.board_places import Places
from seafarers.board_report_formats import FORMATS, bbcode_escape, markdown_escape
from seafarers.log_report import event_line, log_report
from tests.seafarers.board.helpers import FOUR_ISLANDS, ROOT, crafted_doc

# seafarers-format.md "Result", the events table.
EVENT_TYPES = {
    "rolled", "produced", "setup_resources", "gold_owed", "discard_owed", "gold_picked",
    "discarded", "robber_moved", "pirate_moved", "stolen", "built", "ship_moved",
    "route_closed", "dev_card_bought", "dev_card_played", "road_building_ended", "traded",
    "monopoly", "longest_route", "largest_army", "svp_awarded", "turn_ended", "turn_started",
    "won",
}  # fmt: skip


def scenario_files() -> list[Path]:
    cases = sorted((ROOT / "tests" / "scenarios" / "seafarers").rglob("*.yaml"))
    return [ROOT / "examples" / "small-isles.seafarers.yaml", FOUR_ISLANDS, *cases]


@cache
def runs() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """(name, scenario, result) for every example and rule case that is a valid file."""
    out = []
    for path in scenario_files():
        data = yaml.safe_load(path.read_text())
        scenario = data.get("scenario", data)
        try:
            result = adjudicate(scenario)
        except ScenarioError:
            continue  # a case about an invalid file has no events
        out.append((path.stem, scenario, result))
    return out


def test_the_cases_cover_every_event_type() -> None:
    seen = {e["type"] for _, _, result in runs() for e in result["events"]}
    assert seen == EVENT_TYPES


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_event_of_every_case_for_every_viewer(fmt: str) -> None:
    for name, scenario, result in runs():
        players = [p["id"] for p in scenario["players"]]
        for viewer in [*players, None]:
            for moderator in (False, True):
                text = log_report(
                    scenario, result["events"], viewer=viewer, fmt=fmt,  # type: ignore[arg-type]
                    end=result["state"], moderator=moderator,
                )  # fmt: skip
                assert text.strip(), name


def test_no_event_falls_back_to_its_type_name() -> None:
    for name, scenario, result in runs():
        names = Places(parse_scenario({k: v for k, v in scenario.items() if k != "actions"}).state)
        for event in result["events"]:
            line = event_line(event, names, None, moderator=False)
            if event["type"] == "turn_started":
                assert line is None
                continue
            assert line is not None
            assert not line.endswith(f": {event['type']}"), (name, event)
            assert "{" not in line, (name, line)
            assert "None" not in line, (name, line)


def steal_doc() -> dict[str, Any]:
    """Three players; blue rolls 7, moves the robber onto red's hills and steals its only card,
    then buys a card (a Victory Point)."""
    doc = crafted_doc("red", "blue")
    doc["players"][0]["hand"] = {"ore": 1}
    doc["players"][1]["hand"] = {"wool": 1, "grain": 1, "ore": 1}
    doc["players"].append({"id": "white", "hand": {}})
    doc["board"]["robber"] = "0,0"
    doc["turn"] = {"number": 4, "player": "blue", "phase": "roll"}
    doc["dice"] = [[3, 4]]
    doc["dev_deck"] = ["victory_point", "knight"]  # the card blue buys: a hidden point
    doc["actions"] = [
        {"type": "roll", "player": "blue"},
        {"type": "move_robber", "player": "blue", "hex": "1,0", "steal_from": "red"},
        {"type": "buy_dev_card", "player": "blue"},
    ]
    return doc


def report_for(viewer: str | None, **kw: Any) -> tuple[str, dict[str, Any]]:
    doc = steal_doc()
    result = adjudicate(doc)
    assert result["refused"] == []
    return log_report(doc, result["events"], viewer=viewer, fmt="text", **kw), result


def test_a_steal_names_the_card_only_to_thief_and_victim() -> None:
    _, result = report_for(None)
    card = next(e["card"] for e in result["events"] if e["type"] == "stolen")
    for viewer in ("blue", "red"):
        assert f"blue steals 1 {card} from red" in report_for(viewer)[0]
    for viewer in ("white", None):
        text = report_for(viewer)[0]
        assert "blue steals a card from red" in text
        assert f"steals 1 {card}" not in text
    assert f"blue steals 1 {card} from red" in report_for(None, moderator=True)[0]


def test_a_bought_card_is_named_only_to_its_buyer() -> None:
    _, result = report_for(None)
    card = next(e["card"] for e in result["events"] if e["type"] == "dev_card_bought")
    shown = {"knight": "a Knight", "victory_point": "a Victory Point"}.get(
        card, card.replace("_", " ").title()
    )
    assert f"blue buys a development card: {shown}" in report_for("blue")[0]
    for viewer in ("red", "white", None):
        text = report_for(viewer)[0]
        assert "blue buys a development card\n" in text
        assert shown not in text.split("Standings")[0]


def test_hands_only_to_their_owner() -> None:
    doc = steal_doc()
    result = adjudicate(doc)
    blue_hand = next(p for p in result["state"]["players"] if p["id"] == "blue")["hand"]
    assert sum(blue_hand.values()) >= 1
    own = log_report(doc, result["events"], viewer="blue", fmt="text", end=result["state"])
    other = log_report(doc, result["events"], viewer="red", fmt="text", end=result["state"])
    blue_own = next(line for line in own.splitlines() if line.strip().startswith("blue:"))
    blue_other = next(line for line in other.splitlines() if line.strip().startswith("blue:"))
    assert "hand:" in blue_own
    assert "cards:" in blue_own
    assert "hand:" not in blue_other
    assert "cards:" not in blue_other
    assert re.search(r"\d+ cards? in hand", blue_other)
    # blue's hidden Victory Point card counts in its own report only (G5)
    own_points = int(re.findall(r"(\d+) points?", blue_own)[0])
    other_points = int(re.findall(r"(\d+) points?", blue_other)[0])
    assert own_points - other_points == 1
    assert "longest route 1" in blue_own


def test_turns_are_grouped_with_the_board_names() -> None:
    text = report_for("red")[0]
    assert "Turn 4 — blue" in text
    assert "blue rolls 3 + 4 = 7" in text
    # In words (S-39), no coordinates.
    assert "moves the robber from the forest 6 on Isle <&> to the hills 4 on Isle <&>" in text


def odd_names_report(fmt: str) -> str:
    doc = steal_doc()
    odd = "[url=x]*_`<b>&amp;|#@everyone"
    doc["players"][1]["id"] = odd
    doc["turn"]["player"] = odd
    for a in doc["actions"]:
        a["player"] = odd
    result = adjudicate(doc)
    assert result["refused"] == []
    return log_report(doc, result["events"], viewer=odd, fmt=fmt, end=result["state"])  # type: ignore[arg-type]


def test_markdown_escapes_every_name() -> None:
    text = odd_names_report("markdown")
    content = "\n".join(re.sub(r"^(#+ |- )", "", line) for line in text.splitlines())
    for special in "[]*_`<>&|#":  # none left bare: each one behind a backslash
        assert not re.search(rf"(?<!\\){re.escape(special)}", content), special
    assert "@everyone" not in text
    assert markdown_escape("[url=x]*_`<b>&amp;|#@everyone") in text
    assert markdown_escape("- a") == "\\- a"
    assert markdown_escape("line\nbreak") == "line break"


def test_bbcode_escapes_every_name() -> None:
    text = odd_names_report("bbcode")
    assert "[url=x]" not in text
    assert bbcode_escape("[url=x]") in text
    tags = set(re.findall(r"\[/?([a-z*]+)", text))
    assert tags <= {"size", "b", "list", "*"}


def test_text_keeps_names_on_their_line() -> None:
    doc = crafted_doc("red\nTurn 99 — forged", "blue")
    doc["turn"] = {"number": 4, "player": "blue", "phase": "roll"}
    doc["dice"] = [[2, 2]]
    doc["actions"] = [{"type": "roll", "player": "blue"}, {"type": "end_turn", "player": "blue"}]
    result = adjudicate(doc)
    text = log_report(doc, result["events"], viewer=None, fmt="text", end=result["state"])
    assert not any(line.startswith("Turn 99") for line in text.splitlines())


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown report format"):
        log_report(steal_doc(), [], viewer=None, fmt="html")  # type: ignore[arg-type]
