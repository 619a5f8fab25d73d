"""A faction's private report, built from real engine results."""

from __future__ import annotations

import re

from reports import Names, Report, faction_report, to_markdown
from tests.reports.worlds import NAMES, blockade_world, economy_world, resolved, skirmish

FACTIONS = ("danes", "hanse", "swedes")


def test_skirmish_battle_round_by_round() -> None:
    scenario, result = resolved(skirmish())
    report = faction_report(scenario, result, "danes", NAMES)
    [battle] = report.battles
    assert battle.heading == "Battle at Øresund (step 1)"
    assert [r.dice for r in battle.rounds] == [(4, 2), (6, 2), (5, 2)]
    assert [r.strength for r in battle.rounds] == [(31, 36), (24, 30), (9, 22)]
    first = battle.rounds[0]
    # The Hanse supporter's ships share side B's losses (S2).
    assert dict(first.losses[0]) == {"kronan": 8, "svard": 7, "solen": 7, "draken": 7, "nyckeln": 7}
    assert dict(first.losses[1])["adler"] == 5
    assert first.damage == (36, 31)
    assert first.bonus == "swedes +10 %"  # D1: 4 beats 2
    second = battle.rounds[1]
    assert second.sunk == ("solen", "draken", "nyckeln")
    assert second.retreat == "swedes tried to retreat: 3 against 6, failed"
    assert battle.outcome == "Winner: Denmark. swedes: routed, every ship left captured."
    assert "Captured: kronan, svard." in battle.notes
    text = to_markdown(report)
    assert "Round 3: dice 5–2 (swedes +10 %), strength 9–22" in text


def test_each_faction_gets_its_own_battles() -> None:
    scenario, result = resolved(skirmish())
    battles = {f: faction_report(scenario, result, f, NAMES).battles for f in FACTIONS}
    assert [b.heading for b in battles["danes"]] == ["Battle at Øresund (step 1)"]
    assert [b.heading for b in battles["hanse"]] == ["Battle at Øresund (step 1)"]  # supporter
    assert [b.heading for b in battles["swedes"]] == [
        "Battle at bornholm_basin (step 1)",
        "Battle at Øresund (step 1)",
    ]


def test_treasury_lines_add_up() -> None:
    for world in (skirmish, economy_world, blockade_world):
        scenario, result = resolved(world())
        ends = {f["id"]: f["treasury"] for f in result["state"]["factions"]}
        for item in scenario["factions"]:
            report = faction_report(scenario, result, item["id"], NAMES)
            section = report.section("Treasury")
            assert section is not None
            assert section.ledger is not None
            ledger = section.ledger
            assert ledger.start == item.get("treasury", 0)
            assert ledger.end == ends[item["id"]]
            assert ledger.start + sum(amount for _, amount in ledger.entries) == ledger.end
            assert all("moderator" not in label for label, _ in ledger.entries)


def test_skirmish_treasury_text() -> None:
    scenario, result = resolved(skirmish())
    text = to_markdown(faction_report(scenario, result, "danes", NAMES))
    assert (
        "## Treasury\n\n```text\n"
        "Start of turn     600\n"
        "Income           +120\n"
        "Upkeep: 7 ships  −156\n"
        "End of turn       564\n```\n"
    ) in text


def test_hand_edited_result_gets_a_moderator_line() -> None:
    scenario, result = resolved(skirmish())
    result["state"]["factions"][0]["treasury"] += 7  # danes
    ledger = faction_report(scenario, result, "danes", NAMES).sections[-1].ledger
    assert ledger is not None
    assert ledger.entries[-1] == ("Other changes by the moderator", 7)
    assert ledger.balanced


def test_own_refused_orders_only() -> None:
    scenario, result = resolved(skirmish())
    danes = faction_report(scenario, result, "danes", NAMES).section("Refused orders")
    assert danes is not None
    # Orders 6 and 7, in the players' words: the port's name in the engine's reason too.
    assert danes.lines == (
        "hire 1 × frigate at Copenhagen — refused: Copenhagen is blockaded: no hiring there.",
        "d2: repair — refused: Copenhagen is blockaded: no repairs there.",
    )
    # Order 9 names a fleet nobody has: it is nobody's to read.
    for faction in ("hanse", "swedes"):
        assert faction_report(scenario, result, faction, NAMES).section("Refused orders") is None


