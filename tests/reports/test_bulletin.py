"""The public bulletin: battles, blockades and pirates for everyone; no money, orders or moves."""

from __future__ import annotations

from reports import public_bulletin, to_bbcode, to_markdown
from tests.reports.worlds import NAMES, blockade_world, economy_world, resolved, skirmish

PRIVATE = ("Treasury", "treasury", "Order", "Income", "Upkeep", "upkeep", "Hire", "hire")
PRIVATE += ("Round", "dice", "sails", "Moves", "refused", "Start of turn", "−")


def test_skirmish_bulletin() -> None:
    scenario, result = resolved(skirmish())
    report = public_bulletin(scenario, result, NAMES)
    assert [s.heading for s in report.sections] == ["Battles", "Blockades"]
    battles = report.section("Battles")
    assert battles is not None
    assert battles.lines[1] == (
        "Battle at Øresund: swedes against Denmark (supported by hanse). Winner: Denmark. "
        "swedes: routed, every ship left captured. Ships sunk: 3; ships captured: 2."
    )
    assert not report.battles  # no round-by-round structure for the public
    blockades = report.section("Blockades")
    assert blockades is not None
    assert blockades.lines == ("Copenhagen (Denmark) is blockaded by swedes.",)


def test_bulletin_keeps_private_things_out() -> None:
    for world in (skirmish, economy_world, blockade_world):
        scenario, result = resolved(world())
        report = public_bulletin(scenario, result, NAMES)
        assert {s.heading for s in report.sections} <= {"Battles", "Blockades", "Pirates", "Ports"}
        assert all(s.ledger is None for s in report.sections)
        text = to_markdown(report) + to_bbcode(report)
        for word in PRIVATE:
            assert word not in text, (world.__name__, word)


def test_pirates_seen() -> None:
    scenario, result = resolved(economy_world())
    report = public_bulletin(scenario, result, NAMES)
    pirates = report.section("Pirates")
    assert pirates is not None
    assert pirates.lines == (
        "Scarlet League pay off 1 ship at east; the crews drift as pirates (U4).",
        "Unpaid crews of Scarlet League mutiny at east: 1 ship turn pirate (U2).",
        "Unpaid crews of Scarlet League mutiny at east: 1 ship turn pirate (U2).",
    )
    # The buy-out is a private deal: the bulletin does not say who bought the drifting crews.
    assert "p1" not in to_markdown(report)


def test_surrender_and_lifted_blockade() -> None:
    scenario, result = resolved(blockade_world())
    text = to_markdown(public_bulletin(scenario, result, NAMES))
    assert "A fleet of Scarlet League (3 ships) surrenders to Azure Crown at Middle Sea." in text
    assert "The blockade of Safe Haven (Azure Crown) by Scarlet League is lifted" in text


def test_port_changing_hands() -> None:
    scenario, result = resolved(skirmish())
    for port in result["state"]["ports"]:
        if port["id"] == "lubeck":
            port["owner"] = "danes"  # a moderator's edit: no rule moves a port
    ports = public_bulletin(scenario, result, NAMES).section("Ports")
    assert ports is not None
    assert ports.lines == ("lubeck passes from hanse to Denmark.",)


def test_a_quiet_turn() -> None:
    scenario, result = resolved(economy_world())
    result["events"] = []
    report = public_bulletin(scenario, result, NAMES)
    assert report.sections[0].lines == ("A quiet turn: nothing to report.",)
