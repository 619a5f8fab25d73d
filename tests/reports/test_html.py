"""The HTML partial: headings, lists, a table per battle, the treasury; names autoescaped."""

from __future__ import annotations

import re

from django.template.loader import render_to_string

from reports import Names, faction_report, public_bulletin
from tests.reports.worlds import NAMES, resolved, skirmish


def test_battle_table() -> None:
    scenario, result = resolved(skirmish())
    report = faction_report(scenario, result, "danes", NAMES)
    html = render_to_string("reports/report.html", {"report": report, "map_url": "/m/1.svg"})
    assert "<h2>Denmark — turn report</h2>" in html
    assert '<img src="/m/1.svg" alt="Map of the turn">' in html
    assert html.count('<table class="battle-rounds">') == 1
    assert "<caption>Battle at Øresund (step 1): round by round</caption>" in html
    headers = re.findall(r'<th scope="col">([^<]*)</th>', html)
    assert headers[:7] == [
        "Round",
        "Dice (A–B)",
        "Strength (A–B)",
        "Damage to swedes",
        "Damage to Denmark",
        "Sunk",
        "Retreat",
    ]
    rows = re.findall(
        r'<tr>\s*<th scope="row">(\d+)</th>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>', html
    )
    assert rows == [
        ("1", "4–2 (swedes +10 %)", "31–36"),
        ("2", "6–2 (swedes +10 %)", "24–30"),
        ("3", "5–2 (swedes +10 %)", "9–22"),
    ]
    assert "<td>swedes tried to retreat: 3 against 6, failed</td>" in html
    assert '<tr><th scope="row">End of turn</th><td>564</td></tr>' in html
    assert "<script" not in html


def test_names_are_escaped() -> None:
    scenario, result = resolved(skirmish())
    names = Names(
        factions={"danes": '<script>alert("x")</script>'},
        colours={"danes": "#fff;background:url(x)"},
    )
    html = render_to_string(
        "reports/report.html", {"report": faction_report(scenario, result, "danes", names)}
    )
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert "url(x)" not in html  # a colour that is not a hex colour never reaches the style
    assert "<img" not in html  # no map_url, no image


def test_bulletin_renders_without_tables() -> None:
    scenario, result = resolved(skirmish())
    html = render_to_string(
        "reports/report.html", {"report": public_bulletin(scenario, result, NAMES)}
    )
    assert "<h3>Battles</h3>" in html
    assert "<h3>Blockades</h3>" in html
    assert "<table" not in html
