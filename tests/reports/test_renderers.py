"""Markdown and BBCode: stable text, escaped names, the map line."""

from __future__ import annotations

import re

import pytest

from reports import Names, Report, faction_report, public_bulletin, to_bbcode, to_markdown
from tests.reports.worlds import NAMES, blockade_world, economy_world, resolved, skirmish

ZWSP = "\u200b"
# A ship and names chosen by players to break out of the markup.
EVIL_SHIP = "kro[/code]```nan"
EVIL = Names(
    factions={"swedes": "[b]Evil[/b]", "danes": "*Danes* _x_ [click](http://e.vil) <b>"},
    ports={"copenhagen": "[url=http://e.vil]Copenhagen[/url]"},
    provinces={"oresund": "# Øresund | ~~"},
    colours={"swedes": "red]evil[color=#fff", "danes": "#c8102e"},
)


def evil_skirmish() -> tuple[dict, dict]:  # type: ignore[type-arg]
    doc = skirmish()
    doc["fleets"][3]["ships"][0]["id"] = EVIL_SHIP  # kronan, in s1, fights at Øresund
    return resolved(doc)


def reports() -> list[Report]:
    out = []
    for world in (skirmish, economy_world, blockade_world):
        scenario, result = resolved(world())
        out.append(public_bulletin(scenario, result, NAMES))
        out += [faction_report(scenario, result, f["id"], NAMES) for f in scenario["factions"]]
    return out


@pytest.mark.parametrize("render", [to_markdown, to_bbcode])
def test_same_input_same_text(render) -> None:  # type: ignore[no-untyped-def]
    first = [render(r) for r in reports()]
    again = [render(r) for r in reports()]  # the engine run again, the reports built again
    assert first == again
    assert all(text.endswith("\n") and not text.endswith("\n\n") for text in first)


def test_bbcode_escapes_brackets_in_names() -> None:
    scenario, result = evil_skirmish()
    text = to_bbcode(faction_report(scenario, result, "danes", EVIL))
    text += to_bbcode(public_bulletin(scenario, result, EVIL))
    assert "[b]Evil" not in text
    assert "[url=" not in text
    assert "[/url]" not in text
    assert f"[{ZWSP}b{ZWSP}]Evil[{ZWSP}/b{ZWSP}]" in text
    # The ship named "[/code]" does not close the block of rounds early.
    assert text.count("[code]") == text.count("[/code]")
    assert f"kro[{ZWSP}/code{ZWSP}]```nan" in text
    # Every tag in the text is one the renderer wrote.
    tags = set(re.findall(r"\[/?([a-z*]+)", text))
    assert tags <= {"size", "b", "i", "list", "*", "code", "color"}
    # A colour that is not a plain hex colour is dropped, not pasted into [color=…].
    assert "[color=#c8102e]" in text
    assert "evil[color" not in text


def test_markdown_escapes_names() -> None:
    scenario, result = evil_skirmish()
    text = to_markdown(faction_report(scenario, result, "danes", EVIL))
    assert r"\*Danes\* \_x\_ \[click\](http://e.vil) \<b\>" in text
    assert r"\# Øresund \| \~\~" in text
    # Outside the fenced (literal) blocks no markup is left unescaped.
    prose = re.sub(r"(`{3,})text\n.*?\n\1\n", "", text, flags=re.DOTALL)
    assert "Round 1" not in prose
    assert "Start of turn" not in prose
    assert "[click](" not in prose
    assert "*Danes*" not in prose
    assert "<b>" not in prose
    assert "[click](" in text  # inside the block of rounds, shown as is
    # The fence around the rounds is longer than the ship's run of backticks.
    assert "````text\n" in text
    assert f"\n{EVIL_SHIP} −" not in text  # the ship sits inside the fenced block
    assert text.count("````") == 2


def test_map_url_line() -> None:
    scenario, result = resolved(skirmish())
    report = public_bulletin(scenario, result, NAMES)
    md = to_markdown(report, map_url="https://example.org/maps/turn 3.svg")
    bb = to_bbcode(report, map_url="https://example.org/maps/turn[3].png")
    assert md.splitlines()[2] == "![Map of the turn](<https://example.org/maps/turn%203.svg>)"
    assert bb.splitlines()[2] == "[img]https://example.org/maps/turn%5B3%5D.png[/img]"
    assert "![" not in to_markdown(report)
    assert "[img]" not in to_bbcode(report)


def test_bbcode_layout() -> None:
    scenario, result = resolved(skirmish())
    text = to_bbcode(faction_report(scenario, result, "danes", NAMES))
    assert text.startswith("[size=150][b]Denmark — turn report[/b][/size]\n")
    assert "[b][i]Battle at Øresund (step 1)[/i][/b]\n[list]\n[*][b]Side A:[/b] swedes" in text
    assert "[code]\nRound 1: dice 4–2 (swedes +10 %), strength 31–36\n" in text
    assert "[*]Copenhagen is blockaded by an enemy fleet (B3).\n" in text