def test_no_private_details_of_others() -> None:
    scenario, result = resolved(skirmish())
    danes = to_markdown(faction_report(scenario, result, "danes", NAMES))
    for secret in (
        "gothenburg",  # the Swedes' hire
        "swedes-s1",
        "galley",
        "Upkeep paid for 5 ships",  # the Swedes' upkeep
        "Upkeep paid for 3 ships",  # the Hanse's upkeep
        "−42",
        "−36",
        "hire 2",  # the Swedes' refused order 8
        "d9",  # order 9's fleet, which nobody has
        "+150",  # the Hanse's income
    ):
        assert secret not in danes, secret


def test_economy_world_privacy() -> None:
    scenario, result = resolved(economy_world())
    blue = to_markdown(faction_report(scenario, result, "blue", NAMES))
    red = to_markdown(faction_report(scenario, result, "red", NAMES))
    assert "Bought out p1 (p1-1, p1-2) with b1 for 8" in blue
    assert "Hired 1 × galley at Safe Haven for 40" in blue
    assert "Repaired b2-1 of b2 at Safe Haven for 50" in blue
    assert "The bid for p1 was outbid by Azure Crown" in red
    assert "Disbanded r2-2 of r2" in red
    assert "mutiny and leave r1" in red
    # In words (issue 20 §4): the order as given and the reason with the provinces' names, no
    # order index and no code.
    assert "r1: sail to west — refused: west is not adjacent to east." in red
    assert "Order 5" not in red
    assert "not_adjacent" not in red
    # Blue never met red this turn: nothing of red's in blue's report, and the reverse.
    assert "Scarlet" not in blue
    assert "r2-2" not in blue
    assert "mutiny" not in blue
    assert "Order" not in blue
    for secret in ("Safe Haven", "blue-s1", "Repaired", "−50", "Upkeep: 4 ships", "Income"):
        assert secret not in red, secret


def test_fog_names_only_fleets_met_in_battle() -> None:
    scenario, result = resolved(skirmish())
    danes = to_markdown(faction_report(scenario, result, "danes", NAMES))
    # s2 blockaded Copenhagen without a battle with the Danes; s3 fought the pirates far away.
    assert "Copenhagen is blockaded by an enemy fleet" in danes
    assert not re.search(r"\bs[23]\b", danes)
    assert "bornholm" not in danes
    assert "p1" not in danes
    scenario, result = resolved(blockade_world())
    blue = to_markdown(faction_report(scenario, result, "blue", NAMES))
    assert "The blockade of Safe Haven by r1 (Scarlet League) is lifted" in blue
    assert "r1 (Scarlet League) surrenders to Azure Crown at Middle Sea" in blue


def lines(report: Report, heading: str) -> tuple[str, ...]:
    section = report.section(heading)
    return section.lines if section else ()


def test_moves_and_blockades_of_own_fleets() -> None:
    scenario, result = resolved(skirmish())
    swedes = faction_report(scenario, result, "swedes", NAMES)
    assert "Step 1: s1 leaves arkona_basin and sails to Øresund." in lines(swedes, "Moves")
    assert lines(swedes, "Blockades") == ("s2 blockades Copenhagen (B1).",)
    hanse = faction_report(scenario, result, "hanse", NAMES)
    assert lines(hanse, "Moves") == ("h1 supports Denmark in the battle at Øresund (S2).",)


def test_unknown_names_fall_back_to_keys() -> None:
    scenario, result = resolved(skirmish())
    report = faction_report(scenario, result, "swedes", Names())
    assert report.title == "swedes — turn report"
    assert report.battles[1].heading == "Battle at oresund (step 1)"
    assert report.battles[1].sides[1].colour is None
