"""What the moderator reviews before publishing: the state diff, and each faction's report as the
player will read it, written from the stored result only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.naval.report import text_report
from fleets.words import Words
from reports.build import Names, faction_report
from reports.markdown import to_markdown
from reports.model import Report


@dataclass(slots=True)
class FactionChange:
    faction: str  # its id
    name: str  # as the campaign names it: what the moderator reads
    treasury_before: int
    treasury_after: int
    ships_before: int
    ships_after: int
    fleets_before: int
    fleets_after: int
    report: str = ""  # Markdown, as exported
    preview: Report | None = None  # as the faction will read it on the site

    @property
    def treasury_delta(self) -> int:
        return self.treasury_after - self.treasury_before


@dataclass(slots=True)
class Review:
    changes: list[FactionChange] = field(default_factory=list)
    battles: int = 0
    sunk: int = 0
    captured: int = 0
    refused: list[dict[str, Any]] = field(default_factory=list)
    full_report: str = ""


def turn_review(
    scenario: dict[str, Any], result: dict[str, Any], names: Names | None = None
) -> Review:
    """The diff between the locked world and the result, per faction, with report previews:
    every row names factions, provinces and ports as the campaign does (fleets keep their ids,
    having no names)."""
    before, after = scenario, result["state"]
    words = Words.from_names(names or Names())
    refused = [
        {**r, "message": words.message(str(r.get("message", "")))} for r in result["refused"]
    ]
    result = {**result, "refused": refused}  # the engine's messages, in words
    review = Review(refused=refused, full_report=text_report(result, words.name))
    battles = [e for e in result["events"] if e["type"] == "battle"]
    review.battles = len(battles)
    review.sunk = sum(len(b["sunk"]) for b in battles)
    review.captured = sum(len(e["ships"]) for e in result["events"] if e["type"] == "captured")
    treasury_before = {f["id"]: f["treasury"] for f in before.get("factions", [])}
    for faction in after["factions"]:
        key = faction["id"]
        preview = faction_report(scenario, result, key, names or Names())
        review.changes.append(
            FactionChange(
                faction=key,
                name=words.faction(key),
                treasury_before=treasury_before.get(key, 0),
                treasury_after=faction["treasury"],
                ships_before=_ships(before["fleets"], key),
                ships_after=_ships(after["fleets"], key),
                fleets_before=sum(1 for f in before["fleets"] if f["owner"] == key),
                fleets_after=sum(1 for f in after["fleets"] if f["owner"] == key),
                report=to_markdown(preview),
                preview=preview,
            )
        )
    return review


def faction_report_preview(
    scenario: dict[str, Any], result: dict[str, Any], faction: str, names: Names | None = None
) -> str:
    """The report the faction will read once the turn is published (reports/), as Markdown."""
    return to_markdown(faction_report(scenario, result, faction, names or Names()))


def _ships(fleets: list[dict[str, Any]], faction: str) -> int:
    return sum(1 for f in fleets for s in f["ships"] if s.get("owner", f["owner"]) == faction)
